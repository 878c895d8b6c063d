import { buysAtResellerPrices } from "~/domain/access-policy";
import { TIER_NAMES } from "~/domain/subscription";
import type { SubscriptionDraft, SubscriptionStep } from "~/domain/new-subscription";
import type { StepIssue } from "~/domain/wizard";
import { errorMessage, getBilling, ProviderError, type Estimate } from "~/server/billing/index.server";
import { newSubscriptionOrder, type OrderInput } from "./new-subscription-job.server";
import type { Scope } from "~/server/accounts/index.server";
import type { LoadedDraft } from "~/server/platform/wizards/kit.server";
import { orderItems, subscriptionWizard } from "./new-subscription-wizard.server";
import { checkedOrder, orderReviewOf, submitReviewedOrder, withPoNumber } from "./order-review.server";
import { ESTIMATE_FAILED, orderDigest, type Submission } from "./placing.server";

/**
 * The Order step (the new-license wizard's seventh) and the purchase: the draft's order as it stands now,
 * checked against what lies outside the draft (the card still on file, valid addresses, a coupon still
 * valid), priced, and digested for the confirmation. The loader and the purchase compute it the same way, so
 * the purchase places exactly what the page showed, or refuses.
 */
async function currentOrder(scope: Scope, draft: LoadedDraft<SubscriptionDraft>) {
  const { organization } = scope;
  const checked = await checkedOrder(scope, draft.data);
  const { data, payment: ready } = checked;
  const problems: StepIssue<SubscriptionStep>[] = [...checked.problems];
  const shippingAddress = ready ? (ready.shippingAddress ?? ready.billingAddress ?? undefined) : undefined;
  const request: OrderInput["request"] = {
    customerId: organization.billingCustomerId ?? "",
    ...orderItems(data, buysAtResellerPrices(organization)),
    paymentSourceId: data.paymentSourceId ?? "",
    licenseAssignment: data.organization,
    shippingAddress,
  };
  let estimate: Estimate | null = null;
  let estimateError: string | null = null;
  try {
    estimate = await getBilling().estimateNewSubscription({
      ...request,
      customerId: request.customerId || undefined,
    });
  } catch (error) {
    if (!(error instanceof ProviderError)) throw error;
    estimateError = errorMessage(error, ESTIMATE_FAILED);
  }
  const input: OrderInput | null =
    estimate && problems.length === 0 && draft.id
      ? {
          draftId: draft.id,
          digest: orderDigest(request, estimate),
          request,
          organization: data.organization,
          users: data.users,
          tier: data.tier,
          hosting: data.hosting,
          offsiteAccess: data.offsiteAccess,
          origin: data.origin,
        }
      : null;
  return { ...checked, estimate, estimateError, problems, input };
}

/** What the Order step shows, and the confirmation's key (null while the order cannot be placed). */
export async function orderReview(scope: Scope) {
  const draft = await subscriptionWizard.load(scope, "order");
  const order = await currentOrder(scope, draft);
  return {
    organization: order.data.organization,
    ...orderReviewOf(newSubscriptionOrder, draft.id, order, subscriptionWizard.urlOf),
  };
}

/**
 * Purchase: the order the confirmation was for, placed once; a second post of it, or any purchase after
 * an order of this draft may have charged, leads to that order's progress page instead. The PO number typed on
 * the review goes with the order (not into its digest: it changes no price).
 */
export function purchase(scope: Scope, postedKey: string, poNumber: string | null = null): Promise<Submission> {
  return submitReviewedOrder(newSubscriptionOrder, {
    scope,
    wizard: subscriptionWizard,
    reviewStep: "order",
    postedKey,
    price: async (draft) => withPoNumber(await currentOrder(scope, draft), poNumber),
    activity: (input) => ({
      action: "order.placed",
      summary: `Placed an order for a GateKeeper ${TIER_NAMES[input.tier]} recurring license for ${input.users} users (${input.hosting === "cloud" ? "cloud" : "on-premise"} Hub), licensed to ${input.organization}.`,
    }),
  });
}
