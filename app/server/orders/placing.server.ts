import { createHash } from "node:crypto";
import { formatCents } from "~/domain/format";
import type { StepIssue } from "~/domain/wizard";
import { type Scope, memberActor, recordActivity, type ActivityEntry } from "~/server/accounts/index.server";
import type { Estimate } from "~/server/billing/index.server";
import type { PortalTransaction } from "~/server/platform/database/portal-database.server";
import {
  enqueueJob,
  findJobByKey,
  findJobsByKeyPrefix,
  JobRefused,
  mayHaveCharged,
  retryJob,
  type JobKind,
  type JobView,
  type StepResults,
} from "~/server/platform/jobs/runner.server";

/**
 * Placing an order from a wizard, once (decision 043, the money rule): the confirmation carries the key
 * `<job kind>:<draft id>:<digest>`, where the digest covers exactly what will be charged (items,
 * quantities, coupon, payment source, addresses and the estimate's lines and amount due). A purchase
 * whose digest no longer matches the draft is refused (another tab changed the order); a second post of
 * the same confirmation finds the first job; and once an order of the draft may have charged, every
 * later purchase of that draft leads back to it: the customer finishes or retries that job, never a new one.
 */

/** The parts of an estimate the customer confirmed: what each line costs and what is due today. */
export function confirmedAmounts(estimate: Estimate) {
  return {
    lineItems: estimate.lineItems.map(({ entityId, description, quantity, unitAmount, amount }) => ({
      entityId,
      description,
      quantity,
      unitAmount,
      amount,
    })),
    discounts: estimate.discounts.map(({ entityId, description, amount }) => ({ entityId, description, amount })),
    total: estimate.total,
    creditsApplied: estimate.creditsApplied,
    amountDue: estimate.amountDue,
  };
}

/** JSON with sorted keys, so that equal orders always give the same digest. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  if (value && typeof value === "object") {
    const entries = Object.entries(value as Record<string, unknown>).filter(([, inner]) => inner !== undefined);
    return `{${entries
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([key, inner]) => `${JSON.stringify(key)}:${canonical(inner)}`)
      .join(",")}}`;
  }
  return JSON.stringify(value ?? null);
}

/** The digest of an order: what is requested and what the estimate says it costs. */
export function orderDigest(request: unknown, estimate: Estimate): string {
  return requestDigest({ request, amounts: confirmedAmounts(estimate) });
}

/** The digest of a request that costs nothing (a cloud Hub from a license already paid for). */
export function requestDigest(request: unknown): string {
  return createHash("sha256").update(canonical(request)).digest("base64url");
}

export const orderKey = (kind: { name: string }, draftId: string, digest: string) =>
  `${kind.name}:${draftId}:${digest}`;

export type Placement = { placed: JobView } | { stale: true };

/** What an order's transaction records besides the job and its activity entry, given the job's id. */
export type OrderAlongside = (tx: PortalTransaction, jobId: string) => Promise<void>;

/** What the activity log says of an order when it is placed: the member's words for it. */
export type OrderActivity<Input> = (input: Input) => Pick<ActivityEntry, "action" | "summary">;

/**
 * Places the order the member confirmed with `postedKey`, or finds the one already placed: the organization's
 * job, with the activity log's entry written in the same transaction. `current` is the draft's order as it is
 * now (its digest and the job's input), computed by the wizard.
 */
export async function placeOnce<Input extends Record<string, unknown>, Results extends StepResults>(
  kind: JobKind<Input, Results>,
  {
    scope,
    draftId,
    postedKey,
    current,
    activity,
    alongside,
  }: {
    scope: Scope;
    draftId: string | null;
    postedKey: string;
    current: { digest: string; input: Input } | null;
    activity: OrderActivity<Input>;
    /** What else the order's transaction records (a quote becoming ordered); throwing JobRefused queues nothing. */
    alongside?: OrderAlongside;
  },
): Promise<Placement> {
  const ownerId = scope.organization.id;
  const posted = postedKey ? await findJobByKey(ownerId, postedKey) : null;
  if (posted) {
    // Purchase again after a refusal that charged nothing tries the same order again (with a new provider key).
    if (posted.status === "failed" && !mayHaveCharged(kind, posted)) await retryJob(ownerId, posted.id);
    return { placed: posted };
  }
  if (!draftId) return { stale: true };
  const earlier = (await findJobsByKeyPrefix(ownerId, `${kind.name}:${draftId}:`)).find((job) =>
    mayHaveCharged(kind, job),
  );
  if (earlier) return { placed: earlier };
  if (!current || postedKey !== orderKey(kind, draftId, current.digest)) return { stale: true };
  try {
    const entry = { organizationId: ownerId, actor: memberActor(scope.user), ...activity(current.input) };
    return {
      placed: await enqueueJob(kind, {
        ownerId,
        idempotencyKey: postedKey,
        input: current.input,
        alongside: async (tx, jobId) => {
          await recordActivity(tx, entry);
          await alongside?.(tx, jobId);
        },
      }),
    };
  } catch (error) {
    // What the order needs was taken meanwhile (another tab's deployment of the same license): not placed.
    if (error instanceof JobRefused) return { stale: true };
    throw error;
  }
}

export const ESTIMATE_FAILED = "Failed to generate your order.";

export const ORDER_CHANGED = (total: string) =>
  `Your order changed after you reviewed it, and nothing was charged. The total due today is now ${total}: please check it and confirm again.`;

/** A wizard's order as it stands: the job's input (null while it cannot be placed), why not, and its price. */
export interface PricedOrder<Input, Step extends string> {
  input: Input | null;
  problems: StepIssue<Step>[];
  estimate: Estimate | null;
  estimateError: string | null;
}

export type Submission = { jobId: string } | { redirectTo: string } | { refused: string };

/**
 * A wizard's confirmation posted (Purchase, Update): the order placed once, or where to go, or why not. A
 * second post of a placed order finds its job before anything is priced again; otherwise the order is priced
 * as it stands and placed only if that is what the confirmation was for.
 */
export async function submitOrder<
  Input extends { digest: string } & Record<string, unknown>,
  Results extends StepResults,
  Step extends string,
>(
  kind: JobKind<Input, Results>,
  order: {
    scope: Scope;
    activity: OrderActivity<Input>;
    alongside?: OrderAlongside;
    draftId: string | null;
    postedKey: string;
    /** The first step before the order that is not done, if any. */
    missing: Step | null;
    urlOf: (step: Step) => string;
    price: () => Promise<PricedOrder<Input, Step>>;
  },
): Promise<Submission> {
  const { scope, activity, alongside, draftId, postedKey, missing } = order;
  const found = await placeOnce(kind, { scope, activity, draftId, postedKey, current: null });
  if ("placed" in found) return { jobId: found.placed.id };
  if (missing) return { redirectTo: order.urlOf(missing) };
  const priced = await order.price();
  const current = priced.input ? { digest: priced.input.digest, input: priced.input } : null;
  const placement = await placeOnce(kind, { scope, activity, alongside, draftId, postedKey, current });
  if ("placed" in placement) return { jobId: placement.placed.id };
  const problem = priced.problems[0];
  if (problem) return { refused: problem.message };
  if (!priced.estimate) return { refused: priced.estimateError ?? ESTIMATE_FAILED };
  return { refused: ORDER_CHANGED(formatCents(priced.estimate.amountDue)) };
}
