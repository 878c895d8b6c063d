import { count, eq, sql } from "drizzle-orm";
import { beforeEach, describe, expect, it } from "vitest";
import { LICENSE_CHANGED } from "~/domain/license-update";
import type { UpdateDraft } from "~/domain/license-update-forms";
import { billingFaults, getBilling } from "~/server/billing/index.server";
import type { AsyncSqliteDatabase } from "~/server/platform/database/sqlite-async.server";
import {
  billingCustomers,
  billingInvoices,
  billingSubscriptions,
  engine,
  jobs,
  licenses,
} from "~/server/platform/database/tables.server";
import { db } from "~/server/platform/database/db.server";
import { findDraft } from "~/server/platform/wizards/drafts.server";
import { JOB_KINDS } from "~/server/job-kinds.server";
import { PRICE_CHANGED } from "~/server/orders/new-subscription-job.server";
import { findOwnedJob, JobRunner, retryJob } from "~/server/platform/jobs/runner.server";
import { licenseUpdateWizard, submitUpdate, updateReview } from "~/server/orders/license-update-wizard.server";
import { memberByEmail } from "../support/members";
import { dropRefusal } from "../support/refused-writes";

const SUBSCRIPTION = "sub_demo_core_monthly";
const customer = () => memberByEmail("customer@example.com");
const wizard = licenseUpdateWizard(SUBSCRIPTION);
const drain = () => new JobRunner(JOB_KINDS).drain();
const HOUR = 60 * 60 * 1000;
const DAY = 24 * HOUR;

async function subscription() {
  const [row] = await db.select().from(billingSubscriptions).where(eq(billingSubscriptions.id, SUBSCRIPTION));
  return row;
}
async function license() {
  const [row] = await db.select().from(licenses).where(eq(licenses.subscriptionId, SUBSCRIPTION));
  return row;
}
const invoices = () => db.select().from(billingInvoices).where(eq(billingInvoices.subscriptionId, SUBSCRIPTION));
async function invoiceCount() {
  const [row] = await db.select({ n: count() }).from(billingInvoices);
  return row?.n ?? 0;
}

beforeEach(async () => {
  await billingFaults.clear();
  await wizard.clear(await customer());
  await db.delete(jobs);
  // The demo's Core monthly license for 10 users, 10 days and an hour into a 30-day term (20 days left,
  // the day of the change counted), before every test.
  const start = new Date(Date.now() - 10 * DAY - HOUR);
  await db
    .update(billingSubscriptions)
    .set({
      planId: "core-monthly",
      planQuantity: 10,
      planUnitPrice: 400,
      addons: [],
      currentTermStart: start,
      currentTermEnd: new Date(start.getTime() + 30 * DAY),
      nextBillingAt: new Date(start.getTime() + 30 * DAY),
    })
    .where(eq(billingSubscriptions.id, SUBSCRIPTION));
  await db.update(licenses).set({ nodes: 10, planType: "core" }).where(eq(licenses.subscriptionId, SUBSCRIPTION));
  await db.delete(billingInvoices).where(eq(billingInvoices.subscriptionId, SUBSCRIPTION));
  await db
    .update(billingCustomers)
    .set({ creditBalance: 0 })
    .where(eq(billingCustomers.id, (await customer()).organization.billingCustomerId!));
});

