import { and, count, eq, like } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { LICENSE_GRACE_DAYS } from "~/domain/renewals";
import {
  billingFaults,
  getBilling,
  getBillingClock,
  onBillingEvents,
  type ProviderEvent,
} from "~/server/billing/index.server";
import { db } from "~/server/platform/database/db.server";
import { providerEventJob } from "~/server/subscriptions/event-consumer.server";
import { subscriptionCopy } from "~/server/subscriptions/copies.server";
import { storeProviderEvents } from "~/server/subscriptions/event-feed.server";
import { reconcileWhenDue } from "~/server/subscriptions/reconciliation.server";
import { env } from "~/server/platform/config/env.server";
import { enqueueJob } from "~/server/platform/jobs/runner.server";
import { verifyLicenseFile } from "~/server/hubs/license-files.server";
import { createLicenseForSubscription, licenseFileFor } from "~/server/subscriptions/licenses.server";
import {
  activity,
  billingClock,
  billingEvents,
  invoices,
  jobs,
  licenses as licenseTable,
  providerEvents,
  providerSync,
} from "~/server/platform/database/tables.server";
import { addCard, buyLicense, licenseNow, newCustomer } from "../support/accounts";
import { subscriptionFixture } from "../support/billing-copies";
import { runJobs } from "../support/jobs";
import { captureLogs } from "../support/logs";

/**
 * The provider's events as the portal follows them: stored by id, applied once by the consumer's job, in order
 * per resource whatever order they came in, and repaired by the reconciliation when one never came.
 */
const DAY = 24 * 60 * 60 * 1000;
const graceAfter = (date: Date) => new Date(date.getTime() + LICENSE_GRACE_DAYS * DAY);

let listening: (() => void) | null = null;
const listen = () => {
  listening = onBillingEvents((events) => storeProviderEvents(events, "engine"));
};
const deaf = () => {
  listening?.();
  listening = null;
};

beforeAll(listen);
afterAll(deaf);
afterEach(async () => {
  await billingFaults.clear();
  await db.delete(billingClock);
  await db.delete(providerSync);
  if (!listening) listen();
});

/** Moves the engine's clock and applies whatever the listener stored. */
async function monthsLater(days = 31) {
  await getBillingClock()!.advance(days);
  await runJobs();
}

async function eventJobs(eventId: string) {
  const [{ n }] = await db
    .select({ n: count() })
    .from(jobs)
    .where(eq(jobs.idempotencyKey, `provider-event:${eventId}`));
  return n;
}

/** An event of the port, as Chargebee or the engine would send it, about a subscription of `customerId`. */
function subscriptionEvent(
  id: string,
  type: ProviderEvent["type"],
  subscription: ReturnType<typeof subscriptionFixture>,
): ProviderEvent {
  return {
    id,
    occurredAt: new Date(subscription.resourceVersion),
    type,
    providerType: type,
    resourceType: "subscription",
    resourceId: subscription.id,
    resourceVersion: subscription.resourceVersion,
    customerId: subscription.customerId,
    subscription,
    invoice: null,
    paymentSource: null,
  };
}

describe("a paid renewal", () => {
  it("extends the license to the new term's end plus the grace, with a newly signed file at the same Download link", async () => {
    const user = await newCustomer("renewal-probe");
    await addCard(user);
    const { license, subscriptionId } = await buyLicense(user, { users: 3 });
    const account = { ownerId: user.id, customerId: user.billingCustomerId };
    const bought = (await subscriptionCopy(account, subscriptionId))!;
    expect(license.validTo).toEqual(graceAfter(bought.currentTermEnd!));

    await monthsLater();

    const renewed = (await subscriptionCopy(account, subscriptionId))!;
    expect(renewed.currentTermStart).toEqual(bought.currentTermEnd);
    const after = await licenseNow(license.id);
    expect(after.validTo).toEqual(graceAfter(renewed.currentTermEnd!));
    expect(after.licenseCode).not.toBe(license.licenseCode);
    expect(verifyLicenseFile(after.licenseCode)).toMatchObject({
      id: license.externalLicenseId,
      users: 3,
      validTo: after.validTo.toISOString(),
    });
    // The same link gives the new file.
    expect((await licenseFileFor(user.id, license.id))?.content).toBe(after.licenseCode);
    // The renewal's invoice is the account's, paid.
    const renewal = await db
      .select()
      .from(invoices)
      .where(and(eq(invoices.ownerId, user.id), eq(invoices.purpose, "renewal")));
    expect(renewal).toMatchObject([{ status: "paid", subscriptionId, amountDue: 0, total: 3 * 400 }]);
    // The organization's activity log tells of the renewal and its payment, by GateKeeper, once each.
    const log = await db
      .select({ actorName: activity.actorName, action: activity.action })
      .from(activity)
      .where(eq(activity.organizationId, user.id));
    expect(log.filter((entry) => entry.action === "subscription.renewed")).toEqual([
      { actorName: "GateKeeper", action: "subscription.renewed" },
    ]);
    expect(log.filter((entry) => entry.action === "payment.succeeded").length).toBeGreaterThanOrEqual(1);
  });
});

