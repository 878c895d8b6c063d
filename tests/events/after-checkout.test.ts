import { and, count, eq } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { LICENSE_GRACE_DAYS } from "~/domain/renewals";
import {
  action as autoRenewAction,
  loader as autoRenewLoader,
} from "~/routes/_portal.licenses.$subscriptionId.auto-renew";
import { action as payAction, loader as payLoader } from "~/routes/_portal.account_.invoices.$invoiceId.pay";
import { loader as licensesLoader } from "~/routes/_portal.licenses";
import { billingFaults, getBilling, getBillingClock, onBillingEvents } from "~/server/billing/index.server";
import { db } from "~/server/platform/database/db.server";
import { storeProviderEvents } from "~/server/subscriptions/event-feed.server";
import { findOwnedJob } from "~/server/platform/jobs/runner.server";
import { verifyLicenseFile } from "~/server/hubs/license-files.server";
import { billingClock, billingEvents, invoices, jobs, providerSync } from "~/server/platform/database/tables.server";
import {
  addCard,
  buyLicense,
  DECLINING,
  licenseNow,
  newCustomer,
  paymentsOf,
  type TestCustomer,
} from "../support/accounts";
import { runJobs } from "../support/jobs";
import { freshSession } from "../support/sign-in";
import { openRoute as load, postRoute as post } from "../support/requests";

/**
 * After checkout, through the pages' own loaders and actions: a failed renewal paid with Pay now exactly once
 * (posted twice, after a restart mid-payment, after a lost answer), and auto-renew turned off (the license is not
 * renewed and expires) and on again (it renews).
 */
const DAY = 24 * 60 * 60 * 1000;

let unlisten: () => void;
beforeAll(() => {
  unlisten = onBillingEvents((events) => storeProviderEvents(events, "engine"));
});
afterAll(() => unlisten());
afterEach(async () => {
  await billingFaults.clear();
  await db.delete(billingClock);
  await db.delete(providerSync);
});

async function later(days: number) {
  await getBillingClock()!.advance(days);
  await runJobs();
}

/** How many invoices the organization has. */
async function invoiceCount(user: TestCustomer) {
  const [{ n }] = await db.select({ n: count() }).from(invoices).where(eq(invoices.ownerId, user.id));
  return n;
}

/** The organization's invoices of renewals, oldest first. */
const renewalsOf = (user: TestCustomer) =>
  db
    .select()
    .from(invoices)
    .where(and(eq(invoices.ownerId, user.id), eq(invoices.purpose, "renewal")))
    .orderBy(invoices.date, invoices.id);

/**
 * A customer whose monthly license's first renewal was declined: bought with a good card, which was then replaced
 * by Stripe's declining test card, a month ago. Then a good card is added for Pay now.
 */
async function failedRenewal(label: string) {
  const user = await newCustomer(label);
  const visa = await addCard(user);
  const { license, subscriptionId } = await buyLicense(user, { users: 3 });
  await addCard(user, DECLINING);
  await getBilling().deleteLocalPaymentSource(user.billingCustomerId!, visa.id);
  await later(31);
  const [renewal] = await renewalsOf(user);
  expect(renewal).toMatchObject({ status: "payment_due", amountDue: 3 * 400, subscriptionId });
  // Charged to the card that replaced the one the subscription was bought with, and declined (and maybe retried).
  const [failed] = await db
    .select({ n: count() })
    .from(billingEvents)
    .where(and(eq(billingEvents.resourceId, renewal.id), eq(billingEvents.type, "payment_failed")));
  expect(failed.n).toBeGreaterThanOrEqual(1);
  // Paid through the term it bought: the renewal unpaid leaves the license where it was.
  expect((await licenseNow(license.id)).validTo).toEqual(license.validTo);
  const good = await addCard(user, "5555 5555 5555 4444");
  const cookie = await freshSession(user.user.email);
  return { user, license, subscriptionId, renewal, good, cookie };
}

