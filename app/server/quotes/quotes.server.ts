import { randomUUID } from "node:crypto";
import { json } from "@remix-run/node";
import { and, asc, desc, eq, gt, gte, lt, lte, or, sql, type SQL } from "drizzle-orm";
import { estimateView } from "~/domain/estimate";
import { subscriptionDraftSchema, type SubscriptionDraft } from "~/domain/new-subscription";
import { QUOTE_NOT_OPEN, quoteNumber, quoteStatusAt, validUntilOf } from "~/domain/quotes";
import { pageOfRows, readsBackward, type PageStart } from "~/domain/row-pages";
import { memberActor, recordActivity, revokeOneTimeTokens, type Scope } from "~/server/accounts/index.server";
import { portalNow } from "~/server/billing/index.server";
import { couponProblem, estimateDraft, priceListVersion, type OrderCustomer } from "~/server/orders/index.server";
import { db } from "~/server/platform/database/db.server";
import { jsonNumber } from "~/server/platform/database/dialect.server";
import { requireCustomer } from "~/server/resellers/index.server";
import type { PortalTransaction } from "~/server/platform/database/portal-database.server";
import {
  organizations,
  quoteCounters,
  quoteEvents,
  quotes,
  type QuotedEstimate,
  type QuoteEventKind,
  type QuoteStatus,
} from "~/server/platform/database/tables.server";

/**
 * Quotes: the portal's own records of a priced, dated offer of a new license (the billing provider keeps none, so
 * the embedded engine and Chargebee behave the same). A quote is priced by the billing port's estimate when it is
 * made and keeps those lines as they were; it is read by every member of the organization that made it, and of the
 * end customer it is for.
 */

export type QuoteRecord = typeof quotes.$inferSelect;

/** What every page of a quote shows of it (its own and its mailed link's), as quoted: parties, dates, lines, state. */
export const quoteFacts = (quote: QuoteRecord, makerOrganization: string, status: QuoteStatus) => ({
  number: quote.number,
  organizationName: quote.organizationName,
  madeByName: quote.madeByName,
  makerOrganization,
  quotedAt: quote.quotedAt.toISOString(),
  validUntil: quote.validUntil.toISOString(),
  estimate: quote.estimate,
  status,
  poNumber: quote.poNumber,
  customerMayAccept: quote.customerMayAccept,
});

/** Whom a quote is for: the organization itself, or an end customer the distributor has added. */
export type QuotedCustomer = Exclude<OrderCustomer, { kind: "new" }>;

/**
 * The next number of the year, taken in `tx`, the transaction that writes the quote: one upsert that returns the
 * raised counter, whose row stays locked until the transaction ends, so makers on several instances take turns
 * and get distinct, consecutive numbers (a failed maker's number goes back with its rollback).
 */
export async function nextQuoteNumber(tx: PortalTransaction, year: number): Promise<string> {
  const [counter] = await tx
    .insert(quoteCounters)
    .values({ year, last: 1 })
    .onConflictDoUpdate({ target: quoteCounters.year, set: { last: sql`${quoteCounters.last} + 1` } })
    .returning({ last: quoteCounters.last });
  return quoteNumber(year, counter.last);
}

/** The draft as the quote keeps it: the order's choices, without the wizard's progress and payment choice. */
function orderOf(draft: SubscriptionDraft): Record<string, unknown> {
  const { cycle, tier, organization, users, hosting, offsiteAccess, hardware, support, couponId } = draft;
  return { cycle, tier, organization, users, hosting, offsiteAccess, hardware, support, couponId };
}

/** What a quote is made of: whom it is for, the order, its validity, and whether that end customer may accept it. */
export interface QuoteMaking {
  customer: QuotedCustomer;
  draft: SubscriptionDraft;
  validDays: number;
  /** Whether the end customer's Technical contacts may accept it in the portal (never for a quote of one's own). */
  customerMayAccept: boolean;
}

/** A quote as it is written, priced already: by whom, for whom, the order and its lines, and its dates. */
export interface QuoteWriting {
  ownerId: string;
  /** The end customer it is for; null for the organization's own. */
  customerId: string | null;
  organizationName: string;
  madeBy: { userId: string; name: string };
  draft: SubscriptionDraft;
  estimate: QuotedEstimate;
  customerMayAccept: boolean;
  validDays: number;
  quotedAt: Date;
}

/**
 * Writes a priced quote in `tx`: its number, its row, its history's first event and the maker's activity entry.
 * The order keeps the draft's choices under the quote's organization name.
 */
