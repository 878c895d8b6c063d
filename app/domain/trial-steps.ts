/**
 * The trial wizards' steps, titles, URLs, limits and messages, and the helpers their pages use. No zod here: the
 * pages load this, and the step schemas in ./trial-wizard only when a form is validated (decisions 062 and 105).
 */

import { customerSearch } from "./subscription-steps";

/**
 * The draft's figures the helpers below read. The draft's schema is in ./trial-wizard, which builds on this
 * module: this one names only what it reads, so the two do not import each other.
 */
interface TrialFigures {
  nodes: number | null;
  employees: number | null;
  startDate: string | null;
  duration: number;
  tokens: number;
  sensors: number;
}

/** The two trial wizards: a cloud Hub we host, or a Hub the customer installs. */
export const TRIAL_HUB_TYPES = ["cloud", "onpremise"] as const;
export type TrialHubType = (typeof TRIAL_HUB_TYPES)[number];
export const isTrialHubType = (value: unknown): value is TrialHubType => value === "cloud" || value === "onpremise";

/** Every step either wizard has; each wizard's own list is below, in its order. */
export const TRIAL_STEPS = [
  "welcome",
  "instance",
  "license",
  "admin",
  "hardware",
  "address",
  "payment",
  "review",
  "order",
] as const;
export type TrialStep = (typeof TRIAL_STEPS)[number];

export const TRIAL_STEPS_BY_TYPE: Record<TrialHubType, readonly TrialStep[]> = {
  cloud: ["welcome", "instance", "admin", "hardware", "address", "payment", "review", "order"],
  onpremise: ["welcome", "license", "hardware", "address", "payment", "review", "order"],
};

export const TRIAL_STEP_TITLES: Record<TrialStep, string> = {
  welcome: "Welcome",
  instance: "Hub Instance",
  license: "License",
  admin: "Hub Admin",
  hardware: "Hardware",
  address: "Address",
  payment: "Payment",
  review: "Review",
  order: "Order",
};

export const TRIAL_WIZARD_TITLES: Record<TrialHubType, string> = {
  cloud: "GateKeeper Cloud Hub Trial Setup",
  onpremise: "GateKeeper On-Premise Hub Trial Setup",
};

/** The trial modals' widths: 1060 (cloud) and 1000 (on-premise). */
export const TRIAL_MODAL_WIDTHS: Record<TrialHubType, number> = { cloud: 1060, onpremise: 1000 };

export const trialPath = (hubType: TrialHubType) => `/trial/${hubType}`;

/**
 * A step's URL. A distributor's trial for an end customer carries `?customer=` (its id) on every step, as an order
 * for one does: its own draft, and the license is the customer's.
 */
export const trialStepUrl = (hubType: TrialHubType, step: TrialStep, customer?: string | null) =>
  `${trialPath(hubType)}/${step}${customerSearch(customer)}`;

/** The trial chooser, for the organization itself or (a distributor's) for an end customer. */
export const trialChooserUrl = (customer?: string | null) => `/trial${customerSearch(customer)}`;

/** The step a step's Next leads to, as its button says it ('Next: Hardware'). */
export function nextStepTitle(hubType: TrialHubType, step: TrialStep): string {
  const steps = TRIAL_STEPS_BY_TYPE[hubType];
  const next = steps[steps.indexOf(step) + 1];
  return next ? `Next: ${TRIAL_STEP_TITLES[next]}` : "Next";
}

export const previousStepUrl = (
  hubType: TrialHubType,
  step: TrialStep,
  customer?: string | null,
): string | undefined => {
  const steps = TRIAL_STEPS_BY_TYPE[hubType];
  const previous = steps[steps.indexOf(step) - 1];
  return previous ? trialStepUrl(hubType, previous, customer) : undefined;
};

// --- Limits and messages ---------------------------------------------------------------------------------------

export const TRIAL_USERS = { min: 1, max: 100 } as const;
export const TRIAL_DURATION = { min: 15, max: 30, default: 30 } as const;
export const HARDWARE_QUANTITY = { min: 0, max: 100 } as const;
/** A trial license always runs 7 days past the trial, so hardware can arrive and be set up. */
export const LICENSE_EXTRA_DAYS = 7;

export const MUST_BE_GREATER_THAN_0 = "Must be greater than 0";
export const INVALID_DATE = "This is an invalid date";
export const START_DATE_IN_PAST = "The start date cannot be in the past.";
/** How far ahead a trial may start: far enough to plan, near enough that the trial is still wanted. */
export const START_DATE_WINDOW_DAYS = 90;
export const START_DATE_TOO_FAR = `The start date must be within ${START_DATE_WINDOW_DAYS} days from today.`;
export const DURATION_RANGE = "Must be between 15 and 30";
export const TOO_MANY_TRIAL_USERS = `A trial has at most ${TRIAL_USERS.max} users.`;
export const MUST_HAVE_A_VALUE = "Must have a value";
export const HARDWARE_RANGE = "Choose between 0 and 100.";
export const HARDWARE_PURCHASE_FAILED = "Hardware purchase failed.";
export const USE_THE_STORE = "Please use the Store page to place your hardware order";
export const CARD_NOT_CHARGED = "Your credit card was not charged.";

/** The license's dates: from the day before the start to the start plus duration plus 7 days. */
export function trialValidity(startDate: string, duration: number): { validFrom: Date; validTo: Date } {
  const start = new Date(`${startDate}T00:00:00.000Z`);
  const day = 24 * 60 * 60 * 1000;
  return {
    validFrom: new Date(start.getTime() - day),
    validTo: new Date(start.getTime() + (duration + LICENSE_EXTRA_DAYS) * day),
  };
}

/** Today as the date field posts it (YYYY-MM-DD, UTC). */
export const isoDay = (date: Date) => date.toISOString().slice(0, 10);

export const hardwareCount = (draft: Pick<TrialFigures, "tokens" | "sensors">) => draft.tokens + draft.sensors;

/** The Hub step's form values from the draft; a start that has passed becomes today. */
export function trialHubDefaults(data: TrialFigures, today: string) {
  return {
    nodes: data.nodes ?? undefined,
    employees: data.employees ?? undefined,
    startDate: data.startDate && data.startDate >= today ? data.startDate : today,
    duration: data.duration,
  };
}

/** The administrator's username made of the first and last name, in the characters a username may have. */
export const userNameFrom = (firstName: string, lastName: string) =>
  `${firstName}${lastName}`.replace(/[^A-Za-z0-9-]/g, "");

export const SEVEN_DAYS_NOTICE = `${LICENSE_EXTRA_DAYS} days are added to your trial license, so that your hardware can arrive and be set up.`;
