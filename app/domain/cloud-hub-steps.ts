/**
 * The create-cloud-Hub wizard's steps: names, titles and URLs. No zod here: the wizard's layout, the Hubs
 * page and the deployment page load this, not the step schemas in cloud-hub.ts (decision 062).
 */

/** The four steps of the create-cloud-Hub wizard (spec 001 §2), each a URL under /hubs/new. */
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