describe("an event", () => {
  it("applied twice changes nothing: one job per event id, and a second application leaves the copy and the file", async () => {
    const user = await newCustomer("twice");
    await addCard(user);
    const { license, subscriptionId } = await buyLicense(user);
    await monthsLater();
    const [renewed] = await db
      .select()
      .from(providerEvents)
      .where(
        and(eq(providerEvents.customerId, user.billingCustomerId!), eq(providerEvents.type, "subscription_renewed")),
      );
    expect(renewed).toMatchObject({ outcome: "applied", receivedFrom: "engine" });
    const file = (await licenseNow(license.id)).licenseCode;
    const copy = await subscriptionCopy({ ownerId: user.id, customerId: null }, subscriptionId);

    // Delivered again (a webhook retried, the poll listing it): still one row, one job.
    const [event] = (await getBilling().listEvents({ since: new Date(0) })).events.filter(
      (listed) => listed.id === renewed.id,
    );
    await storeProviderEvents([event, event], "poll");
    // And applied once more by a job of its own.
    await enqueueJob(providerEventJob, {
      ownerId: user.id,
      idempotencyKey: "apply-again",
      input: { eventId: event.id },
    });
    await runJobs();

    expect(await eventJobs(event.id)).toBe(1);
    expect(await db.select().from(providerEvents).where(eq(providerEvents.id, event.id))).toHaveLength(1);
    expect((await licenseNow(license.id)).licenseCode).toBe(file);
    expect(await subscriptionCopy({ ownerId: user.id, customerId: null }, subscriptionId)).toEqual(copy);
  });

  it("older than the copy (a lower resource version) never overwrites a newer one, whatever order they came in", async () => {
    const user = await newCustomer("out-of-order");
    const subscriptionId = `sub_out_of_order_${user.id.slice(0, 8)}`;
    await createLicenseForSubscription({
      ownerId: user.id,
      subscriptionId,
      name: "Out of Order",
      nodes: 3,
      planType: "core",
      hasCloudSupport: false,
      validTo: null,
    });
    const base = { id: subscriptionId, customerId: user.billingCustomerId! };
    const older = subscriptionFixture({ ...base, planQuantity: 3, resourceVersion: 1_000 });
    const newer = subscriptionFixture({ ...base, planQuantity: 8, resourceVersion: 2_000 });
    // The newer comes first, the older after it (Chargebee does not promise an order).
    await storeProviderEvents(
      [subscriptionEvent(`ev_new_${subscriptionId}`, "subscription_changed", newer)],
      "webhook",
    );
    await runJobs();
    await storeProviderEvents(
      [subscriptionEvent(`ev_old_${subscriptionId}`, "subscription_changed", older)],
      "webhook",
    );
    await runJobs();

    const account = { ownerId: user.id, customerId: null };
    expect(await subscriptionCopy(account, subscriptionId)).toMatchObject({ planQuantity: 8, resourceVersion: 2_000 });
    const [license] = await db.select().from(licenseTable).where(eq(licenseTable.subscriptionId, subscriptionId));
    expect(license).toMatchObject({ nodes: 8, termsVersion: 2_000 });
    expect(verifyLicenseFile(license.licenseCode)).toMatchObject({ users: 8 });
  });

  it("'subscription changed' arriving late, after 'subscription cancelled', does not bring the subscription back", async () => {
    const user = await newCustomer("late-change");
    const subscriptionId = `sub_late_${user.id.slice(0, 8)}`;
    await createLicenseForSubscription({
      ownerId: user.id,
      subscriptionId,
      name: "Late Change",
      nodes: 3,
      planType: "core",
      hasCloudSupport: false,
      validTo: null,
    });
    const base = { id: subscriptionId, customerId: user.billingCustomerId! };
    const termEnd = new Date("2026-12-01T00:00:00Z");
    const changed = subscriptionFixture({ ...base, currentTermEnd: termEnd, resourceVersion: 5_000 });
    const cancelledAt = new Date("2026-11-20T00:00:00Z");
    const cancelled = subscriptionFixture({
      ...base,
      currentTermEnd: termEnd,
      status: "cancelled",
      cancelledAt,
      nextBillingAt: null,
      resourceVersion: 6_000,
    });
    await storeProviderEvents(
      [subscriptionEvent(`ev_cancelled_${subscriptionId}`, "subscription_cancelled", cancelled)],
      "webhook",
    );
    await runJobs();
    await storeProviderEvents(
      [subscriptionEvent(`ev_changed_${subscriptionId}`, "subscription_changed", changed)],
      "webhook",
    );
    await runJobs();

    expect(await subscriptionCopy({ ownerId: user.id, customerId: null }, subscriptionId)).toMatchObject({
      status: "cancelled",
      resourceVersion: 6_000,
    });
    const [license] = await db.select().from(licenseTable).where(eq(licenseTable.subscriptionId, subscriptionId));
    // The license ends the day it was cancelled, not at the term's end plus the grace the late event would give.
    expect(license.validTo).toEqual(cancelledAt);
  });

  it("of a customer the portal does not know is stored and set aside, and logged once", async () => {
    const logs = captureLogs();
    const stranger = (id: string, version: number) =>
      subscriptionEvent(
        id,
        "subscription_changed",
        subscriptionFixture({ id: "sub_stranger", customerId: "cust_nobody_knows", resourceVersion: version }),
      );
    await storeProviderEvents([stranger("ev_stranger_1", 1)], "webhook");
    await storeProviderEvents([stranger("ev_stranger_1", 1), stranger("ev_stranger_2", 2)], "webhook");
    await storeProviderEvents([stranger("ev_stranger_3", 3)], "poll");

    logs.restore();
    const logged = logs.events("provider-event-unknown-customer");
    expect(logged).toHaveLength(1);
    expect(logged[0]).toMatchObject({
      customerId: "cust_nobody_knows",
      eventId: "ev_stranger_1",
    });
    const stored = await db.select().from(providerEvents).where(like(providerEvents.id, "ev_stranger_%"));
    expect(stored.map((row) => row.outcome)).toEqual(["unknown_customer", "unknown_customer", "unknown_customer"]);
    expect(await db.select().from(jobs).where(like(jobs.idempotencyKey, "provider-event:ev_stranger_%"))).toEqual([]);
  });

  it("the portal has no use for is stored and ignored, not an error", async () => {
    const user = await newCustomer("other-event");
    await storeProviderEvents(
      [
        {
          id: "ev_coupon_created",
          occurredAt: new Date(),
          type: "other",
          providerType: "coupon_created",
          resourceType: "other",
          resourceId: null,
          resourceVersion: null,
          customerId: user.billingCustomerId,
          subscription: null,
          invoice: null,
          paymentSource: null,
        },
      ],
      "webhook",
    );
    const [stored] = await db.select().from(providerEvents).where(eq(providerEvents.id, "ev_coupon_created"));
    expect(stored).toMatchObject({ outcome: "ignored", providerType: "coupon_created" });
    expect(await eventJobs("ev_coupon_created")).toBe(0);
  });
});

