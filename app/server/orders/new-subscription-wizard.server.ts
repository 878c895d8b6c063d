import { memberGuard } from "~/server/accounts/index.server";
import { buysAtResellerPrices } from "~/domain/access-policy";
import type { OrganizationKind } from "~db/schema";
import { estimateView } from "~/domain/estimate";
import {
  checkSubscriptionDraft,
  cycleSchema,
  planStepSchema,
  SUBSCRIBE_PATH,
  subscriptionDraftSchema,
  SUBSCRIPTION_STEPS,
  type SubscriptionDraft,
} from "~/domain/new-subscription";
import { STEP_TITLES } from "~/domain/subscription-steps";
import { hostingAddonId, idFor, offsiteAccessAddonId, planId } from "~/domain/subscription";
import { errorMessage, getBilling, ProviderError, type Estimate } from "~/server/billing/index.server";
import { defineWizard, wizardLayout } from "~/server/platform/wizards/kit.server";
import { ESTIMATE_FAILED } from "./placing.server";

export const subscriptionWizard = defineWizard({
  draftName: () => "new-subscription",
  steps: SUBSCRIPTION_STEPS,
  stepTitles: STEP_TITLES,
  basePath: () => SUBSCRIBE_PATH,
  schema: subscriptionDraftSchema,
  check: checkSubscriptionDraft,
}).at({});

/** The wizard's layout route: a drawer over the Store; Close goes back to it. */
export const subscriptionWizardLayout = wizardLayout(
  memberGuard,
  "purchase",
  () => ({ wizard: subscriptionWizard, view: {} }),
  "/store",
);

/**
 * The plan step's cycle buttons (intent "cycle-monthly" or "cycle-yearly"): the draft's new cycle with whatever
 * of the typed plan fields is valid, so switching keeps what was typed; null for any other intent.
 */
export function cycleSwitch(intent: string, formData: FormData): Partial<SubscriptionDraft> | null {
  const cycle = cycleSchema.safeParse(intent.replace(/^cycle-/, ""));
  if (!intent.startsWith("cycle-") || !cycle.success) return null;
  const typed = planStepSchema.partial().safeParse(Object.fromEntries(formData));
  return { cycle: cycle.data, ...(typed.success ? typed.data : {}) };
}

const quantities = (byListId: Record<string, number>, reseller: boolean) =>
  Object.entries(byListId)
    .filter(([, quantity]) => quantity > 0)
    .map(([id, quantity]) => ({ id: idFor(id, reseller), quantity }));

/** The order the draft describes, in the billing port's terms (for its estimate and its creation). */
export function orderItems(draft: SubscriptionDraft, reseller: boolean) {
  return {
    planId: planId(draft.tier, draft.cycle, reseller),
    planQuantity: draft.users,
    // The hosting add-on, and offsite access when chosen, each with quantity 1.
    addons: [
      { id: hostingAddonId(draft.hosting, draft.cycle, reseller), quantity: 1 },
      ...(draft.offsiteAccess ? [{ id: offsiteAccessAddonId(draft.cycle, reseller), quantity: 1 }] : []),
    ],
    oneTimeAddons: quantities(draft.support, reseller),
    hardware: quantities(draft.hardware, reseller),
    couponIds: draft.couponId ? [draft.couponId] : [],
  };
}

/**
 * What the draft's items cost, before the customer's own balance and addresses come in (the Review step):
 * made without a billing customer, so that a page read never has to create one.
 */
export function estimateDraft(
  customer: { customerType: OrganizationKind },
  draft: SubscriptionDraft,
  options: { withCoupon: boolean },
): Promise<Estimate> {
  const items = orderItems(draft, buysAtResellerPrices(customer));
  return getBilling().estimateNewSubscription({
    ...items,
    couponIds: options.withCoupon ? items.couponIds : [],
  });
}

/** An estimate for a page, or the message to show in its place. */
export async function estimateForPage(estimate: () => Promise<Estimate>) {
  try {
    return { estimate: estimateView(await estimate()), estimateError: null };
  } catch (error) {
    if (!(error instanceof ProviderError)) throw error;
    return { estimate: null, estimateError: errorMessage(error, ESTIMATE_FAILED) };
  }
}
