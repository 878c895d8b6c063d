import { createHash } from "node:crypto";
import { json, redirect } from "@remix-run/node";
import { and, eq, gt } from "drizzle-orm";
import { estimateView } from "~/domain/estimate";
import { subscriptionDraftSchema, type SubscriptionDraft } from "~/domain/new-subscription";
import {
  QUOTE_ALREADY_ORDERED,
  quoteOrderRefusal,
  quotePriceChange,
  quoteUrls,
  type QuotedPrice,
} from "~/domain/quotes";
import { SUBSCRIPTION_STEPS, type SubscriptionStep } from "~/domain/subscription-steps";
import { assertMay, memberActor, recordActivity, type Scope } from "~/server/accounts/index.server";
import { portalNow, type Estimate } from "~/server/billing/index.server";
import { db } from "~/server/platform/database/db.server";
import { JobRefused } from "~/server/platform/jobs/runner.server";
import type { PortalTransaction } from "~/server/platform/database/portal-database.server";
import { quoteEvents, quotes, type QuotedEstimate } from "~/server/platform/database/tables.server";

/**
 * Ordering an accepted quote through the new-license wizard, its lines locked: the draft's order is the quote's
 * stored choices whatever the draft holds (only the card is chosen in the wizard), the steps that choose the order
 * lead to the Billing step, and the order is placed only while its fresh price is the quote's. The quote becomes
 * ordered in the transaction that queues the order job, conditionally on it still being accepted and valid, so two
 * placements of one quote queue one job.
 */

/**
 * The price list an estimate was priced on, as a digest of the unit prices and discounts it quoted: a fresh
 * estimate of the same order with another digest was priced on another list (or with another coupon).
 */
export function priceListVersion(estimate: QuotedEstimate): string {
  const prices = [
    ...estimate.lineItems.map((line) => `${line.description}=${line.unitAmount}`),
    ...estimate.discounts.map((discount) => `${discount.description}=-${discount.amount}`),
  ].sort();
  return createHash("sha256").update(prices.join("\n")).digest("hex").slice(0, 16);
}

const priceOf = (estimate: QuotedEstimate): QuotedPrice => ({
  total: estimate.total,
  recurring: estimate.nextBilling?.amount ?? null,
  priceListVersion: priceListVersion(estimate),
});

/** The steps that choose what is ordered: a quote's order has them done, and they lead to the Billing step. */
export const LOCKED_STEPS: readonly SubscriptionStep[] = SUBSCRIPTION_STEPS.slice(
  0,
  SUBSCRIPTION_STEPS.indexOf("billing"),
);

/** An accepted quote as its order needs it. */
export interface QuoteLock {
  quoteId: string;
  number: string;
  poNumber: string | null;
  /** The end customer it is for, if any (still the distributor's: checked by the wizard). */
  customerId: string | null;
  /** The draft's order choices, as quoted. */
  order: Partial<SubscriptionDraft>;
  /** Why the quote cannot be ordered now (its status), or null. */
  refusal: string | null;
  /** Why an order priced at `estimate` is not the quote's, or null when it is. */
  priceChange(estimate: Estimate): string | null;
  /** The job of the quote's order, once it was ordered. */
  orderJobId: string | null;
  /** When it was checked, on the portal's clock: the time its order's transaction records it ordered at. */
  checkedAt: Date;
}

/**
 * The member's organization's quote `quoteId` to order: the buying roles only (else 403), another organization's
 * is 404. Whether it may be ordered now is in `refusal` (on the portal's clock: an accepted quote past its valid-until
 * has expired too).
 */
export async function quoteLockOf(member: Scope, quoteId: string): Promise<QuoteLock> {
  assertMay(member, "quotes.manage");
  const [quote] = await db
    .select()
    .from(quotes)
    .where(and(eq(quotes.id, quoteId), eq(quotes.ownerId, member.organization.id)));
  if (!quote) throw json({ message: "There is no such quote." }, { status: 404 });
  const now = await portalNow();
  const quoted = { ...priceOf(quote.estimate), priceListVersion: quote.priceListVersion };
  const { cycle, tier, organization, users, hosting, offsiteAccess, hardware, support, couponId } =
    subscriptionDraftSchema.parse(quote.order);
  return {
    quoteId: quote.id,
    number: quote.number,
    poNumber: quote.poNumber,
    customerId: quote.customerId,
    order: { cycle, tier, organization, users, hosting, offsiteAccess, hardware, support, couponId },
    refusal: quoteOrderRefusal(quote, now),
    priceChange: (estimate) => quotePriceChange(quoted, priceOf(estimateView(estimate))),
    orderJobId: quote.orderJobId,
    checkedAt: now,
  };
}

/** The wizard's draft with the quote's order in it, and the steps that choose it done. */
export function lockedDraft<Data extends SubscriptionDraft>(lock: QuoteLock, data: Data): Data {
  const completed = [...LOCKED_STEPS, ...data.completed.filter((step) => !LOCKED_STEPS.includes(step))];
  return { ...data, ...lock.order, completed };
}

/** Where a step of a quote's order goes instead: the steps that choose the order show none, so to Billing. */
export function lockedStepRedirect(lock: QuoteLock, step: SubscriptionStep, billingUrl: string): Response | null {
  if (lock.refusal) return redirect(quoteUrls.page(lock.quoteId));
  return LOCKED_STEPS.includes(step) ? redirect(billingUrl) : null;
}

/**
 * In the transaction that queues the order job `jobId`: the quote accepted → ordered, with its history's event and
 * the activity log's entry. No row changed (ordered meanwhile by another tab or member, withdrawn, expired) refuses
 * the job, which is then not queued.
 */
export async function markQuoteOrdered(tx: PortalTransaction, member: Scope, lock: QuoteLock, jobId: string) {
  // The clock read before the transaction: a read of the pool inside it could wait for a connection it holds.
  const now = lock.checkedAt;
  const changed = await tx
    .update(quotes)
    .set({ status: "ordered", orderJobId: jobId })
    .where(
      and(
        eq(quotes.id, lock.quoteId),
        eq(quotes.ownerId, member.organization.id),
        eq(quotes.status, "accepted"),
        gt(quotes.validUntil, now),
      ),
    )
    .returning({ id: quotes.id });
  if (changed.length === 0) throw new JobRefused(QUOTE_ALREADY_ORDERED);
  const actor = memberActor(member.user);
  await tx.insert(quoteEvents).values({ quoteId: lock.quoteId, kind: "ordered", actorName: actor.name, at: now });
  await recordActivity(tx, {
    organizationId: member.organization.id,
    actor,
    action: "quote.ordered",
    summary: `Ordered quote ${lock.number} for ${lock.order.organization ?? ""}.`,
  });
}
