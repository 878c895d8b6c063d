import { z } from "zod";
import { requiredText, wholeNumberField } from "./fields";
import { SELECT_PAYMENT_METHOD } from "./payment-step";
import {
  CLOUD_ONLY_REASON,
  CYCLES,
  DEFAULT_TIER,
  PLAN_TIERS,
  blockedMessage,
  excludedBy,
  offsiteAllowed,
  requiresCloud,
  type Hosting,
} from "./subscription";
import {
  CLOUD_HUB_NEEDS_CLOUD_HOSTING,
  FIX_ERRORS,
  SUBSCRIPTION_STEPS,
  addonField,
  quantityField,
  type SubscriptionStep,
} from "./subscription-steps";
import { wizardProgressFields, type StepIssue } from "./wizard";

export {
  CLOUD_HUB_NEEDS_CLOUD_HOSTING,
  FIX_ERRORS,
  STEP_TITLES,
  SUBSCRIBE_PATH,
  SUBSCRIPTION_STEPS,
  addonField,
  quantityField,
  subscriptionStepUrl,
  type SubscriptionStep,
} from "./subscription-steps";

/**
 * The draft of a new recurring license as the server keeps it between steps. Plans and add-ons are kept
 * as tier, cycle and hosting, and ids are derived for the customer (reseller- or not) when needed, so
 * switching the cycle rewrites every id at once.
 */
export const subscriptionDraftSchema = z.object({
  cycle: z.enum(["monthly", "yearly"]).default("monthly"),
  tier: z.enum(PLAN_TIERS).default(DEFAULT_TIER),
  organization: z.string().default(""),
  users: z.number().int().min(1).default(1),
  hosting: z.enum(["cloud", "on-premise"]).default("cloud"),
  offsiteAccess: z.boolean().default(false),
  /** Quantities by list id (without the reseller- prefix). */
  hardware: z.record(z.number().int().min(0)).default({}),
  support: z.record(z.number().int().min(0)).default({}),
  paymentSourceId: z.string().nullable().default(null),
  couponId: z.string().nullable().default(null),
  /** Where the wizard was opened from, e.g. cloud-hubs (the Hubs page), which changes the last screen. */
  origin: z.string().nullable().default(null),
  ...wizardProgressFields(SUBSCRIPTION_STEPS),
});

export type SubscriptionDraft = z.infer<typeof subscriptionDraftSchema>;

export const USERS_MESSAGE = "Must be at least 1.";
export const QUANTITY_MESSAGE = "Must be a whole number from 0 to 1000.";

/** Step 1. The cycle is switched by its own buttons (it rewrites prices), so it is not part of this form. */
export const planStepSchema = z.object({
  tier: z.enum(PLAN_TIERS, { errorMap: () => ({ message: "Please choose a plan." }) }),
  organization: requiredText,
  users: z.coerce.number({ invalid_type_error: USERS_MESSAGE }).int(USERS_MESSAGE).min(1, USERS_MESSAGE).max(100000),
});

export const cycleSchema = z.enum(CYCLES as ["monthly", "yearly"]);

/** Step 2: no validation beyond the two choices. */
export const hostingStepSchema = z.object({
  hosting: z.enum(["cloud", "on-premise"]).default("cloud"),
  offsiteAccess: z
    .string()
    .optional()
    .transform((value) => value === "on"),
});

/** A quantity field as posted: empty means 0; anything else must be a whole number from 0 to 1000. */
const quantity = wholeNumberField(QUANTITY_MESSAGE, { min: 0, max: 1000 });

/** Step 3: a quantity per hardware item (list ids). */
export function hardwareStepSchema(itemIds: string[]) {
  return z
    .object(Object.fromEntries(itemIds.map((id) => [quantityField(id), quantity])))
    .transform((fields) => Object.fromEntries(itemIds.map((id) => [id, fields[quantityField(id)] as number])));
}

/**
 * Step 4: the ticked support add-ons (list ids). Two that exclude each other give the second a message naming
 * the first; an installation add-on without cloud hosting gives its reason.
 */