describe("the reconciliation", () => {
  it("repairs a license whose renewal's events were lost, from the provider's state of its subscription", async () => {
    const user = await newCustomer("lost-event");
    await addCard(user);
    const { license, subscriptionId } = await buyLicense(user);
    await reconcileWhenDue();
    await runJobs();

    // The renewal happens while nothing listens, and its events are lost for good.
    deaf();
    await getBillingClock()!.advance(31);
    const before = await licenseNow(license.id);
    await db.delete(billingEvents).where(eq(billingEvents.customerId, user.billingCustomerId!));
    expect(before.validTo).toEqual(license.validTo);

    // The next run (an hour later) re-reads the account's running subscriptions.
    expect(await reconcileWhenDue(new Date(Date.now() + 61 * 60 * 1000))).toBe(true);
    await runJobs();

    const copy = (await subscriptionCopy({ ownerId: user.id, customerId: null }, subscriptionId))!;
    expect(copy.currentTermEnd!.getTime()).toBeGreaterThan(license.validTo.getTime() - LICENSE_GRACE_DAYS * DAY);
    const after = await licenseNow(license.id);
    expect(after.validTo).toEqual(graceAfter(copy.currentTermEnd!));
    expect(verifyLicenseFile(after.licenseCode)?.validTo).toBe(after.validTo.toISOString());
    // And the renewal's invoice is listed.
    expect(
      await db
        .select()
        .from(invoices)
        .where(and(eq(invoices.subscriptionId, subscriptionId), eq(invoices.purpose, "renewal"))),
    ).toHaveLength(1);
  });

  it("stores the events a webhook never delivered, from the provider's events list", async () => {
    const user = await newCustomer("lost-webhook");
    await addCard(user);
    const { license } = await buyLicense(user);
    deaf();
    await getBillingClock()!.advance(31);
    expect((await licenseNow(license.id)).validTo).toEqual(license.validTo);

    expect(await reconcileWhenDue()).toBe(true);
    await runJobs();

    const polled = await db
      .select()
      .from(providerEvents)
      .where(and(eq(providerEvents.customerId, user.billingCustomerId!), eq(providerEvents.receivedFrom, "poll")));
    expect(polled.map((event) => event.type)).toContain("subscription_renewed");
    expect((await licenseNow(license.id)).validTo.getTime()).toBeGreaterThan(license.validTo.getTime());
  });

  it("runs once per period whichever process asks, and at once when the portal was down when it fell due", async () => {
    const now = new Date();
    expect(await reconcileWhenDue(now, "process-a")).toBe(true);
    expect(await reconcileWhenDue(now, "process-b")).toBe(false);
    expect(await reconcileWhenDue(new Date(now.getTime() + 30 * 60 * 1000), "process-b")).toBe(false);
    // Started again three hours later: the run that fell due meanwhile runs now.
    expect(await reconcileWhenDue(new Date(now.getTime() + 3 * 60 * 60 * 1000), "process-b")).toBe(true);
  });

  it("lets no run that outlived its lease write the schedule and the events cursor of the run that took over", async () => {
    // Two runs of one process (a tick that came while the first still polled), each held in its poll until let go.
    const billing = getBilling();
    const list = billing.listEvents.bind(billing);
    const held = [0, 1].map(() => {
      let resolve = () => {};
      const promise = new Promise<void>((release) => (resolve = release));
      return { promise, resolve };
    });
    const listing = vi.spyOn(billing, "listEvents");
    for (const { promise } of held) {
      listing.mockImplementationOnce(async (query) => {
        await promise;
        return list(query);
      });
    }
    const first = new Date();
    const slow = reconcileWhenDue(first, "process-a");
    await vi.waitFor(() => expect(listing).toHaveBeenCalledTimes(1));
    // Its lease is out ten minutes later: the next tick takes the run over, while the first still polls.
    const takenOver = new Date(first.getTime() + 11 * 60 * 1000);
    const taking = reconcileWhenDue(takenOver, "process-a");
    await vi.waitFor(() => expect(listing).toHaveBeenCalledTimes(2));

    // The first ends before the one that took over: what it read is not written over the holder's run.
    held[0].resolve();
    await slow;
    held[1].resolve();
    expect(await taking).toBe(true);
    listing.mockRestore();
    const [sync] = await db.select().from(providerSync);
    expect(sync).toMatchObject({
      lastRunAt: takenOver,
      nextRunAt: new Date(takenOver.getTime() + env.RECONCILIATION_MINUTES * 60 * 1000),
      leaseHolder: null,
    });
  });
});
