import { z } from "zod";
import { hubAdministratorSchema, urlStepSchema } from "./cloud-hub";
import { isCountryCode } from "./countries";
import { isDistributor } from "./customers";
import { MAX_TEXT_LENGTH, tooLong } from "./fields";
import { subdomainProblem } from "./hub-subdomain";
import { idFor } from "./subscription";
import { wizardProgressFields, type StepIssue } from "./wizard";

/**
 * The trial wizards' rules (spec 001 §2, §4, §5, §9): their steps, each step's form, the whole draft's
 * check, the license's dates and the hardware the trial orders. Eligibility is in ./trials (every page's
 * header asks it, so it stays small).
 */

/** The two trial wizards (spec 001 §2): a cloud Hub we host, or a Hub the customer installs. */
export const TRIAL_HUB_TYPES = ["cloud", "onpremise"] as const;
export type TrialHubType = (typeof TRIAL_HUB_TYPES)[number];
export const isTrialHubType = (value: unknown): value is TrialHubType => value === "cloud" || value === "onpremise";

/** Every step either wizard has; each wizard's own list is below, in its order. */
export const TRIAL_STEPS = ["welcome", "instance", "license", "admin", "hardware", "address", "payment", "review", "order"] as const;
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

/** Spec 001 §9: the trial modals are 1060 (cloud) and 1000 (on-premise) wide. */
export const TRIAL_MODAL_WIDTHS: Record<TrialHubType, number> = { cloud: 1060, onpremise: 1000 };

export const trialPath = (hubType: TrialHubType) => `/trial/${hubType}`;
export const trialStepUrl = (hubType: TrialHubType, step: TrialStep) => `${trialPath(hubType)}/${step}`;

/** The step a step's Next leads to, as its button says it ('Next: Hardware'). */
export function nextStepTitle(hubType: TrialHubType, step: TrialStep): string {
  const steps = TRIAL_STEPS_BY_TYPE[hubType];
  const next = steps[steps.indexOf(step) + 1];
  return next ? `Next: ${TRIAL_STEP_TITLES[next]}` : "Next";
}

export const previousStepUrl = (hubType: TrialHubType, step: TrialStep): string | undefined => {
  const steps = TRIAL_STEPS_BY_TYPE[hubType];
  const previous = steps[steps.indexOf(step) - 1];
  return previous ? trialStepUrl(hubType, previous) : undefined;
};

// --- Limits and messages (spec 001 §5 and §9) --------------------------------------------------------------

export const TRIAL_USERS = { min: 1, max: 100 } as const;
export const TRIAL_DURATION = { min: 15, max: 30, default: 30 } as const;
export const HARDWARE_QUANTITY = { min: 0, max: 100 } as const;
/** Spec 001 §9: the license always runs 7 days past the trial, so hardware can arrive and be set up. */
export const LICENSE_EXTRA_DAYS = 7;

export const MUST_BE_GREATER_THAN_0 = "Must be greater than 0";
export const INVALID_DATE = "This is an invalid date";
export const START_DATE_IN_PAST = "The start date cannot be in the past.";
export const DURATION_RANGE = "Must be between 15 and 30";
export const TOO_MANY_TRIAL_USERS = `A trial has at most ${TRIAL_USERS.max} users.`;
export const MUST_HAVE_A_VALUE = "Must have a value";
export const HARDWARE_RANGE = "Choose between 0 and 100.";
export const HARDWARE_PURCHASE_FAILED = "Hardware purchase failed.";
export const USE_THE_STORE = "Please use the Store page to place your hardware order";
export const CARD_NOT_CHARGED = "Your credit card was not charged.";

/** The license's dates (spec 001 §7): from the day before the start to the start plus duration plus 7 days. */
export function trialValidity(startDate: string, duration: number): { validFrom: Date; validTo: Date } {
  const start = new Date(`${startDate}T00:00:00.000Z`);
  const day = 24 * 60 * 60 * 1000;
  return { validFrom: new Date(start.getTime() - day), validTo: new Date(start.getTime() + (duration + LICENSE_EXTRA_DAYS) * day) };
}

/** Today as the date field posts it (YYYY-MM-DD, UTC). */
export const isoDay = (date: Date) => date.toISOString().slice(0, 10);

/** A whole number typed into a field: empty gives `emptyMessage`, the range `rangeMessage` (NumberInput posts raw text). */
function wholeNumber(range: { min: number; max: number }, emptyMessage: string, belowMessage: string, aboveMessage: string) {
  return z
    .string({ required_error: emptyMessage })
    .trim()
    .max(12, aboveMessage)
    .transform((value, ctx) => {
      const number = Number(value);
      if (value === "") ctx.addIssue({ code: z.ZodIssueCode.custom, message: emptyMessage });
      else if (!Number.isInteger(number)) ctx.addIssue({ code: z.ZodIssueCode.custom, message: belowMessage });
      else if (number < range.min) ctx.addIssue({ code: z.ZodIssueCode.custom, message: belowMessage });
      else if (number > range.max) ctx.addIssue({ code: z.ZodIssueCode.custom, message: aboveMessage });
      else return number;
      return z.NEVER;
    });
}

/** The trial's Hub: users, employees, start (a hidden field) and duration; `today` bounds the start. */
export function trialHubStepSchema(today: string) {
  return z.object({
    nodes: wholeNumber(TRIAL_USERS, MUST_BE_GREATER_THAN_0, MUST_BE_GREATER_THAN_0, TOO_MANY_TRIAL_USERS),
    employees: wholeNumber({ min: 1, max: 10_000_000 }, MUST_BE_GREATER_THAN_0, MUST_BE_GREATER_THAN_0, "Please enter a smaller number."),
    startDate: z
      .string({ required_error: INVALID_DATE })
      .trim()
      .refine((value) => /^\d{4}-\d{2}-\d{2}$/.test(value) && !Number.isNaN(Date.parse(`${value}T00:00:00Z`)), INVALID_DATE)
      .refine((value) => value >= today, START_DATE_IN_PAST),
    duration: wholeNumber(TRIAL_DURATION, DURATION_RANGE, DURATION_RANGE, DURATION_RANGE),
  });
}

