import { and, count, eq, inArray, isNull } from "drizzle-orm";
import { providerEvents, type PROVIDER_EVENT_SOURCES } from "~/server/platform/database/tables.server";
import { eventResourcesJson } from "~/server/billing/event-json.server";
import type { ProviderEvent } from "~/server/billing/index.server";
import { billingAccountOfCustomer, type BillingAccount } from "~/server/accounts/index.server";
import { db } from "~/server/platform/database/db.server";
import { enqueueJob, retryJob } from "~/server/platform/jobs/runner.server";
import { providerEventJob } from "./event-consumer.server";
import { realNow } from "~/server/platform/real-time.server";
import { logger } from "~/server/platform/log/log.server";
import { webhookEvents } from "~/server/platform/metrics.server";

/**
 * The way in of the provider's events (decision 185), whichever way they come: Chargebee's webhooks, the embedded
 * engine's listener, the reconciliation's poll of the events list. Each is stored by its id before anything acts
 * on it (a webhook is answered 200 only after), then its job is queued: the consumer applies it. An event the
 * portal has no use for is stored and set aside; one of a customer the portal does not know too, and logged the
 * first time that customer is met.
 */

export type EventSource = (typeof PROVIDER_EVENT_SOURCES)[number];

/** Stores the events (those already stored are left as they are) and queues the jobs of those still to apply. */
export async function storeProviderEvents(events: ProviderEvent[], from: EventSource): Promise<void> {
  if (events.length === 0) return;
  const accounts = new Map<string, BillingAccount | null>();
  for (const customerId of new Set(events.flatMap((event) => (event.customerId ? [event.customerId] : [])))) {
    accounts.set(customerId, await billingAccountOfCustomer(customerId));
  }
  const receivedAt = realNow();
  // An event listed twice in one delivery is one row.
  const rows = [...new Map(events.map((event) => [event.id, event])).values()].map((event) => {
    const known = event.customerId ? accounts.get(event.customerId) : null;
    const setAside = event.type === "other" ? "ignored" : known ? null : "unknown_customer";
    return {
      id: event.id,
      type: event.type,
      providerType: event.providerType,
      resourceType: event.resourceType,
      resourceId: event.resourceId,
      resourceVersion: event.resourceVersion,
      customerId: event.customerId,
      occurredAt: event.occurredAt,
      // An event the portal has no use for is kept as its provider named it, without its resources.
      payload: event.type === "other" ? {} : eventResourcesJson(event),
      receivedFrom: from,
      receivedAt,
      appliedAt: setAside ? receivedAt : null,
      outcome: setAside,
    } as const;
  });
  // One statement, no provider call in it: the events are kept, or the caller hears of the failure. It returns
  // those this call stored, not those stored before.
  const inserted = await db
    .insert(providerEvents)
    .values(rows)
    .onConflictDoNothing({ target: providerEvents.id })
    .returning({ id: providerEvents.id });
  const stored = new Set(inserted.map((row) => row.id));
  webhookEvents.inc({ outcome: "received" }, stored.size);
  webhookEvents.inc({ outcome: "set_aside" }, rows.filter((row) => stored.has(row.id) && row.outcome).length);
  await logUnknownCustomers(rows.filter((row) => stored.has(row.id) && row.outcome === "unknown_customer"));
  await queuePendingEvents(rows.map((row) => row.id));
}

/**
 * Queues the consumer's job of every one of these events not applied yet (a job per event, keyed by its id); one
 * whose job gave up (the provider failed it every time) is tried again.
 */
export async function queuePendingEvents(eventIds: string[]): Promise<void> {
  if (eventIds.length === 0) return;
  const pending = await db
    .select({ id: providerEvents.id, customerId: providerEvents.customerId })
    .from(providerEvents)
    .where(and(inArray(providerEvents.id, eventIds), isNull(providerEvents.appliedAt)));
  for (const event of pending) {
    const account = event.customerId ? await billingAccountOfCustomer(event.customerId) : null;
    if (!account) continue;
    const job = await enqueueJob(providerEventJob, {
      ownerId: account.ownerId,
      idempotencyKey: `provider-event:${event.id}`,
      input: { eventId: event.id },
    });
    if (job.status === "failed") await retryJob(account.ownerId, job.id);
  }
}

/**
 * One line the first time the portal meets a billing customer it does not know (their events are kept, not
 * applied). `rows` are the events of unknown customers this call stored (not those it had already).
 */
async function logUnknownCustomers(rows: { id: string; customerId: string | null; providerType: string }[]) {
  const logged = new Set<string>();
  for (const row of rows) {
    const customerId = row.customerId ?? "";
    if (logged.has(customerId)) continue;
    logged.add(customerId);
    const [{ seen }] = await db
      .select({ seen: count() })
      .from(providerEvents)
      .where(
        and(
          customerId ? eq(providerEvents.customerId, customerId) : isNull(providerEvents.customerId),
          eq(providerEvents.outcome, "unknown_customer"),
        ),
      );
    // The events of the customer this call stored are counted too: more than those means one was met before.
    if (seen > rows.filter((other) => (other.customerId ?? "") === customerId).length) continue;
    logger.warn(
      {
        event: "provider-event-unknown-customer",
        customerId: row.customerId,
        eventId: row.id,
        eventType: row.providerType,
      },
      "The billing provider sent events of a customer the portal does not know: they are kept, not applied.",
    );
  }
}

/**
 * Waits until these events are applied (their jobs run in this process or another), at most `timeoutMs`: true when
 * they all are. For a page that has just made them (the time machine), so that the next page shows their effect.
 */
export async function eventsApplied(eventIds: string[], timeoutMs = 20_000): Promise<boolean> {
  const deadline = realNow().getTime() + timeoutMs;
  for (;;) {
    const [pending] = eventIds.length
      ? await db
          .select({ n: count() })
          .from(providerEvents)
          .where(and(inArray(providerEvents.id, eventIds), isNull(providerEvents.appliedAt)))
      : [{ n: 0 }];
    if (!pending?.n) return true;
    if (realNow().getTime() > deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