/** The confirmation of Pay now with this card, as the drawer renders it: its key. */
async function confirmation(invoiceId: string, cardId: string, cookie: string) {
  const path = `/account/invoices/${invoiceId}/pay?card=${cardId}`;
  const page = await (await load(payLoader, path, cookie, { invoiceId })).json();
  expect(page.invoice).toMatchObject({ id: invoiceId, amountDue: 1200 });
  return page.confirm.key as string;
}

const pay = (invoiceId: string, cardId: string, key: string, cookie: string) =>
  post(
    payAction,
    `/account/invoices/${invoiceId}/pay`,
    { intent: "pay", payment_source_id: cardId, orderKey: key },
    cookie,
    { invoiceId },
  );

const jobIdOf = (response: Response) => {
  expect(response.status).toBe(302);
  return response.headers.get("Location")!.split("/").pop()!;
};

/** The license extended by the paid renewal: to the renewed term's end plus the grace, in a verifiable file. */
async function expectExtended(licenseId: string, user: TestCustomer, subscriptionId: string) {
  const subscription = await getBilling().retrieveSubscription(user.billingCustomerId!, subscriptionId);
  expect(subscription).toMatchObject({ status: "active", totalDues: 0 });
  const after = await licenseNow(licenseId);
  expect(after.validTo).toEqual(new Date(subscription.currentTermEnd!.getTime() + LICENSE_GRACE_DAYS * DAY));
  expect(verifyLicenseFile(after.licenseCode)).toMatchObject({ validTo: after.validTo.toISOString() });
}

describe("Pay now for a failed renewal", () => {
  it("charges once when the confirmation is posted twice, and extends the license", async () => {
    const { user, license, subscriptionId, renewal, good, cookie } = await failedRenewal("pay-twice");
    const key = await confirmation(renewal.id, good.id, cookie);
    const first = jobIdOf(await pay(renewal.id, good.id, key, cookie));
    const second = jobIdOf(await pay(renewal.id, good.id, key, cookie));
    expect(second).toBe(first);
    await runJobs();
    expect((await findOwnedJob(user.id, first))?.status).toBe("succeeded");
    // Posted again after it was paid: the payment's progress, nothing charged.
    expect(jobIdOf(await pay(renewal.id, good.id, key, cookie))).toBe(first);
    await runJobs();
    expect(await paymentsOf(renewal.id)).toBe(1);
    expect((await db.select().from(invoices).where(eq(invoices.id, renewal.id)))[0]).toMatchObject({
      status: "paid",
      amountPaid: 1200,
      amountDue: 0,
    });
    await expectExtended(license.id, user, subscriptionId);
  });

  it("charges once when the process stopped after the charge, before it recorded it", async () => {
    const { user, license, subscriptionId, renewal, good, cookie } = await failedRenewal("pay-restart");
    const key = await confirmation(renewal.id, good.id, cookie);
    const jobId = jobIdOf(await pay(renewal.id, good.id, key, cookie));
    // The process that took the job charged the card, then stopped: its step is left started, its lease running out.
    await getBilling().collectPayment(user.billingCustomerId!, renewal.id, good.id, `${jobId}:collect:crashed`);
    await db
      .update(jobs)
      .set({
        status: "running",
        steps: { collect: { status: "started", refusals: 0 } },
        leaseHolder: "a-stopped-process",
        leaseUntil: new Date(Date.now() - 1000),
      })
      .where(eq(jobs.id, jobId));
    await runJobs();
    expect((await findOwnedJob(user.id, jobId))?.status).toBe("succeeded");
    expect(await paymentsOf(renewal.id)).toBe(1);
    await expectExtended(license.id, user, subscriptionId);
  });

  it("charges once when the provider's answer was lost after it charged", async () => {
    const { user, license, subscriptionId, renewal, good, cookie } = await failedRenewal("pay-lost");
    const key = await confirmation(renewal.id, good.id, cookie);
    await billingFaults.inject("collectPayment", { mode: "lose", times: "once" });
    const jobId = jobIdOf(await pay(renewal.id, good.id, key, cookie));
    await runJobs();
    expect((await findOwnedJob(user.id, jobId))?.status).toBe("succeeded");
    expect(await paymentsOf(renewal.id)).toBe(1);
    await expectExtended(license.id, user, subscriptionId);
  });

  it("tells a declined card in the provider's words next to it, and charges nothing", async () => {
    const { user, renewal, cookie } = await failedRenewal("pay-declined");
    const [declining] = (await getBilling().listPaymentSources(user.billingCustomerId!)).filter(
      (source) => source.card?.last4 === "0341",
    );
    const key = await confirmation(renewal.id, declining.id, cookie);
    const jobId = jobIdOf(await pay(renewal.id, declining.id, key, cookie));
    await runJobs();
    expect(await findOwnedJob(user.id, jobId)).toMatchObject({
      status: "failed",
      error: { message: "Your card was declined." },
    });
    expect(await paymentsOf(renewal.id)).toBe(0);
    // Back at the drawer, the refusal is next to that card.
    const page = await (
      await load(payLoader, `/account/invoices/${renewal.id}/pay`, cookie, { invoiceId: renewal.id })
    ).json();
    expect(page.refusals).toEqual({ [declining.id]: "Your card was declined." });
  });
});

