/**
 * The create-cloud-Hub wizard's steps, titles, URLs, regions and messages. No zod here: the wizard's pages,
 * the Hubs page and the deployment page load this, and the step schemas in cloud-hub.ts (which re-exports
 * this) only when a form is validated (decisions 062 and 105).
 */

/** The four steps of the create-cloud-Hub wizard, each a URL under /hubs/new. */
export const CLOUD_HUB_STEPS = ["url", "license", "admin", "review"] as const;
export type CloudHubStep = (typeof CLOUD_HUB_STEPS)[number];

export const CLOUD_HUB_PATH = "/hubs/new";
export const cloudHubStepUrl = (step: CloudHubStep) => `${CLOUD_HUB_PATH}/${step}`;

export const CLOUD_HUB_STEP_TITLES: Record<CloudHubStep, string> = {
  url: "Cloud Hub URL",
  license: "License",
  admin: "Administration",
  review: "Review",
};

/** Regions as the form posts them. */
export const HUB_REGION_OPTIONS = [
  { value: "1", label: "United States", region: "US" },
  { value: "2", label: "European Union", region: "EU" },
] as const;
export type CloudHubRegion = (typeof HUB_REGION_OPTIONS)[number]["region"];
export const regionFromForm = (value: unknown): CloudHubRegion => (value === "2" ? "EU" : "US");
export const regionLabel = (region: CloudHubRegion) =>
  HUB_REGION_OPTIONS.find((option) => option.region === region)?.label ?? region;

export const SELECT_A_LICENSE = "You must select a license.";
export const UNABLE_TO_VERIFY_LICENSE = "Unable to verify license.";
export const FAILED_TO_FETCH_LICENSE = "Failed to fetch license data...";
export const FIX_THE_ERRORS = "Please fix the errors to save changes.";
export const CONFIRM_DEPLOYMENT = "Confirm creation of new GateKeeper Hub cloud deployment?";

/** A Hub administrator's phone: optional plus, three digits, three digits, then 4 to 6, with optional brackets, dashes, spaces or dots. */
const HUB_PHONE = /^\+?\(?\d{3}\)?[-. ]?\(?\d{3}\)?[-. ]?\d{4,6}$/;
export const isHubPhone = (value: string) => HUB_PHONE.test(value);