/** The cloud trial's Hub Instance step: the Hub step plus the Hub's address and region (the Hub wizard's rules). */
export const trialInstanceStepSchema = (today: string) => trialHubStepSchema(today).merge(urlStepSchema);

const hardwareQuantity = wholeNumber(HARDWARE_QUANTITY, MUST_HAVE_A_VALUE, HARDWARE_RANGE, HARDWARE_RANGE);
export const trialHardwareStepSchema = z.object({ tokens: hardwareQuantity, sensors: hardwareQuantity });

const addressText = z.string({ required_error: MUST_HAVE_A_VALUE }).trim().min(1, MUST_HAVE_A_VALUE).max(MAX_TEXT_LENGTH, tooLong(MAX_TEXT_LENGTH));

/** Where the trial's hardware is shipped (spec 001 §3 "address"); every field must have a value. */
export const trialAddressSchema = z.object({
  name: addressText,
  company: addressText,
  street: addressText,
  city: addressText,
  state: addressText,
  zipcode: addressText,
  country: addressText.transform((code) => code.toUpperCase()).refine(isCountryCode, MUST_HAVE_A_VALUE),
});
export type TrialAddress = z.infer<typeof trialAddressSchema>;

export const trialDraftSchema = z.object({
  nodes: z.number().int().nullable().default(null),
  employees: z.number().int().nullable().default(null),
  startDate: z.string().nullable().default(null),
  duration: z.number().int().default(TRIAL_DURATION.default),
  subdomain: z.string().default(""),
  region: z.enum(["US", "EU"]).default("US"),
  administrator: hubAdministratorSchema.nullable().default(null),
  /** The typed administrator password, sealed (server/wizards/sealed.server.ts); never plaintext. */
  sealedPassword: z.string().nullable().default(null),
  tokens: z.number().int().default(0),
  sensors: z.number().int().default(0),
  address: z
    .object({ name: z.string(), company: z.string(), street: z.string(), city: z.string(), state: z.string(), zipcode: z.string(), country: z.string() })
    .nullable()
    .default(null),
  paymentSourceId: z.string().nullable().default(null),
  ...wizardProgressFields(TRIAL_STEPS),
});
export type TrialDraft = z.infer<typeof trialDraftSchema>;

export const hardwareCount = (draft: Pick<TrialDraft, "tokens" | "sensors">) => draft.tokens + draft.sensors;

/** The rules over a whole trial draft: a step whose values went missing or no longer hold is not done. */
export function checkTrialDraft(hubType: TrialHubType, data: TrialDraft, today: string): { data: TrialDraft; issues: StepIssue<TrialStep>[] } {
  const issues: StepIssue<TrialStep>[] = [];
  const hubStep: TrialStep = hubType === "cloud" ? "instance" : "license";
  if (!data.nodes || !data.employees || !data.startDate) issues.push({ step: hubStep, message: "Please enter your trial's details again." });
  else if (data.startDate < today) issues.push({ step: hubStep, message: `${START_DATE_IN_PAST} Please choose the start again.` });
  if (hubType === "cloud") {
    if (subdomainProblem(data.subdomain)) issues.push({ step: "instance", message: "Please choose the Hub's address again." });
    if (!data.administrator || !data.sealedPassword) issues.push({ step: "admin", message: "Please enter the Hub administrator again." });
  }
  if (!data.address) issues.push({ step: "address", message: "Please enter the shipping address again." });
  if (hardwareCount(data) > 0 && !data.paymentSourceId) issues.push({ step: "payment", message: "Please choose the card for your hardware again." });
  return { data, issues };
}

/** The hardware a trial can order (spec 001 §3): list ids; a distributor buys their reseller- variants. */
export const TRIAL_HARDWARE = { tokens: "halberd-rechargeable-token", sensors: "usb-sensor" } as const;

/** The id of a hardware kind as this customer buys it. */
export const trialHardwareId = (kind: keyof typeof TRIAL_HARDWARE, customer: { customerType: string }) => idFor(TRIAL_HARDWARE[kind], isDistributor(customer));

/** The trial's failure screens (spec 001 §4 and §8); every one says the card was not charged, except hardware's own. */
export const TRIAL_FAILURES = {
  license: {
    title: "Error Creating Trial License",
    message: `Error creating your GateKeeper Trial License! ${CARD_NOT_CHARGED} Please contact us on the Support page; you can buy hardware in the Store.`,
  },
  hardware: { title: HARDWARE_PURCHASE_FAILED, message: USE_THE_STORE },
} as const;

/** The Hub step's form values from the draft; a start that has passed becomes today. */
export function trialHubDefaults(data: TrialDraft, today: string) {
  return {
    nodes: data.nodes ?? undefined,
    employees: data.employees ?? undefined,
    startDate: data.startDate && data.startDate >= today ? data.startDate : today,
    duration: data.duration,
  };
}

/** The administrator's username made of the first and last name (spec 001 §2), in the characters a username may have. */
export const userNameFrom = (firstName: string, lastName: string) => `${firstName}${lastName}`.replace(/[^A-Za-z0-9-]/g, "");

export const SEVEN_DAYS_NOTICE = `${LICENSE_EXTRA_DAYS} days are added to your trial license, so that your hardware can arrive and be set up.`;
