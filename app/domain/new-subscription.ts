import { z } from "zod";
import { requiredText } from "./account";
import {
  CLOUD_ONLY_REASON,
  CYCLES,
  DEFAULT_TIER,
  PLAN_TIERS,
  blockedMessage,
  excludedBy,
  requiresCloud,
  type Hosting,
} from "./subscription";

/** The seven steps of the new-subscription wizard, in order; each is a URL under /store/subscribe. */
export const SUBSCRIPTION_STEPS = ["plan", "hosting", "hardware", "support", "review", "billing", "order"] as const;
export type SubscriptionStep = (typeof SUBSCRIPTION_STEPS)[number];

export const SUBSCRIBE_PATH = "/store/subscribe";

/** A step's URL (the browser builds links with it, so it lives here rather than in the server's wizard). */
export const subscriptionStepUrl = (step: SubscriptionStep) => `${SUBSCRIBE_PATH}/${step}`;

export const STEP_TITLES: Record<SubscriptionStep, string> = {
  plan: "Plan",
  hosting: "Hosting",
  hardware: "Hardware",
  support: "Support",
  review: "Review",
  billing: "Billing",
  order: "Order",
};

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
  completed: z.array(z.enum(SUBSCRIPTION_STEPS)).default([]),
  /** Bumped when an order failed and the user submits again, so the retry gets a fresh idempotency key. */
  orderAttempt: z.number().int().min(0).default(0),
});

export type SubscriptionDraft = z.infer<typeof subscriptionDraftSchema>;

export const USERS_MESSAGE = "Must be at least 1.";
export const QUANTITY_MESSAGE = "Must be a whole number from 0 to 1000.";
export const FIX_ERRORS = "Please fix the errors.";

/** Step 1. The cycle is switched by its own buttons (it rewrites prices), so it is not part of this form. */
export const planStepSchema = z.object({
  tier: z.enum(PLAN_TIERS, { errorMap: () => ({ message: "Please choose a plan." }) }),
  organization: requiredText,
  users: z.coerce.number({ invalid_type_error: USERS_MESSAGE }).int(USERS_MESSAGE).min(1, USERS_MESSAGE).max(100000),
});

export const cycleSchema = z.enum(CYCLES as ["monthly", "yearly"]);

/** Step 2: no validation beyond the two choices (spec 000 §5: hosting is always valid). */
export const hostingStepSchema = z.object({
  hosting: z.enum(["cloud", "on-premise"]).default("cloud"),
  offsiteAccess: z
    .string()
    .optional()
    .transform((value) => value === "on"),
});

/** A quantity field as posted: empty means 0; anything else must be a whole number from 0 to 1000. */
const quantity = z
  .string()
  .trim()
  .default("")
  .transform((value, ctx) => {
    if (value === "") return 0;
    const number = Number(value);
    if (!Number.isInteger(number) || number < 0 || number > 1000) {
      ctx.addIssue({ code: z.ZodIssueCode.custom, message: QUANTITY_MESSAGE });
      return z.NEVER;
    }
    return number;
  });

export const quantityField = (id: string) => `quantity-${id}`;
export const addonField = (id: string) => `addon-${id}`;

/** Step 3: a quantity per hardware item (list ids). */
export function hardwareStepSchema(itemIds: string[]) {
  return z
    .object(Object.fromEntries(itemIds.map((id) => [quantityField(id), quantity])))
    .transform((fields) => Object.fromEntries(itemIds.map((id) => [id, fields[quantityField(id)] as number])));
}

/**
 * Step 4: the ticked support add-ons (list ids). Two that exclude each other give the spec's message on
 * the second; an installation add-on without cloud hosting gives its reason.
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