/** The customer's update at Review & Order with the Visa on file, and the confirmation's key. */
async function atReview(changes: Partial<UpdateDraft>) {
  const member = await customer();
  const [card] = await getBilling().listPaymentSources(member.organization.billingCustomerId!);
  await wizard.save(member, {
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

/** Every update of a license fails, as on a full disk, until dropRefusal("full_disk", "licenses"). */
async function refuseLicenseUpdates() {
  const message = "database or disk is full";
  if (engine === "postgres") {
    await db.execute(
      sql.raw(
        `create function full_disk() returns trigger language plpgsql as $$ begin raise exception '${message}'; end $$`,
      ),
    );
    await db.execute(
      sql.raw("create trigger full_disk before update on licenses for each row execute function full_disk()"),
    );
  } else {
    await (db as unknown as AsyncSqliteDatabase).run(
      sql.raw(`create trigger full_disk before update on licenses begin select raise(abort, '${message}'); end`),
    );
  }
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
    expect((await findOwnedJob(member.organization.id, first))?.status).toBe("succeeded");
    expect(await subscription()).toMatchObject({ planQuantity: 15, autoCollection: true });
    expect((await invoices()).map((invoice) => invoice.amountPaid)).toEqual([1333]);
    const updated = await license();
    expect(updated).toMatchObject({ nodes: 15, planType: "core" });
    const payload = JSON.parse(Buffer.from(JSON.parse(updated.licenseCode).payload, "base64url").toString()) as {
      users: number;
    };
    expect(payload.users).toBe(15);
    expect(await findDraft(member, `license-update:${SUBSCRIPTION}`)).toBeNull();
  });

  it("moves to a higher tier and a yearly term, with the plan's new id", async () => {
    const { member, key } = await atReview({ tier: "advanced", cycle: "yearly" });
    await submitUpdate(member, SUBSCRIPTION, key);
    await drain();
    expect(await subscription()).toMatchObject({ planId: "advanced-yearly", planQuantity: 10 });
    expect(await license()).toMatchObject({ planType: "advanced" });
  });

  it("carries the PO number typed on the confirmation to the update's invoice and the license's row", async () => {
    const { member, key } = await atReview({ addedUsers: 2 });
    jobOf(await submitUpdate(member, SUBSCRIPTION, key, "PO-7700"));
    await drain();
    expect((await invoices()).map((invoice) => invoice.poNumber)).toEqual(["PO-7700"]);
    expect(await license()).toMatchObject({ nodes: 12, poNumber: "PO-7700" });
  });

  it("refuses a confirmation whose update changed since (another tab), with the new total, and charges nothing", async () => {
    const { member, key } = await atReview({ addedUsers: 5 });
    const before = await invoiceCount();
    await wizard.save(member, { addedUsers: 6 });
    expect(await submitUpdate(member, SUBSCRIPTION, key)).toEqual({
      refused: expect.stringContaining("$16.00") as string,
    });
    await drain();
    expect(await invoiceCount()).toBe(before);
  });

  it("refuses, charging nothing, when the subscription moved on between the confirmation and the charge", async () => {
    const { member, key } = await atReview({ addedUsers: 5 });
    const job = jobOf(await submitUpdate(member, SUBSCRIPTION, key));
    await db.update(billingSubscriptions).set({ planQuantity: 12 }).where(eq(billingSubscriptions.id, SUBSCRIPTION));
    await drain();
    expect(await findOwnedJob(member.organization.id, job)).toMatchObject({
      status: "failed",
      error: { title: "Failed to update recurring license.", message: LICENSE_CHANGED },
    });
    expect(await invoices()).toEqual([]);
    // The Review now sends the customer back to the Product step.
    const review = await updateReview(member, SUBSCRIPTION);
    expect(review.problems).toContainEqual(expect.objectContaining({ step: "product", message: LICENSE_CHANGED }));
  });

  it("refuses in the job, before charging, when the price is not the one confirmed", async () => {
    const { member, key } = await atReview({ addedUsers: 5 });
    const job = jobOf(await submitUpdate(member, SUBSCRIPTION, key));
    const [row] = await db.select().from(jobs).where(eq(jobs.id, job));
    await db
      .update(jobs)
      .set({ input: { ...row.input, digest: "confirmed-at-another-price" } })
      .where(eq(jobs.id, job));
    await drain();
    expect(await findOwnedJob(member.organization.id, job)).toMatchObject({
      status: "failed",
      error: { message: PRICE_CHANGED },
    });
    expect(await invoices()).toEqual([]);
  });

  it("shows the provider's words when the update is refused, and Try again updates once", async () => {
    const { member, key } = await atReview({ addedUsers: 5 });
    await billingFaults.inject("updateSubscription", { message: "Your card was declined.", times: "once" });
    const job = jobOf(await submitUpdate(member, SUBSCRIPTION, key));
    await drain();
    expect(await findOwnedJob(member.organization.id, job)).toMatchObject({
      status: "failed",
      error: { title: "Failed to update recurring license.", message: "Your card was declined." },
    });
    expect(await retryJob(member.organization.id, job)).toBe(true);
    await drain();
    expect((await findOwnedJob(member.organization.id, job))?.status).toBe("succeeded");
    expect(await invoices()).toHaveLength(1);
    expect((await subscription()).planQuantity).toBe(15);
  });

  it("after an answer lost on the way back, asks the provider before anything else, and charges once", async () => {
    const { member, key } = await atReview({ addedUsers: 5 });
    await billingFaults.inject("updateSubscription", { mode: "lose", times: "always" });
    const job = jobOf(await submitUpdate(member, SUBSCRIPTION, key));
    await drain();
    expect((await findOwnedJob(member.organization.id, job))?.status).toBe("needs_attention");
    await db.update(jobs).set({ nextRunAt: new Date() }).where(eq(jobs.id, job));
    await drain();
    expect((await findOwnedJob(member.organization.id, job))?.status).toBe("succeeded");
    expect(await invoices()).toHaveLength(1);
    expect((await license()).nodes).toBe(15);
  });

  it("after the charge, a failing license step is retried without charging again", async () => {
    const { member, key } = await atReview({ addedUsers: 5 });
    await refuseLicenseUpdates();
    let job = "";
    try {
      job = jobOf(await submitUpdate(member, SUBSCRIPTION, key));
      await drain();
    } finally {
      await dropRefusal("full_disk", "licenses");
    }
    expect(await findOwnedJob(member.organization.id, job)).toMatchObject({
      steps: { "update-subscription": { status: "done" } },
    });
    await db.update(jobs).set({ nextRunAt: new Date() }).where(eq(jobs.id, job));
    await drain();
    expect((await findOwnedJob(member.organization.id, job))?.status).toBe("succeeded");
    expect(await invoices()).toHaveLength(1);
    expect((await license()).nodes).toBe(15);
  });

  it("is 404 for a subscription of another account", async () => {
    const other = await memberByEmail("distributor@example.com");
    await expect(updateReview(other, SUBSCRIPTION)).rejects.toMatchObject({ status: 404 });
  });
});
