import { z } from "zod";
import { hubAdministratorSchema, urlStepSchema } from "./cloud-hub";
import { isCountryCode } from "./countries";
import type { OrganizationKind } from "~db/schema";
import { buysAtResellerPrices } from "./access-policy";
import { MAX_TEXT_LENGTH, tooLong } from "./fields";
import { subdomainProblem } from "./hub-subdomain";
import { idFor } from "./subscription";
import {
  CARD_NOT_CHARGED,
  HARDWARE_PURCHASE_FAILED,
  HARDWARE_QUANTITY,
  HARDWARE_RANGE,
  INVALID_DATE,
  DURATION_RANGE,
  MUST_BE_GREATER_THAN_0,
  MUST_HAVE_A_VALUE,
  START_DATE_IN_PAST,
  START_DATE_TOO_FAR,
  START_DATE_WINDOW_DAYS,
  TOO_MANY_TRIAL_USERS,
  TRIAL_DURATION,
  TRIAL_STEPS,
  TRIAL_USERS,
  USE_THE_STORE,
  hardwareCount,
  isoDay,
  type TrialHubType,
  type TrialStep,
} from "./trial-steps";
import { wizardProgressFields, type StepIssue } from "./wizard";

export * from "./trial-steps";

/**
 * The trial wizards' rules: each step's form, the whole draft's check and the
 * hardware the trial orders; steps, titles, limits and messages are in ./trial-steps (re-exported here). Eligibility is in ./trials (every page's
 * header asks it, so it stays small).
 */

/** A whole number typed into a field: empty gives `emptyMessage`, the range `rangeMessage` (NumberInput posts raw text). */
function wholeNumber(
  range: { min: number; max: number },
  emptyMessage: string,
  belowMessage: string,
  aboveMessage: string,
) {
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

/**
 * What is wrong with a trial's start date, or undefined: it must be a real calendar day (`2027-02-30` is not;
 * JavaScript would make it March 2) from today to START_DATE_WINDOW_DAYS ahead, so that the license's dates are
 * ones a license file can carry.
 */
export function startDateProblem(value: string, today: string): string | undefined {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value) || isoDayOrNull(value) !== value) return INVALID_DATE;
  if (value < today) return START_DATE_IN_PAST;
  if (value > addDays(today, START_DATE_WINDOW_DAYS)) return START_DATE_TOO_FAR;
  return undefined;
}

const isoDayOrNull = (value: string) => {
  const date = new Date(`${value}T00:00:00.000Z`);
  return Number.isNaN(date.getTime()) ? null : isoDay(date);
};

const addDays = (day: string, days: number) => isoDay(new Date(Date.parse(`${day}T00:00:00.000Z`) + days * 86_400_000));

/** The trial's Hub: users, employees, start (a hidden field) and duration; `today` bounds the start. */
export function trialHubStepSchema(today: string) {
  return z.object({
    nodes: wholeNumber(TRIAL_USERS, MUST_BE_GREATER_THAN_0, MUST_BE_GREATER_THAN_0, TOO_MANY_TRIAL_USERS),
    employees: wholeNumber(
      { min: 1, max: 10_000_000 },
      MUST_BE_GREATER_THAN_0,
      MUST_BE_GREATER_THAN_0,
      "Please enter a smaller number.",
    ),
    startDate: z
      .string({ required_error: INVALID_DATE })
      .trim()
      .superRefine((value, ctx) => {
        const problem = startDateProblem(value, today);
        if (problem) ctx.addIssue({ code: z.ZodIssueCode.custom, message: problem });
      }),
    duration: wholeNumber(TRIAL_DURATION, DURATION_RANGE, DURATION_RANGE, DURATION_RANGE),
  });
}

/** The cloud trial's Hub Instance step: the Hub step plus the Hub's address and region (the Hub wizard's rules). */
export const trialInstanceStepSchema = (today: string) => trialHubStepSchema(today).merge(urlStepSchema);

const hardwareQuantity = wholeNumber(HARDWARE_QUANTITY, MUST_HAVE_A_VALUE, HARDWARE_RANGE, HARDWARE_RANGE);
export const trialHardwareStepSchema = z.object({ tokens: hardwareQuantity, sensors: hardwareQuantity });

const addressText = z
  .string({ required_error: MUST_HAVE_A_VALUE })
  .trim()
  .min(1, MUST_HAVE_A_VALUE)
  .max(MAX_TEXT_LENGTH, tooLong(MAX_TEXT_LENGTH));

/** Where the trial's hardware is shipped; every field must have a value. */
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

/** The shipping address as the draft and the job keep it, once trialAddressSchema has checked what was typed. */
export const keptTrialAddressSchema = z.object({
  name: z.string(),
  company: z.string(),
  street: z.string(),
  city: z.string(),
  state: z.string(),
  zipcode: z.string(),
  country: z.string(),
});

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
  address: keptTrialAddressSchema.nullable().default(null),
  paymentSourceId: z.string().nullable().default(null),
  ...wizardProgressFields(TRIAL_STEPS),
});
export type TrialDraft = z.infer<typeof trialDraftSchema>;

/** The rules over a whole trial draft: a step whose values went missing or no longer hold is not done. */
export function checkTrialDraft(
  hubType: TrialHubType,
  data: TrialDraft,
  today: string,
): { data: TrialDraft; issues: StepIssue<TrialStep>[] } {
  const issues: StepIssue<TrialStep>[] = [];
  const hubStep: TrialStep = hubType === "cloud" ? "instance" : "license";
  if (!data.nodes || !data.employees || !data.startDate)
    issues.push({ step: hubStep, message: "Please enter your trial's details again." });
  else if (startDateProblem(data.startDate, today))
    issues.push({
      step: hubStep,
      message: `${startDateProblem(data.startDate, today)} Please choose the start again.`,
    });
  if (hubType === "cloud") {
    if (subdomainProblem(data.subdomain))
      issues.push({ step: "instance", message: "Please choose the Hub's address again." });
    if (!data.administrator || !data.sealedPassword)
      issues.push({ step: "admin", message: "Please enter the Hub administrator again." });
  }
  if (!data.address) issues.push({ step: "address", message: "Please enter the shipping address again." });
  if (hardwareCount(data) > 0 && !data.paymentSourceId)
    issues.push({ step: "payment", message: "Please choose the card for your hardware again." });
  return { data, issues };
}

/** The hardware a trial can order: list ids; a distributor buys their reseller- variants. */
export const TRIAL_HARDWARE = { tokens: "halberd-rechargeable-token", sensors: "usb-sensor" } as const;

/** The id of a hardware kind as this customer buys it. */
export const trialHardwareId = (kind: keyof typeof TRIAL_HARDWARE, customer: { customerType: OrganizationKind }) =>
  idFor(TRIAL_HARDWARE[kind], buysAtResellerPrices(customer));

/** The trial's failure screens; every one says the card was not charged, except hardware's own. */
export const TRIAL_FAILURES = {
  license: {
    title: "Error Creating Trial License",
    message: `Error creating your GateKeeper Trial License! ${CARD_NOT_CHARGED} Please contact us on the Support page; you can buy hardware in the Store.`,
  },
  hardware: { title: HARDWARE_PURCHASE_FAILED, message: USE_THE_STORE },
} as const;
