import { and, count, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { LICENSE_GRACE_DAYS } from "~/domain/renewals";
import type * as BillingModule from "~/server/billing/index.server";
import type { BillingProvider } from "~/server/billing/port.server";
import { db } from "~/server/platform/database/db.server";
import { subscriptionCopy } from "~/server/subscriptions/copies.server";
import { verifyLicenseFile } from "~/server/hubs/license-files.server";
import { invoices, providerEvents } from "~/server/platform/database/tables.server";
import { chargebeeBillingOf, type ChargebeeFake } from "../fakes/chargebee";
import { chargebeeWithWebhooks, WEBHOOK_CREDENTIALS } from "../support/chargebee-webhooks";
import { addCard, buyLicense, licenseNow, newCustomer } from "../support/accounts";
import { runJobs } from "../support/jobs";
import { refuseInserts } from "../support/refused-writes";
import { captureLogs } from "../support/logs";

/**
 * The portal on Chargebee, through the loopback fake of its HTTP API: a renewal made at Chargebee reaches the
 * portal only by Chargebee's webhooks to the portal's own route (`POST /webhooks/chargebee`), which lets in only
 * the configured basic auth, stores each event by its id before it answers 200, and answers 5xx when it could
 * not, so that Chargebee posts the event again.
 */
const DAY = 24 * 60 * 60 * 1000;

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

async function storedEvents() {
  const [{ n }] = await db.select({ n: count() }).from(providerEvents);
  return n;
}

describe("the portal on Chargebee", () => {
  it("takes Chargebee's webhooks with the right basic auth only, and extends the license of a renewal they tell of", async () => {
    const user = await newCustomer("chargebee-renewal");
    await addCard(user);
    const { license, subscriptionId } = await buyLicense(user, { users: 3 });
    const account = { ownerId: user.id, customerId: user.billingCustomerId };
    const bought = (await subscriptionCopy(account, subscriptionId))!;

    // A month on at Chargebee: renewed and paid there, and the portal knows nothing of it yet.
    await fake.advanceClock(31);
    expect((await licenseNow(license.id)).validTo).toEqual(license.validTo);

    // Missing or wrong credentials: 401, and nothing is stored.
    const before = await storedEvents();
    for (const auth of ["none", "wrong"] as const) {
      const answers = await fake.webhooks.deliver({ auth });
      expect(answers.length).toBeGreaterThan(0);
      expect(new Set(answers.map((answer) => answer.status))).toEqual(new Set([401]));
    }
    expect(await storedEvents()).toBe(before);

    // The store fails: 503, so that Chargebee posts them again; nothing is lost.
    const diskFreed = await refuseInserts("provider_events_full", "provider_events", "database or disk is full");
    const logs = captureLogs();
    try {
      const answers = await fake.webhooks.deliver();
      expect(new Set(answers.map((answer) => answer.status))).toEqual(new Set([503]));
    } finally {
      await diskFreed();
    }
    logs.restore();
    expect(logs.events("webhook-not-stored")).not.toHaveLength(0);
    expect(await storedEvents()).toBe(before);

    // The right credentials, each event twice and newest first: stored once each, then applied in order.
    const answers = await fake.webhooks.deliver({ auth: "right", duplicate: true, reversed: true });
    expect(new Set(answers.map((answer) => answer.status))).toEqual(new Set([200]));
    const renewedEvent = await db
      .select()
      .from(providerEvents)
      .where(and(eq(providerEvents.resourceId, subscriptionId), eq(providerEvents.type, "subscription_renewed")));
    expect(renewedEvent).toMatchObject([{ receivedFrom: "webhook" }]);
    await runJobs();

    const renewed = (await subscriptionCopy(account, subscriptionId))!;
    expect(renewed.currentTermStart).toEqual(bought.currentTermEnd);
    const after = await licenseNow(license.id);
    expect(after.validTo).toEqual(new Date(renewed.currentTermEnd!.getTime() + LICENSE_GRACE_DAYS * DAY));
    expect(verifyLicenseFile(after.licenseCode)).toMatchObject({ users: 3, validTo: after.validTo.toISOString() });
    expect(
      await db
        .select()
        .from(invoices)
        .where(and(eq(invoices.ownerId, user.id), eq(invoices.purpose, "renewal"))),
    ).toMatchObject([{ status: "paid", subscriptionId, amountDue: 0 }]);
    // Delivered, they are not posted again.
    expect(await fake.webhooks.deliver()).toEqual([]);
  });
});