export async function writeQuote(tx: PortalTransaction, writing: QuoteWriting): Promise<QuoteRecord> {
  const { organizationName, madeBy, estimate, quotedAt } = writing;
  const number = await nextQuoteNumber(tx, quotedAt.getUTCFullYear());
  const [quote] = await tx
    .insert(quotes)
    .values({
      id: randomUUID(),
      number,
      ownerId: writing.ownerId,
      customerId: writing.customerId,
      organizationName,
      madeByUserId: madeBy.userId,
      madeByName: madeBy.name,
      order: orderOf({ ...writing.draft, organization: organizationName }),
      estimate,
      priceListVersion: priceListVersion(estimate),
      customerMayAccept: writing.customerId !== null && writing.customerMayAccept,
      validUntil: validUntilOf(quotedAt, writing.validDays),
      quotedAt,
    })
    .returning();
  await recordEvent(tx, quote.id, "made", madeBy.name, quotedAt);
  await recordActivity(tx, {
    organizationId: writing.ownerId,
    actor: madeBy,
    action: "quote.made",
    summary: `Made quote ${number} for ${organizationName}.`,
  });
  return quote;
}

/**
 * Makes a quote of the order `draft` describes, for the member's organization or the end customer the order is
 * for (named after it, whatever name the draft holds), priced now by the billing port, valid `validDays` days on the portal's clock. A coupon no longer valid is
 * left out. Throws the billing port's error when it cannot estimate (nothing is written).
 */
export async function makeQuote(
  member: Scope,
  { customer, draft, validDays, customerMayAccept }: QuoteMaking,
): Promise<QuoteRecord> {
  const withCoupon = draft.couponId !== null && (await couponProblem(member, draft.couponId)) === null;
  const estimate = estimateView(await estimateDraft(member.organization, draft, { withCoupon }));
  const quotedAt = await portalNow();
  // A quote is for the end customer or for the organization itself, named by its record whatever name the plan step
  // was given: a name typed there names an order's license, not whom the quote is for.
  const organizationName = customer.kind === "existing" ? customer.name : member.organization.name;
  return db.transaction((tx) =>
    writeQuote(tx, {
      ownerId: member.organization.id,
      customerId: customer.kind === "existing" ? customer.id : null,
      organizationName,
      madeBy: memberActor(member.user),
      draft: { ...draft, couponId: withCoupon ? draft.couponId : null },
      estimate,
      customerMayAccept,
      validDays,
      quotedAt,
    }),
  );
}

/**
 * Whose quotes the member reads: an end customer's people those made for it; anyone else their organization's
 * own. Each is a prefix of one of the quotes' indexes.
 */
const readableBy = (member: Scope): SQL =>
  member.organization.managedBy
    ? eq(quotes.customerId, member.organization.id)
    : eq(quotes.ownerId, member.organization.id);

/** The condition of a status filter: expired and open are told apart by valid-until against `now`. */
function withStatus(status: QuoteStatus, now: Date): SQL {
  if (status === "expired") return and(eq(quotes.status, "open"), lte(quotes.validUntil, now))!;
  if (status === "open") return and(eq(quotes.status, "open"), gt(quotes.validUntil, now))!;
  return eq(quotes.status, status);
}

export interface QuoteFilter {
  status: QuoteStatus | null;
  customerId: string | null;
}

/**
 * Where a page of the list starts, newest first (by when it was made, then its id): the quotes older than the key
 * (after it), or newer (before it, going back). The moment bounds one side of the index range, so the read starts at
 * the page's first row.
 */
function quotedFrom(start: PageStart): SQL | undefined {
  if (start === null) return undefined;
  if ("after" in start) {
    const at = new Date(start.after.at);
    return and(lte(quotes.quotedAt, at), or(lt(quotes.quotedAt, at), lt(quotes.id, start.after.tie)));
  }
  const at = new Date(start.before.at);
  return and(gte(quotes.quotedAt, at), or(gt(quotes.quotedAt, at), gt(quotes.id, start.before.tie)));
}

/**
 * One page of the quotes the member reads, newest first, filtered by status and end customer, from where the page
 * starts: its rows and one more, which says whether another page follows, read off the index of the filter's
 * (owner, [status,] quoted_at, id or customer, quoted_at, id), so neither a count of the list nor an offset into it.
 */
