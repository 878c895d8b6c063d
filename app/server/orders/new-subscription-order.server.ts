import { buysAtResellerPrices } from "~/domain/access-policy";
import { TIER_NAMES } from "~/domain/subscription";
import type { SubscriptionDraft, SubscriptionStep } from "~/domain/new-subscription";
import type { StepIssue } from "~/domain/wizard";
import { errorMessage, getBilling, ProviderError, type Estimate } from "~/server/billing/index.server";
import { digestedRequest, newSubscriptionOrder, type OrderInput } from "./new-subscription-job.server";
import { memberActor, type Scope } from "~/server/accounts/index.server";
import type { LoadedDraft } from "~/server/platform/wizards/kit.server";
import { orderItems, OWN_ORDER, type OrderCustomer, type OrderDraft } from "./new-subscription-wizard.server";
import { checkedOrder, orderReviewOf, submitReviewedOrder, withPoNumber } from "./order-review.server";
import { ESTIMATE_FAILED, orderDigest, type Submission } from "./placing.server";
import { markQuoteOrdered, quoteLockOf } from "./quote-orders.server";

/**
 * The Order step (the new-license wizard's seventh) and the purchase: the draft's order as it stands now,
 * checked against what lies outside the draft (the card still on file, valid addresses, a coupon still
 * valid), priced, and digested for the confirmation. The loader and the purchase compute it the same way, so
 * the purchase places exactly what the page showed, or refuses.
 */
async function currentOrder(
  scope: Scope,
  { customer, quote }: Pick<OrderDraft, "customer" | "quote">,
  draft: LoadedDraft<SubscriptionDraft>,
) {
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
  // A quote's order is placed only while it may be ordered and costs exactly what the quote says.
  const quoteProblem = quote && (quote.refusal ?? (estimate ? quote.priceChange(estimate) : null));
  if (quoteProblem) problems.push({ step: "order", message: quoteProblem });
  const licensee = licenseeOf(scope, customer, data.organization);
  const input: OrderInput | null =
    estimate && problems.length === 0 && draft.id
      ? {
          draftId: draft.id,
          digest: orderDigest(digestedRequest({ request, licensee }), estimate),
          request,
          organization: data.organization,
          licensee,
          users: data.users,
          tier: data.tier,
          hosting: data.hosting,
          offsiteAccess: data.offsiteAccess,
          origin: data.origin,
          quoteNumber: quote?.number ?? null,
        }
      : null;
  return { ...checked, estimate, estimateError, problems, input };
}

/**
 * The end customer a distributor's order is for, as the job's input keeps it: one it has, or the new one named in
 * the plan step (added by the member who places the order); null for an organization's own license.
 */
function licenseeOf(scope: Scope, customer: OrderCustomer, name: string): OrderInput["licensee"] {
  if (customer.kind === "existing") return { customerId: customer.id };
  if (customer.kind === "new") return { newCustomer: name, addedBy: memberActor(scope.user) };
  return null;
}

/** What the Order step shows, and the confirmation's key (null while the order cannot be placed). */
export async function orderReview(scope: Scope, { wizard, customer, quote }: OrderDraft = OWN_ORDER) {
  const draft = await wizard.load(scope, "order");
  const order = await currentOrder(scope, { customer, quote }, draft);
  return {
    organization: order.data.organization,
    ...orderReviewOf(newSubscriptionOrder, draft.id, order, wizard.urlOf),
  };
}

/**
 * Purchase: the order the confirmation was for, placed once; a second post of it, or any purchase after
 * an order of this draft may have charged, leads to that order's progress page instead. The PO number typed on
 * the review goes with the order (not into its digest: it changes no price); a quote's order carries the quote's.
 * A quote becomes ordered in the transaction that queues its order, or the order is not queued: then the quote as
 * it is now says why (ordered meanwhile through another draft).
 */
export async function purchase(
  scope: Scope,
  postedKey: string,
  { wizard, customer, quote }: OrderDraft = OWN_ORDER,
  poNumber: string | null = null,
): Promise<Submission> {
  const submission = await submitReviewedOrder(newSubscriptionOrder, {
    scope,
    wizard,
    reviewStep: "order",
    postedKey,
    price: async (draft) =>
      withPoNumber(await currentOrder(scope, { customer, quote }, draft), quote?.poNumber ?? poNumber),
    activity: (input) => ({
      action: "order.placed",
      summary: `Placed an order for a GateKeeper ${TIER_NAMES[input.tier]} recurring license for ${input.users} users (${input.hosting === "cloud" ? "cloud" : "on-premise"} Hub), licensed to ${input.organization}.`,
    }),
    alongside: quote ? (tx, jobId) => markQuoteOrdered(tx, scope, quote, jobId) : undefined,
  });
  if (!quote || !("refused" in submission)) return submission;
  const { refusal } = await quoteLockOf(scope, quote.quoteId);
  return refusal ? { refused: refusal } : submission;
}
