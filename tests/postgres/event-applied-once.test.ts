import { randomUUID } from "node:crypto";
import { and, eq, isNotNull } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { EventChange } from "~/server/subscriptions/event-consumer.server";
import { invoiceFixture, subscriptionFixture } from "../support/billing-copies";
import { postgresTestDatabase, startPortalOn } from "../support/postgres";

/**
 * The event consumer's "apply once" on PostgreSQL, where two instances' transactions run side by side: the same
 * provider event applied by both at once (two pools on one database) is marked, copied and recorded in the
 * organization's log once.
 */
const database = postgresTestDatabase();

/**
 * The portal's modules choose their engine and tables when they load: they are loaded once DATABASE_URL names this
 * file's database. The portal's own connection is one instance, a second pool on the same database the other.
 */
async function twoInstances() {
  process.env.DATABASE_POOL_MAX = "2";
  await startPortalOn(database.url);
  const { applyEvent } = await import("~/server/subscriptions/event-consumer.server");
  const tables = await import("~/server/platform/database/tables.server");
  const { db } = await import("~/server/platform/database/db.server");
  const { openDatabase } = await import("~/server/platform/database/portal-database.server");
  return { applyEvent, tables, first: db, second: openDatabase(database.url, { poolMax: 2 }) };
}

let portal: Awaited<ReturnType<typeof twoInstances>>;
beforeAll(async () => {
  portal = await twoInstances();
}, 60_000);
afterAll(() => portal?.second.close(), 30_000);

describe("a provider event applied by two instances at once", () => {
  it("is marked applied by one of them, and its copies and its entry are written once", async () => {
    const { applyEvent, first, second } = portal;
    const { activity, invoices, organizations, providerEvents, subscriptions } = portal.tables;
    const ownerId = randomUUID();
    const customerId = `cust_${ownerId}`;
    await first
      .insert(organizations)
      .values({ id: ownerId, name: "Two Instances Clinics", billingCustomerId: customerId });
    const account = { ownerId, customerId };

    const rounds = 12;
    const appliedBy: boolean[][] = [];
    for (let round = 0; round < rounds; round += 1) {
      const subscription = subscriptionFixture({ id: `sub_${round}_${ownerId}`, customerId });
      const invoice = invoiceFixture({ id: `inv_${round}_${ownerId}`, customerId, subscriptionId: subscription.id });
      const eventId = `ev_${round}_${ownerId}`;
      await first.insert(providerEvents).values({
        id: eventId,
        type: "invoice_paid",
        providerType: "invoice_paid",
        resourceType: "invoice",
        resourceId: invoice.id,
        resourceVersion: invoice.resourceVersion,
        customerId,
        occurredAt: invoice.date,
        payload: {},
        receivedFrom: "webhook",
      });
      const change: EventChange = {
        eventId,
        account,
        subscription,
        invoice,
        entry: { action: "payment.succeeded", summary: `Invoice ${invoice.number} was paid.` },
      };
      appliedBy.push(await Promise.all([applyEvent(first, change), applyEvent(second.db, change)]));
    }

    // Each event was applied by exactly one instance; the other found it applied and changed nothing.
    expect(appliedBy.map((both) => both.filter(Boolean).length)).toEqual(Array(rounds).fill(1));
    const entries = await first
      .select({ summary: activity.summary })
      .from(activity)
      .where(and(eq(activity.organizationId, ownerId), eq(activity.action, "payment.succeeded")));
    expect(entries).toHaveLength(rounds);
    expect(new Set(entries.map((entry) => entry.summary)).size).toBe(rounds);
    const marked = await first
      .select({ id: providerEvents.id })
      .from(providerEvents)
      .where(
        and(
          eq(providerEvents.customerId, customerId),
          isNotNull(providerEvents.appliedAt),
          eq(providerEvents.outcome, "applied"),
        ),
      );
    expect(marked).toHaveLength(rounds);
    expect(await first.select().from(subscriptions).where(eq(subscriptions.ownerId, ownerId))).toHaveLength(rounds);
    expect(await first.select().from(invoices).where(eq(invoices.ownerId, ownerId))).toHaveLength(rounds);
  }, 60_000);
});