export async function quotePage(member: Scope, filter: QuoteFilter, start: PageStart, perPage: number) {
  const now = await portalNow();
  const backward = readsBackward(start);
  const read = await db
    // The columns the list shows: of the estimate only the amount due today, not the whole priced document.
    .select({
      id: quotes.id,
      number: quotes.number,
      organizationName: quotes.organizationName,
      status: quotes.status,
      validUntil: quotes.validUntil,
      quotedAt: quotes.quotedAt,
      amountDue: jsonNumber(quotes.estimate, "amountDue"),
    })
    .from(quotes)
    .where(
      and(
        readableBy(member),
        filter.status ? withStatus(filter.status, now) : undefined,
        filter.customerId ? eq(quotes.customerId, filter.customerId) : undefined,
        quotedFrom(start),
      ),
    )
    .orderBy(...[quotes.quotedAt, quotes.id].map((column) => (backward ? asc(column) : desc(column))))
    .limit(perPage + 1);
  const page = pageOfRows(read, start, perPage);
  return { ...page, rows: page.rows.map((row) => ({ ...row, status: quoteStatusAt(row, now) })) };
}

/**
 * The member's quote with the name of the organization that made it, its history (oldest first) and its status
 * now; 404 for another organization's.
 */
export async function requireQuote(member: Scope, quoteId: string) {
  const [found] = await db
    .select({ quote: quotes, makerOrganization: organizations.name })
    .from(quotes)
    .innerJoin(organizations, eq(organizations.id, quotes.ownerId))
    .where(and(eq(quotes.id, quoteId), readableBy(member)));
  if (!found) throw json({ message: "There is no such quote." }, { status: 404 });
  const { quote, makerOrganization } = found;
  const [events, now] = await Promise.all([
    db.select().from(quoteEvents).where(eq(quoteEvents.quoteId, quote.id)).orderBy(asc(quoteEvents.id)),
    portalNow(),
  ]);
  return { quote, makerOrganization, events, status: quoteStatusAt(quote, now) };
}

/** Records an event of the quote's history in `tx`, with what else it records (an address, a PO number). */
export const recordEvent = (
  tx: PortalTransaction,
  quoteId: string,
  kind: QuoteEventKind,
  actorName: string,
  at: Date,
  detail = "",
) => tx.insert(quoteEvents).values({ quoteId, kind, actorName, at, detail });

/**
 * Withdraws the member's organization's open quote: it can no longer be accepted or ordered, and the links mailed
 * for it stop opening it, in the same transaction. Null when done, or why not (it was accepted, ordered, withdrawn
 * or has expired meanwhile): the change is conditional on it being open.
 */
export async function withdrawQuote(member: Scope, quoteId: string): Promise<string | null> {
  const { quote } = await requireQuote(member, quoteId);
  const now = await portalNow();
  const actor = memberActor(member.user);
  return db.transaction(async (tx) => {
    const changed = await tx
      .update(quotes)
      .set({ status: "withdrawn" })
      .where(
        and(
          eq(quotes.id, quote.id),
          eq(quotes.ownerId, member.organization.id),
          eq(quotes.status, "open"),
          gt(quotes.validUntil, now),
        ),
      )
      .returning({ id: quotes.id });
    if (changed.length === 0) return QUOTE_NOT_OPEN;
    await revokeOneTimeTokens("quote", { quoteId: quote.id }, tx);
    await recordEvent(tx, quote.id, "withdrawn", actor.name, now);
    await recordActivity(tx, {
      organizationId: member.organization.id,
      actor,
      action: "quote.withdrawn",
      summary: `Withdrew quote ${quote.number} for ${quote.organizationName}.`,
    });
    return null;
  });
}

/**
 * A new quote of the same order for the same customer, priced at today's prices: how an open quote is edited, since
 * a quote never changes under its reader. The copy is for the maker's organization, whoever the original's maker.
 */
export async function copyQuote(member: Scope, quoteId: string, validDays: number): Promise<QuoteRecord> {
  const { quote } = await requireQuote(member, quoteId);
  if (quote.ownerId !== member.organization.id) throw json({ message: "There is no such quote." }, { status: 404 });
  const draft = subscriptionDraftSchema.parse(quote.order);
  // The end customer as it is now: one since moved to another distributor is no longer this one's to quote.
  const endCustomer = quote.customerId ? await requireCustomer(member.organization.id, quote.customerId) : null;
  const customer: QuotedCustomer = endCustomer
    ? { kind: "existing", id: endCustomer.id, name: endCustomer.name }
    : { kind: "none" };
  return makeQuote(member, { customer, draft, validDays, customerMayAccept: quote.customerMayAccept });
}
