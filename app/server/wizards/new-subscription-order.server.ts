import { INVALID_ADDRESSES, isUsableSource, NO_PAYMENT_METHOD } from "~/domain/payment-step";
import { isDistributor } from "~/domain/customers";
import { estimateView } from "~/domain/estimate";
import { SUBSCRIPTION_STEPS, type SubscriptionDraft, type SubscriptionStep } from "~/domain/new-subscription";
import { firstIncompleteBefore, type StepIssue } from "~/domain/wizard";
import { addressForPage, loadAccountBilling } from "../account-billing.server";
import { errorMessage, getBilling, ProviderError, type Estimate } from "../billing/index.server";
import { newSubscriptionOrder, type OrderInput } from "../jobs/new-subscription.server";
import type { UserRecord } from "../users.server";
import { couponProblem } from "./coupons.server";
import type { LoadedDraft } from "./kit.server";
import { orderItems, subscriptionWizard } from "./new-subscription.server";
import { ESTIMATE_FAILED, orderDigest, orderKey, submitOrder, type Submission } from "./orders.server";

/**
 * The Order step (spec 000 §2 step 7) and the purchase: the draft's order as it stands now, checked
 * against what lies outside the draft (the card still on file, valid addresses, a coupon still valid),
 * priced, and digested for the confirmation. The loader and the purchase compute it the same way, so
 * the purchase places exactly what the page showed, or refuses.
 */
async function currentOrder(user: UserRecord, draft: LoadedDraft<SubscriptionDraft>) {
  const { payment, billingProfile } = await loadAccountBilling(user);
  const couponError = draft.data.couponId ? await couponProblem(user, draft.data.couponId) : null;
  // A coupon that stopped being valid is left out of the order, and the page says why (spec 000 §4).
  const data = couponError ? { ...draft.data, couponId: null } : draft.data;
  const ready = payment.status === "ready" ? payment : null;
  const source =
    ready?.sources.find((candidate) => candidate.id === data.paymentSourceId && isUsableSource(candidate)) ?? null;
  const problems: StepIssue<SubscriptionStep>[] = [];
  if (!source || !user.billingCustomerId) problems.push({ step: "billing", message: NO_PAYMENT_METHOD });
  if (ready && !ready.addressesValid) problems.push({ step: "billing", message: INVALID_ADDRESSES });
  const shippingAddress = ready ? (ready.shippingAddress ?? ready.billingAddress ?? undefined) : undefined;
  const request: OrderInput["request"] = {
    customerId: user.billingCustomerId ?? "",
    ...orderItems(data, isDistributor(user)),
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
      startDate: new Date(),
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
  return {
    data,
    couponError,
    estimate,
    estimateError,
    problems,
    input,
    payment: ready,
    billingProfile,
    card: source?.card ?? null,
  };
}

/** What the Order step shows, and the confirmation's key (null while the order cannot be placed). */
export async function orderReview(user: UserRecord) {
  const draft = subscriptionWizard.load(user.id, "order");
  const order = await currentOrder(user, draft);
  return {
    organization: order.data.organization,
    couponId: order.data.couponId,
    couponError: order.couponError,
    estimate: order.estimate ? estimateView(order.estimate) : null,
    estimateError: order.estimateError,
    problems: order.problems.map((problem) => ({ ...problem, to: subscriptionWizard.urlOf(problem.step) })),
    orderKey: order.input && draft.id ? orderKey(newSubscriptionOrder, draft.id, order.input.digest) : null,
    billingProfile: order.billingProfile === "error" ? null : order.billingProfile,
    billingAddress: addressForPage(order.payment?.billingAddress),
    shippingAddress: addressForPage(order.payment?.shippingAddress),
    card: order.card,
  };
}

/**
 * Purchase: the order the confirmation was for, placed once; a second post of it, or any purchase after
 * an order of this draft may have charged, leads to that order's progress page instead.
 */
export async function purchase(user: UserRecord, postedKey: string): Promise<Submission> {
  const draft = subscriptionWizard.read(user.id);
  return submitOrder(newSubscriptionOrder, {
    ownerId: user.id,
    draftId: draft.id,
    postedKey,
    missing: firstIncompleteBefore(SUBSCRIPTION_STEPS, "order", draft.data.completed),
    urlOf: subscriptionWizard.urlOf,
    price: async () => {
      const order = await currentOrder(user, draft);
      // A coupon that stopped being valid leaves the draft too, so the Order page says so once.
      if (order.couponError && draft.data.couponId) subscriptionWizard.save(user.id, { couponId: null });
      return order;
    },
  });
}
