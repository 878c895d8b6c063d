import { count, eq, sql } from "drizzle-orm";
import { beforeEach, describe, expect, it } from "vitest";
import { LICENSE_CHANGED } from "~/domain/license-update";
import type { UpdateDraft } from "~/domain/license-update-forms";
import { billingFaults, getBilling } from "~/server/billing/index.server";
import { db } from "~/server/db.server";
import { findDraft } from "~/server/drafts.server";
import { JOB_KINDS } from "~/server/jobs/kinds.server";
import { PRICE_CHANGED } from "~/server/jobs/new-subscription.server";
import { findOwnedJob, JobRunner, retryJob } from "~/server/jobs/runner.server";
import { licenseUpdateWizard, submitUpdate, updateReview } from "~/server/wizards/license-update.server";
import { memberByEmail } from "../support/members";
import { billingCustomers, billingInvoices, billingSubscriptions, jobs, licenses } from "~db/schema";

const SUBSCRIPTION = "sub_demo_core_monthly";
const customer = () => memberByEmail("customer@example.com");
const wizard = licenseUpdateWizard(SUBSCRIPTION);
const drain = () => new JobRunner(JOB_KINDS).drain();
const HOUR = 60 * 60 * 1000;
const DAY = 24 * HOUR;

const subscription = () =>
  db.select().from(billingSubscriptions).where(eq(billingSubscriptions.id, SUBSCRIPTION)).get()!;
const license = () => db.select().from(licenses).where(eq(licenses.subscriptionId, SUBSCRIPTION)).get()!;
const invoices = () => db.select().from(billingInvoices).where(eq(billingInvoices.subscriptionId, SUBSCRIPTION)).all();
const invoiceCount = () => db.select({ n: count() }).from(billingInvoices).get()?.n ?? 0;

beforeEach(() => {
  billingFaults.clear();
  wizard.clear(customer());
  db.delete(jobs).run();
  // The demo's Core monthly license for 10 users, 10 days and an hour into a 30-day term (20 days left,
  // the day of the change counted), before every test.
  const start = new Date(Date.now() - 10 * DAY - HOUR);
  db.update(billingSubscriptions)
    .set({
      planId: "core-monthly",
      planQuantity: 10,
      planUnitPrice: 400,
      addons: [],
      currentTermStart: start,
      currentTermEnd: new Date(start.getTime() + 30 * DAY),
      nextBillingAt: new Date(start.getTime() + 30 * DAY),
    })
    .where(eq(billingSubscriptions.id, SUBSCRIPTION))
    .run();
  db.update(licenses).set({ nodes: 10, planType: "core" }).where(eq(licenses.subscriptionId, SUBSCRIPTION)).run();
  db.delete(billingInvoices).where(eq(billingInvoices.subscriptionId, SUBSCRIPTION)).run();
  db.update(billingCustomers)
    .set({ creditBalance: 0 })
    .where(eq(billingCustomers.id, customer().organization.billingCustomerId!))
    .run();
});

/** The customer's update at Review & Order with the Visa on file, and the confirmation's key. */
async function atReview(changes: Partial<UpdateDraft>) {
  const member = customer();
  const [card] = await getBilling().listPaymentSources(member.organization.billingCustomerId!);
  wizard.save(member, {
    base: { tier: "core", cycle: "monthly", quantity: 10 },
    tier: "core",
    cycle: "monthly",
    paymentSourceId: card.id,
    completed: ["product", "billing"],
    ...changes,
  });
  const review = await updateReview(member, SUBSCRIPTION);
  expect(review.problems).toEqual([]);
  return { member, key: review.orderKey!, review };
}

const jobOf = (result: Awaited<ReturnType<typeof submitUpdate>>) => {
  if (!("jobId" in result)) throw new Error(`expected an update, got ${JSON.stringify(result)}`);
  return result.jobId;
};