export function supportStepSchema(addons: { id: string; name: string }[], hosting: Hosting) {
  return z
    .object(Object.fromEntries(addons.map((addon) => [addonField(addon.id), z.string().optional()])))
    .transform((fields) => addons.filter((addon) => fields[addonField(addon.id)] === "on").map((addon) => addon.id))
    .superRefine((ticked, ctx) => {
      for (const id of ticked) {
        const excluder = excludedBy(id, ticked);
        const name = addons.find((addon) => addon.id === excluder)?.name;
        // Report on the later of the pair only, so the first choice stands.
        if (excluder && name && ticked.indexOf(excluder) < ticked.indexOf(id)) {
          ctx.addIssue({ code: z.ZodIssueCode.custom, path: [addonField(id)], message: blockedMessage(name) });
        }
        if (hosting !== "cloud" && requiresCloud(id)) {
          ctx.addIssue({ code: z.ZodIssueCode.custom, path: [addonField(id)], message: CLOUD_ONLY_REASON });
        }
      }
    });
}

/** Why a step that was done no longer holds, shown at that step (the step is to be done again). */
export const OFFSITE_ACCESS_REMOVED =
  "Offsite access was removed from your order: it reaches an on-premise Hub, and a cloud Hub is reachable from anywhere.";
export const INSTALLATION_REMOVED = `Installation help was removed from your order. ${CLOUD_ONLY_REASON}`;
export const EXCLUSIVE_ADDON_REMOVED =
  "Only one kind of installation help can be ordered; the second one was removed from your order.";

/** What the rules look at: the same in a draft and in an order about to be charged. */
export interface OrderSelection {
  origin: string | null;
  hosting: Hosting;
  offsiteAccess: boolean;
  /** Support add-ons by list id (or reseller id), with their quantities. */
  support: Record<string, number>;
}

/**
 * The add-on rules over a whole selection (decision 041), whatever order the
 * steps were saved in: the selection with every choice that became impossible dropped, and why, by step.
 * Run when any step is saved, when a step loads, when the order is placed and in the job right before it
 * charges, so that going back to an earlier step can never leave a forbidden add-on in the order.
 */
export function checkSelection<Selection extends OrderSelection>(
  selection: Selection,
): { selection: Selection; issues: StepIssue<SubscriptionStep>[] } {
  const issues: StepIssue<SubscriptionStep>[] = [];
  if (selection.origin === "cloud-hubs" && selection.hosting !== "cloud")
    issues.push({ step: "hosting", message: CLOUD_HUB_NEEDS_CLOUD_HOSTING });
  const offsiteAccess = selection.offsiteAccess && offsiteAllowed(selection.hosting);
  if (selection.offsiteAccess && !offsiteAccess) issues.push({ step: "hosting", message: OFFSITE_ACCESS_REMOVED });
  const kept: string[] = [];
  for (const id of Object.keys(selection.support).filter((key) => (selection.support[key] ?? 0) > 0)) {
    if (selection.hosting !== "cloud" && requiresCloud(id))
      issues.push({ step: "support", message: INSTALLATION_REMOVED });
    else if (excludedBy(id, kept)) issues.push({ step: "support", message: EXCLUSIVE_ADDON_REMOVED });
    else kept.push(id);
  }
  const support = Object.fromEntries(
    Object.entries(selection.support).filter(([id, quantity]) => quantity > 0 && kept.includes(id)),
  );
  return { selection: { ...selection, offsiteAccess, support }, issues: dedupe(issues) };
}

const dedupe = <T extends { step: string; message: string }>(issues: T[]) =>
  issues.filter(
    (issue, index) =>
      issues.findIndex((other) => other.step === issue.step && other.message === issue.message) === index,
  );

/** The whole draft: the selection rules, and what each step needs to count as done. */
export function checkSubscriptionDraft(draft: SubscriptionDraft): {
  data: SubscriptionDraft;
  issues: StepIssue<SubscriptionStep>[];
} {
  const { selection, issues } = checkSelection(draft);
  if (!draft.organization.trim() || draft.users < 1) issues.unshift({ step: "plan", message: FIX_ERRORS });
  if (!draft.paymentSourceId) issues.push({ step: "billing", message: SELECT_PAYMENT_METHOD });
  return { data: selection, issues };
}