describe("auto-renew", () => {
  const turn = async (subscriptionId: string, intent: "off" | "on", cookie: string) => {
    const path = `/licenses/${subscriptionId}/auto-renew`;
    const dialog = await (await load(autoRenewLoader, path, cookie, { subscriptionId })).json();
    expect(dialog.change.turn).toBe(intent);
    const response = await post(autoRenewAction, path, { intent, idempotency_key: dialog.key }, cookie, {
      subscriptionId,
    });
    expect(response.headers.get("Location")).toBe("/licenses");
  };
  const shown = async (licenseId: string, cookie: string) =>
    (await (await load(licensesLoader, "/licenses", cookie)).json()).licenses.find(
      (license: { id: string }) => license.id === licenseId,
    );

  it("off: nothing is charged, the license is not renewed at the term's end and expires on its last day", async () => {
    const user = await newCustomer("auto-renew-off");
    await addCard(user);
    const { license, subscriptionId } = await buyLicense(user, { users: 3 });
    const cookie = await freshSession(user.user.email);
    const termEnd = (await getBilling().retrieveSubscription(user.billingCustomerId!, subscriptionId)).currentTermEnd!;
    await later(10);
    await turn(subscriptionId, "off", cookie);
    // Its last day is the term's end: no grace for a customer who chose to stop.
    expect((await licenseNow(license.id)).validTo).toEqual(termEnd);
    expect(await shown(license.id, cookie)).toMatchObject({ status: "active", renewal: expect.anything() });
    await later(25);
    expect(await renewalsOf(user)).toEqual([]);
    expect(await getBilling().retrieveSubscription(user.billingCustomerId!, subscriptionId)).toMatchObject({
      status: "cancelled",
    });
    expect(await shown(license.id, cookie)).toMatchObject({ status: "expired", renewUrl: expect.any(String) });
    expect(verifyLicenseFile((await licenseNow(license.id)).licenseCode)).toMatchObject({
      validTo: termEnd.toISOString(),
    });
  });

  it("on again before the term ends: nothing charged then, and the license renews", async () => {
    const user = await newCustomer("auto-renew-on");
    await addCard(user);
    const { license, subscriptionId } = await buyLicense(user, { users: 3 });
    const cookie = await freshSession(user.user.email);
    await later(5);
    await turn(subscriptionId, "off", cookie);
    await later(5);
    const invoicesBefore = await invoiceCount(user);
    await turn(subscriptionId, "on", cookie);
    expect(await invoiceCount(user)).toBe(invoicesBefore);
    await later(25);
    expect(await renewalsOf(user)).toMatchObject([{ status: "paid", amountDue: 0 }]);
    await expectExtended(license.id, user, subscriptionId);
    expect(await shown(license.id, cookie)).toMatchObject({ status: "active" });
  });
});

// The engine's fault table is one per database: no fault outlives its test.
afterAll(() => billingFaults.clear());
