import { INVALID_ADDRESSES, isUsableSource, NO_PAYMENT_METHOD } from "~/domain/payment-step";
import { estimateView } from "~/domain/estimate";
import { firstIncompleteBefore, type StepIssue } from "~/domain/wizard";
import { addressForPage, loadAccountBilling } from "~/server/account-billing/index.server";
import type { Scope, ActivityEntry } from "~/server/accounts/index.server";
import type { DraftOwner } from "~/server/platform/wizards/drafts.server";
import type { JobKind, StepResults } from "~/server/platform/jobs/runner.server";
import { couponProblem } from "./coupons.server";
import type { LoadedDraft } from "~/server/platform/wizards/kit.server";
import { orderKey, submitOrder, type OrderAlongside, type PricedOrder, type Submission } from "./placing.server";

/**
 * What the two order reviews share (the new license's Order step and the update's Review & Order): the
 * payment and coupon checks of the order as it stands, what the page shows of it, and the confirmation's
 * submission. Each wizard prices its own order between the checks and the page.
 */

/** The wizard an order review belongs to: a draft with a coupon and a billing step. */
interface OrderWizard<Step extends string, Data extends { couponId: string | null; completed: Step[] }> {
  steps: readonly Step[];
  read(owner: DraftOwner): Promise<LoadedDraft<Data>>;
  save(owner: DraftOwner, changes: { couponId: null }): Promise<unknown>;
  urlOf(step: Step): string;
}

/**
 * The checks of an order outside its draft: the card still on file and usable, valid addresses, the coupon
 * still valid. A coupon that stopped being valid is left out of the order (`data`), and the page says why.
 */
export async function checkedOrder<Data extends { couponId: string | null; paymentSourceId: string | null }>(
  scope: Scope,
  draft: Data,
) {
  const [{ payment, billingProfile }, couponError] = await Promise.all([
    loadAccountBilling(scope),
    draft.couponId ? couponProblem(scope, draft.couponId) : null,
  ]);
  const data = couponError ? { ...draft, couponId: null } : draft;
  const ready = payment.status === "ready" ? payment : null;
  const source =
    ready?.sources.find((candidate) => candidate.id === data.paymentSourceId && isUsableSource(candidate)) ?? null;
  const problems: StepIssue<"billing">[] = [];
  // No card to charge: none usable on file, or no billing customer to hold one.
  if (!source || !scope.organization.billingCustomerId) problems.push({ step: "billing", message: NO_PAYMENT_METHOD });
  if (ready && !ready.addressesValid) problems.push({ step: "billing", message: INVALID_ADDRESSES });
  return { data, couponError, payment: ready, source, card: source?.card ?? null, billingProfile, problems };
}

type CheckedOrder = Awaited<ReturnType<typeof checkedOrder>>;

/** An order as its wizard priced it, with the checks it went through. */
type ReviewedOrder<Input, Step extends string> = PricedOrder<Input, Step> &
  Pick<CheckedOrder, "couponError" | "payment" | "billingProfile" | "card"> & { data: { couponId: string | null } };

/** What an order review page shows of the order, and the confirmation's key (null while it cannot be placed). */
export function orderReviewOf<Input extends { digest: string }, Step extends string>(
  kind: { name: string },
  draftId: string | null,
  order: ReviewedOrder<Input, Step>,
  urlOf: (step: Step) => string,
) {
  return {
    couponId: order.data.couponId,
    couponError: order.couponError,
    estimate: order.estimate ? estimateView(order.estimate) : null,
    estimateError: order.estimateError,
    problems: order.problems.map((problem) => ({ ...problem, to: urlOf(problem.step) })),
    orderKey: order.input && draftId ? orderKey(kind, draftId, order.input.digest) : null,
    billingProfile: order.billingProfile === "error" ? null : order.billingProfile,
    billingAddress: addressForPage(order.payment?.billingAddress),
    shippingAddress: addressForPage(order.payment?.shippingAddress),
    card: order.card,
  };
}

/** An order's input with the customer's purchase order number, once it can be placed. */
export function withPoNumber<Order extends { input: object | null }>(order: Order, poNumber: string | null): Order {
  return order.input ? { ...order, input: { ...order.input, poNumber } } : order;
}

/**
 * The confirmation of a review posted (Purchase, Update): the order placed once, or where to go, or why not.
 * A coupon found no longer valid leaves the draft too, so the page says so once.
 */
export async function submitReviewedOrder<
  Input extends { digest: string } & Record<string, unknown>,
  Results extends StepResults,
  Step extends string,
  Data extends { couponId: string | null; completed: Step[] },
>(
  kind: JobKind<Input, Results>,
  {
    scope,
    wizard,
    reviewStep,
    postedKey,
    price,
    activity,
    alongside,
  }: {
    scope: Scope;
    wizard: OrderWizard<Step, Data>;
    /** The step the review is: the steps before it must be done. */
    reviewStep: Step;
    postedKey: string;
    price: (draft: LoadedDraft<Data>) => Promise<PricedOrder<Input, Step> & { couponError: string | null }>;
    /** The activity log's entry for the order, written with it when it is placed. */
    activity: (input: Input) => Omit<ActivityEntry, "organizationId" | "actor">;
    alongside?: OrderAlongside;
  },
): Promise<Submission> {
  const draft = await wizard.read(scope);
  return submitOrder(kind, {
    scope,
    activity,
    alongside,
    draftId: draft.id,
    postedKey,
    missing: firstIncompleteBefore(wizard.steps, reviewStep, draft.data.completed),
    urlOf: wizard.urlOf,
    price: async () => {
      const order = await price(draft);
      if (order.couponError && draft.data.couponId) await wizard.save(scope, { couponId: null });
      return order;
    },
  });
}
