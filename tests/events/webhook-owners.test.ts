import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type * as BillingModule from "~/server/billing/index.server";
import type { BillingProvider } from "~/server/billing/port.server";
import { db } from "~/server/platform/database/db.server";
import { invoices, providerEvents, subscriptions } from "~/server/platform/database/tables.server";
import { chargebeeBillingOf, type ChargebeeFake } from "../fakes/chargebee";
import { chargebeeWithWebhooks, WEBHOOK_CREDENTIALS } from "../support/chargebee-webhooks";
import { addCard, buyLicense, newCustomer } from "../support/accounts";
import { runJobs } from "../support/jobs";
import { captureLogs } from "../support/logs";

/**
 * Whoever holds the webhook credentials can post any event; what the portal keeps of it stays within what the
 * event's own customer owns. An event naming a subscription or invoice the portal holds for another organization
 * is stored and not applied (and logged); a resource version further ahead than clock skew is refused, since a
 * copy is replaced only by a newer version and such a version would keep every genuine event out.
 */

let billing: BillingProvider;
vi.mock("~/server/billing/index.server", async (importOriginal) => ({
  ...(await importOriginal<typeof BillingModule>()),
  getBilling: () => billing,
  chargebeeWebhookCredentials: () => WEBHOOK_CREDENTIALS,
}));

let fake: ChargebeeFake;

let webhooks: Awaited<ReturnType<typeof chargebeeWithWebhooks>>;

beforeAll(async () => {
  webhooks = await chargebeeWithWebhooks();
  fake = webhooks.fake;
  billing = chargebeeBillingOf(fake);
});
afterAll(() => webhooks.close());

type EventJson = {
  id: string;
  content: {
    customer?: { id: string };
    subscription?: Record<string, unknown> & { id: string; resource_version: number };
    invoice?: Record<string, unknown> & { id: string; subscription_id?: string; resource_version: number };
  };
};

/** The newest event Chargebee recorded whose content holds the resource `pick` finds. */
async function latestEventWith(pick: (event: EventJson) => boolean): Promise<EventJson> {
  const events = (await fake.webhooks.recorded()) as unknown as EventJson[];
  const found = events.filter(pick).at(-1);
  if (!found) throw new Error("No such event was recorded.");
  return structuredClone(found);
}

async function copyOf(subscriptionId: string) {
  const [copy] = await db.select().from(subscriptions).where(eq(subscriptions.id, subscriptionId));
  return copy;
}

async function storedEvent(eventId: string) {
  const [row] = await db.select().from(providerEvents).where(eq(providerEvents.id, eventId));
  return row ?? null;
}

/** Two customers with a license each, every event delivered and applied. */
async function twoCustomers() {
  const a = await newCustomer("webhook-a");
  const b = await newCustomer("webhook-b");
  await addCard(a);
  await addCard(b);
  const { subscriptionId: subscriptionA } = await buyLicense(a, { users: 3 });
  const { subscriptionId: subscriptionB } = await buyLicense(b, { users: 4 });
  expect(new Set((await fake.webhooks.deliver()).map((answer) => answer.status))).toEqual(new Set([200]));
  await runJobs();
  return { a, b, subscriptionA: subscriptionA!, subscriptionB: subscriptionB! };
}

describe("Chargebee's webhooks, posted with the right credentials", { timeout: 120_000 }, () => {
  it("keep each subscription and invoice with its organization: an event naming another's is stored, logged, not applied", async () => {
    const { a, b, subscriptionB } = await twoCustomers();
    const before = await copyOf(subscriptionB);
    expect(before.ownerId).toBe(b.id);

    // A's customer, B's subscription, a newer version and another quantity.
    const forged = await latestEventWith((event) => event.content.subscription?.id === subscriptionB);
    forged.id = "ev_forged_subscription";
    forged.content.customer = { id: a.billingCustomerId };
    forged.content.subscription = {
      ...forged.content.subscription!,
      customer_id: a.billingCustomerId,
      plan_quantity: 50,
      resource_version: before.resourceVersion + 1,
    };
    delete forged.content.invoice;
    // B's invoice, told of as A's.
    const invoiceEvent = await latestEventWith((event) => event.content.invoice?.subscription_id === subscriptionB);
    invoiceEvent.id = "ev_forged_invoice";
    invoiceEvent.content.customer = { id: a.billingCustomerId };
    invoiceEvent.content.invoice = {
      ...invoiceEvent.content.invoice!,
      customer_id: a.billingCustomerId,
      resource_version: invoiceEvent.content.invoice!.resource_version + 1,
    };
    delete invoiceEvent.content.subscription;
    const [invoiceBefore] = await db.select().from(invoices).where(eq(invoices.id, invoiceEvent.content.invoice.id));

    const logs = captureLogs();
    try {
      expect(await fake.webhooks.send(forged)).toBe(200);
      expect(await fake.webhooks.send(invoiceEvent)).toBe(200);
      await runJobs();
    } finally {
      logs.restore();
    }

    expect(await copyOf(subscriptionB)).toEqual(before);
    const [invoiceAfter] = await db.select().from(invoices).where(eq(invoices.id, invoiceEvent.content.invoice.id));
    expect(invoiceAfter).toEqual(invoiceBefore);
    expect(await storedEvent("ev_forged_subscription")).toMatchObject({ outcome: "foreign_resource" });
    expect(await storedEvent("ev_forged_invoice")).toMatchObject({ outcome: "foreign_resource" });
    const foreign = logs.events("provider-event-foreign-resource");
    expect(foreign).toHaveLength(2);
    expect(foreign.map((line) => line.eventId)).toContain("ev_forged_subscription");
  });

  it("refuse a resource version further ahead than clock skew, so that genuine events after it still apply", async () => {
    const { a, subscriptionA } = await twoCustomers();
    const bought = await copyOf(subscriptionA);

    const pinning = await latestEventWith((event) => event.content.subscription?.id === subscriptionA);
    pinning.id = "ev_version_far_ahead";
    pinning.content.subscription = {
      ...pinning.content.subscription!,
      plan_quantity: 7,
      resource_version: Number.MAX_SAFE_INTEGER,
    };
    const logs = captureLogs();
    try {
      expect(await fake.webhooks.send(pinning)).toBe(400);
    } finally {
      logs.restore();
    }
    expect(await storedEvent("ev_version_far_ahead")).toBeNull();
    expect(logs.events("webhook-version-in-the-future")).toHaveLength(1);
    expect((await copyOf(subscriptionA)).resourceVersion).toBe(bought.resourceVersion);

    // A month on at Chargebee: the renewal's genuine events are applied.
    await fake.advanceClock(31);
    expect(new Set((await fake.webhooks.deliver()).map((answer) => answer.status))).toEqual(new Set([200]));
    await runJobs();
    const renewed = await copyOf(subscriptionA);
    expect(renewed.currentTermStart).toEqual(bought.currentTermEnd);
    expect(renewed.ownerId).toBe(a.id);
  });
});