describe("updating a recurring license", () => {
  it("charges the prorated amount the Review showed, once, however often it is submitted, and re-signs the license", async () => {
    const { member, key, review } = await atReview({ addedUsers: 5 });
    // 20 of 30 days left: 15 users x $4.00 x 2/3 = $40.00 charged, 10 users x $4.00 x 2/3 = $26.67 credited, one
    // rounding per line: $13.33 due.
    expect(review.estimate?.lineItems).toEqual([
      expect.objectContaining({ quantity: 15, unitAmount: 400, amount: 4000 }),
    ]);
    expect(review.estimate).toMatchObject({ creditsApplied: 2667, amountDue: 1333 });
    expect(review.recurring).toMatchObject({ users: 15, addedUsers: 5, unitPrice: 400 });
    const first = jobOf(await submitUpdate(member, SUBSCRIPTION, key));
    expect(jobOf(await submitUpdate(member, SUBSCRIPTION, key))).toBe(first);
    await drain();
    expect(jobOf(await submitUpdate(member, SUBSCRIPTION, key))).toBe(first);
    await drain();
    expect(findOwnedJob(member.organization.id, first)?.status).toBe("succeeded");
    expect(subscription()).toMatchObject({ planQuantity: 15, autoCollection: true });
    expect(invoices().map((invoice) => invoice.amountPaid)).toEqual([1333]);
    expect(license()).toMatchObject({ nodes: 15, planType: "core" });
    const payload = JSON.parse(Buffer.from(JSON.parse(license().licenseCode).payload, "base64url").toString()) as {
      users: number;
    };
    expect(payload.users).toBe(15);
    expect(findDraft(member, `license-update:${SUBSCRIPTION}`)).toBeNull();
  });

  it("moves to a higher tier and a yearly term, with the plan's new id", async () => {
    const { member, key } = await atReview({ tier: "advanced", cycle: "yearly" });
    await submitUpdate(member, SUBSCRIPTION, key);
    await drain();
    expect(subscription()).toMatchObject({ planId: "advanced-yearly", planQuantity: 10 });
    expect(license()).toMatchObject({ planType: "advanced" });
  });

  it("refuses a confirmation whose update changed since (another tab), with the new total, and charges nothing", async () => {
    const { member, key } = await atReview({ addedUsers: 5 });
    const before = invoiceCount();
    wizard.save(member, { addedUsers: 6 });
    expect(await submitUpdate(member, SUBSCRIPTION, key)).toEqual({
      refused: expect.stringContaining("$16.00") as string,
    });
    await drain();
    expect(invoiceCount()).toBe(before);
  });

  it("refuses, charging nothing, when the subscription moved on between the confirmation and the charge", async () => {
    const { member, key } = await atReview({ addedUsers: 5 });
    const job = jobOf(await submitUpdate(member, SUBSCRIPTION, key));
    db.update(billingSubscriptions).set({ planQuantity: 12 }).where(eq(billingSubscriptions.id, SUBSCRIPTION)).run();
    await drain();
    expect(findOwnedJob(member.organization.id, job)).toMatchObject({
      status: "failed",
      error: { title: "Failed to update recurring license.", message: LICENSE_CHANGED },
    });
    expect(invoices()).toEqual([]);
    // The Review now sends the customer back to the Product step.
    const review = await updateReview(member, SUBSCRIPTION);
    expect(review.problems).toContainEqual(expect.objectContaining({ step: "product", message: LICENSE_CHANGED }));
  });

  it("refuses in the job, before charging, when the price is not the one confirmed", async () => {
    const { member, key } = await atReview({ addedUsers: 5 });
    const job = jobOf(await submitUpdate(member, SUBSCRIPTION, key));
    const row = db.select().from(jobs).where(eq(jobs.id, job)).get()!;
    db.update(jobs)
      .set({ input: { ...row.input, digest: "confirmed-at-another-price" } })
      .where(eq(jobs.id, job))
      .run();
    await drain();
    expect(findOwnedJob(member.organization.id, job)).toMatchObject({
      status: "failed",
      error: { message: PRICE_CHANGED },
    });
    expect(invoices()).toEqual([]);
  });

  it("shows the provider's words when the update is refused, and Try again updates once", async () => {
    const { member, key } = await atReview({ addedUsers: 5 });
    billingFaults.inject("updateSubscription", { message: "Your card was declined.", times: "once" });
    const job = jobOf(await submitUpdate(member, SUBSCRIPTION, key));
    await drain();
    expect(findOwnedJob(member.organization.id, job)).toMatchObject({
      status: "failed",
      error: { title: "Failed to update recurring license.", message: "Your card was declined." },
    });
    expect(retryJob(member.organization.id, job)).toBe(true);
    await drain();
    expect(findOwnedJob(member.organization.id, job)?.status).toBe("succeeded");
    expect(invoices()).toHaveLength(1);
    expect(subscription().planQuantity).toBe(15);
  });

  it("after an answer lost on the way back, asks the provider before anything else, and charges once", async () => {
    const { member, key } = await atReview({ addedUsers: 5 });
    billingFaults.inject("updateSubscription", { mode: "lose", times: "always" });
    const job = jobOf(await submitUpdate(member, SUBSCRIPTION, key));
    await drain();
    expect(findOwnedJob(member.organization.id, job)?.status).toBe("needs_attention");
    db.update(jobs).set({ nextRunAt: new Date() }).where(eq(jobs.id, job)).run();
    await drain();
    expect(findOwnedJob(member.organization.id, job)?.status).toBe("succeeded");
    expect(invoices()).toHaveLength(1);
    expect(license().nodes).toBe(15);
  });

  it("after the charge, a failing license step is retried without charging again", async () => {
    const { member, key } = await atReview({ addedUsers: 5 });
    db.run(
      sql`create trigger full_disk before update on licenses begin select raise(abort, 'database or disk is full'); end`,
    );
    let job = "";
    try {
      job = jobOf(await submitUpdate(member, SUBSCRIPTION, key));
      await drain();
    } finally {
      db.run(sql`drop trigger full_disk`);
    }
    expect(findOwnedJob(member.organization.id, job)).toMatchObject({
      steps: { "update-subscription": { status: "done" } },
    });
    db.update(jobs).set({ nextRunAt: new Date() }).where(eq(jobs.id, job)).run();
    await drain();
    expect(findOwnedJob(member.organization.id, job)?.status).toBe("succeeded");
    expect(invoices()).toHaveLength(1);
    expect(license().nodes).toBe(15);
  });

  it("is 404 for a subscription of another account", async () => {
    const other = memberByEmail("distributor@example.com");
    await expect(updateReview(other, SUBSCRIPTION)).rejects.toMatchObject({ status: 404 });
  });
});
