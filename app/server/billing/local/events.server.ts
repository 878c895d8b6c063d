import { and, asc, gt, gte } from "drizzle-orm";
import { newId, type EmbeddedStore } from "~/server/providers/embedded.server";
import { billingEvents } from "~/server/platform/database/tables.server";
import { refused } from "../errors.server";
import { eventResourcesOfJson } from "../event-json.server";
import { eventPageSize } from "../input-checks.server";
import type {
  EventPage,
  EventQuery,
  Invoice,
  PaymentSource,
  ProviderEvent,
  ProviderEventType,
  ProviderResourceType,
  Subscription,
} from "../port.server";

/**
 * The events the embedded engine causes, kept as Chargebee keeps its events: each written in the transaction of
 * the change it reports, with the resources as they were after it, listed oldest first a page at a time.
 */

/** What an event reports: its type in the portal's terms and Chargebee's, and the resources after the change. */
export interface EventFacts {
  type: ProviderEventType;
  /** Chargebee's name of the event, which the embedded engine stands in for. */
  providerType: string;
  occurredAt: Date;
  customerId: string;
  subscription?: Subscription;
  invoice?: Invoice;
  paymentSource?: PaymentSource;
}

/** The resource an event is about: an invoice's events carry it even when they also carry its subscription. */
function resourceOf(facts: EventFacts): { type: ProviderResourceType; id: string; version: number | null } {
  if (facts.type.startsWith("subscription_") && facts.subscription) {
    return { type: "subscription", id: facts.subscription.id, version: facts.subscription.resourceVersion };
  }
  if (facts.invoice) return { type: "invoice", id: facts.invoice.id, version: facts.invoice.resourceVersion };
  if (facts.paymentSource) return { type: "payment_source", id: facts.paymentSource.id, version: null };
  throw new Error(`An event of type ${facts.type} needs the resource it reports.`);
}

/** Writes the event in the caller's transaction and gives it back in the port's terms. */
export async function writeEvent(tx: EmbeddedStore, facts: EventFacts): Promise<ProviderEvent> {
  const resource = resourceOf(facts);
  const event: ProviderEvent = {
    id: newId("ev"),
    occurredAt: facts.occurredAt,
    type: facts.type,
    providerType: facts.providerType,
    resourceType: resource.type,
    resourceId: resource.id,
    resourceVersion: resource.version,
    customerId: facts.customerId,
    subscription: facts.subscription ?? null,
    invoice: facts.invoice ?? null,
    paymentSource: facts.paymentSource ?? null,
  };
  await tx.insert(billingEvents).values({
    id: event.id,
    occurredAt: event.occurredAt,
    type: event.type,
    providerType: event.providerType,
    resourceType: resource.type,
    resourceId: resource.id,
    resourceVersion: resource.version,
    customerId: facts.customerId,
    content: { subscription: event.subscription, invoice: event.invoice, paymentSource: event.paymentSource },
  });
  return event;
}

/**
 * The events at or after `since`, in the order they were written; the page token is the position of the last
 * event of the page, so a page is the same however many events are written after it.
 */
export async function listEvents(
  store: EmbeddedStore,
  { since, limit: asked, pageToken }: EventQuery,
): Promise<EventPage> {
  const limit = eventPageSize(asked);
  const after = pageToken === undefined ? 0 : Number(pageToken);
  if (!Number.isSafeInteger(after) || after < 0) throw refused("The page token is not one of this list's.");
  const rows = await store
    .select()
    .from(billingEvents)
    .where(and(gte(billingEvents.occurredAt, since), gt(billingEvents.seq, after)))
    .orderBy(asc(billingEvents.seq))
    .limit(limit + 1);
  const page = rows.slice(0, limit);
  return {
    events: page.map(eventOfRow),
    nextPageToken: rows.length > limit ? String(page[page.length - 1].seq) : null,
  };
}

function eventOfRow(row: typeof billingEvents.$inferSelect): ProviderEvent {
  return {
    id: row.id,
    occurredAt: row.occurredAt,
    type: row.type,
    providerType: row.providerType,
    resourceType: row.resourceType,
    resourceId: row.resourceId,
    resourceVersion: row.resourceVersion,
    customerId: row.customerId,
    ...eventResourcesOfJson(row.content),
  };
}
