import { randomUUID } from "node:crypto";
import { count, eq } from "drizzle-orm";
import { beforeEach, describe, expect, it } from "vitest";
import { subscriptionDraftSchema, type SubscriptionDraft } from "~/domain/new-subscription";
import {
  AUTHENTICATION_REQUIRED,
  billingFaults,
  getBilling,
  getBillingClock,
  PAYMENT_INTENT_EXPIRED,
} from "~/server/billing/index.server";
import { getCards } from "~/server/cards/index.server";
import { and, isNull } from "drizzle-orm";
import { billingInvoices, billingSubscriptions, jobs, licenses } from "~/server/platform/database/tables.server";
import { db } from "~/server/platform/database/db.server";
import { JOB_KINDS } from "~/server/job-kinds.server";
import { newSubscriptionOrder } from "~/server/orders/new-subscription-job.server";
import { licenseUpdate } from "~/server/orders/license-update-job.server";
import { payNow } from "~/server/orders/pay-now-job.server";
import { licenseUpdateWizard, submitUpdate, updateReview } from "~/server/orders/license-update-wizard.server";
import { chooseAnotherCard, resumeAfterBank } from "~/server/orders/present-payments.server";
import {
  enqueueJob,
  findOwnedJob,
  JobRunner,
  resumeWaitingJob,
  waitingStep,
  type JobView,
} from "~/server/platform/jobs/runner.server";
import { orderReview, purchase } from "~/server/orders/new-subscription-order.server";
import { subscriptionWizard } from "~/server/orders/new-subscription-wizard.server";
import { TRIAL_KINDS, trialOutcome } from "~/server/trials/trial-job.server";
import { buildTrial, TRIAL_WIZARDS, trialOrder } from "~/server/trials/trial-wizard.server";
import { answerSetup } from "~/server/providers/card-vault.server";
import { CARD_MESSAGES } from "~/server/providers/test-cards.server";
import { memberByEmail } from "../support/members";
import { authenticatedTokenOf } from "../support/card-tokens";
import { licenseUpdateDraft, trialDraft } from "../support/drafts";

const customer = () => memberByEmail("customer@example.com");
const drain = () => new JobRunner(JOB_KINDS).drain();

async function invoiceCount() {
  const [row] = await db.select({ n: count() }).from(billingInvoices);
  return row?.n ?? 0;
}

/** A card saved on the customer's billing account, its bank asked (and answered) when it asks on saving. */
async function savedCard(customerId: string, number: string): Promise<string> {
  const form = new FormData();
  form.set("card_number", number);
  form.set("card_expiry", "12 / 34");
  form.set("card_cvc", "123");
  const holder = { firstName: "Ada", lastName: "Lovelace" };
  const tmpToken = await authenticatedTokenOf(getCards(), form, holder, randomUUID());
  const source = await getBilling().createPaymentSourceFromTempToken(
    { customerId, setAsPrimary: false, tmpToken },
    randomUUID(),
  );
  return source.id;
}

/** The customer's order at its last step, paid with a new card of this number, and the confirmation's key. */
async function orderWith(organization: string, number: string) {
  const member = await customer();
  const customerId = member.organization.billingCustomerId!;
  const paymentSourceId = await savedCard(customerId, number);
  await subscriptionWizard.save(member, {
    ...subscriptionDraftSchema.parse({}),
    organization,
    users: 10,
    hardware: { "usb-sensor": 2 },
    paymentSourceId,
    completed: ["plan", "hosting", "hardware", "support", "review", "billing"],
  } satisfies SubscriptionDraft);
  const review = await orderReview(member);
  expect(review.problems).toEqual([]);
  return { member, customerId, paymentSourceId, key: review.orderKey! };
}

async function placed(member: Awaited<ReturnType<typeof customer>>, key: string): Promise<string> {
  const result = await purchase(member, key);
  if (!("jobId" in result)) throw new Error(`expected an order, got ${JSON.stringify(result)}`);
  return result.jobId;
}

const licensesNamed = (name: string) => db.select().from(licenses).where(eq(licenses.name, name));

async function jobNow(ownerId: string, jobId: string): Promise<JobView> {
  const job = await findOwnedJob(ownerId, jobId);
  if (!job) throw new Error("no such job");
  return job;
}

/** The payment intent a waiting job's bank page is for. */
function intentOf(job: JobView): string {
  const waiting = waitingStep(job);
  if (!waiting) throw new Error(`The job does not wait for the cardholder: ${job.status}`);
  return decodeURIComponent(waiting.redirectUrl.split("/").pop()!);
}

/**
 * The bank's page answered 'Complete', then its return posted twice at once (a reload, a second tab): one starts
 * the job, and two runners (two instances) drain it.
 */
async function completedAndReturnedTwice(
  ownerId: string,
  jobId: string,
  kind: Parameters<typeof resumeAfterBank>[2],
  intent: string,
) {
  await answerSetup(db, intent, "complete");
  const returns = await Promise.all([
    resumeAfterBank(ownerId, jobId, kind, intent),
    resumeAfterBank(ownerId, jobId, kind, intent),
  ]);
  expect(returns.filter(Boolean)).toHaveLength(1);
  await Promise.all([drain(), drain()]);
}

/**
 * A restart while the job waits: a runner finds nothing to claim. Then a crash in the middle of `step` (as if a
 * process died after asking the provider): the next runner reconciles it, and the job waits on the same intent.
 */
async function restartAndCrashIn(ownerId: string, job: JobView, step: string, intent: string) {
  await drain();
  expect((await jobNow(ownerId, job.id)).status).toBe("waiting_for_cardholder");
  await db
    .update(jobs)
    .set({
      status: "running",
      leaseHolder: "dead-process",
      leaseUntil: new Date(Date.now() - 1000),
      steps: { ...job.steps, [step]: { status: "started", refusals: 0 } },
    })
    .where(eq(jobs.id, job.id));
  await drain();
  expect(intentOf(await jobNow(ownerId, job.id))).toBe(intent);
}

beforeEach(async () => {
  await billingFaults.clear();
  await subscriptionWizard.clear(await customer());
});

describe("a charge the card's bank asks the present cardholder to authenticate", () => {
  it("waits for the cardholder with nothing charged, across a restart, and the return charges once on two instances", async () => {
    const { member, key } = await orderWith("Northwind Asks Always", "4000 0027 6000 3184");
    const ownerId = member.organization.id;
    const invoicesBefore = await invoiceCount();
    // Purchase double-clicked: one job.
    const jobId = await placed(member, key);
    expect(await placed(member, key)).toBe(jobId);
    await drain();
    const waiting = await jobNow(ownerId, jobId);
    expect(waiting).toMatchObject({ status: "waiting_for_cardholder", error: null });
    expect(waitingStep(waiting)).toEqual({
      redirectUrl: expect.stringMatching(/^\/cards\/authenticate\/pi_local/) as string,
      message: null,
    });
    expect(await invoiceCount()).toBe(invoicesBefore);
    const intent = intentOf(waiting);

    await restartAndCrashIn(ownerId, waiting, "create-subscription", intent);
    expect(await invoiceCount()).toBe(invoicesBefore);

    // Back from the bank's page before answering it: the job waits on the same page again.
    expect(await resumeAfterBank(ownerId, jobId, newSubscriptionOrder, intent)).toBe(true);
    await drain();
    expect(intentOf(await jobNow(ownerId, jobId))).toBe(intent);

    await completedAndReturnedTwice(ownerId, jobId, newSubscriptionOrder, intent);
    expect((await jobNow(ownerId, jobId)).status).toBe("succeeded");
    expect(await invoiceCount()).toBe(invoicesBefore + 1);
    expect(await licensesNamed("Northwind Asks Always")).toHaveLength(1);
    expect((await getBilling().retrievePaymentIntent(member.organization.billingCustomerId!, intent)).status).toBe(
      "consumed",
    );
    // A late return starts nothing.
    expect(await resumeAfterBank(ownerId, jobId, newSubscriptionOrder, intent)).toBe(false);
  });

  it("after a failed authentication waits with the reason on a new bank page; 'Choose another card' charges that card once", async () => {
    const { member, customerId, key } = await orderWith("Northwind Abandoned", "4000 0000 0000 3220");
    const ownerId = member.organization.id;
    const invoicesBefore = await invoiceCount();
    const jobId = await placed(member, key);
    await drain();
    const failed = intentOf(await jobNow(ownerId, jobId));
    await answerSetup(db, failed, "fail");
    expect(await resumeAfterBank(ownerId, jobId, newSubscriptionOrder, failed)).toBe(true);
    await drain();
    const again = await jobNow(ownerId, jobId);
    expect(waitingStep(again)?.message).toBe(CARD_MESSAGES.authenticationFailed);
    const second = intentOf(again);
    expect(second).not.toBe(failed);
    // The failed intent's return, replayed, starts nothing; the second is abandoned.
    expect(await resumeAfterBank(ownerId, jobId, newSubscriptionOrder, failed)).toBe(false);
    const other = await savedCard(customerId, "4242 4242 4242 4242");
    const chosen = await Promise.all([
      chooseAnotherCard(ownerId, jobId, newSubscriptionOrder, other, second),
      chooseAnotherCard(ownerId, jobId, newSubscriptionOrder, other, second),
    ]);
    expect(chosen.filter(Boolean)).toHaveLength(1);
    await Promise.all([drain(), drain()]);
    expect((await jobNow(ownerId, jobId)).status).toBe("succeeded");
    const invoices = await db.select().from(billingInvoices).where(eq(billingInvoices.customerId, customerId));
    expect(await invoiceCount()).toBe(invoicesBefore + 1);
    expect(invoices.at(-1)?.paymentSourceId).toBe(other);
  });

  it("lets one of two 'Choose another card' posted at once with different cards win, also after the job waits again", async () => {
    const { member, customerId, key } = await orderWith("Northwind Two Tabs", "4000 0027 6000 3184");
    const ownerId = member.organization.id;
    const invoicesBefore = await invoiceCount();
    const jobId = await placed(member, key);
    await drain();
    const shown = intentOf(await jobNow(ownerId, jobId));
    // Two tabs showing the same waiting page choose two cards whose banks ask too.
    const cards = [
      await savedCard(customerId, "4000 0000 0000 3220"),
      await savedCard(customerId, "4000 0027 6000 3184"),
    ];
    const chosen = await Promise.all(
      cards.map((card) => chooseAnotherCard(ownerId, jobId, newSubscriptionOrder, card, shown)),
    );
    expect(chosen.filter(Boolean)).toHaveLength(1);
    const winner = cards[chosen.indexOf(true)];
    const loser = cards[chosen.indexOf(false)];
    await drain();
    // The job waits on the winner's card, and the losing tab's choice, posted again, starts nothing.
    const waiting = await jobNow(ownerId, jobId);
    const next = intentOf(waiting);
    expect(next).not.toBe(shown);
    expect(waiting.input).toMatchObject({ otherCard: winner, paymentIntentId: next });
    expect((await getBilling().retrievePaymentIntent(customerId, next)).paymentSourceId).toBe(winner);
    expect(await chooseAnotherCard(ownerId, jobId, newSubscriptionOrder, loser, shown)).toBe(false);
    expect((await jobNow(ownerId, jobId)).input).toMatchObject({ otherCard: winner, paymentIntentId: next });

    await completedAndReturnedTwice(ownerId, jobId, newSubscriptionOrder, next);
    expect((await jobNow(ownerId, jobId)).status).toBe("succeeded");
    expect(await invoiceCount()).toBe(invoicesBefore + 1);
    const invoices = await db.select().from(billingInvoices).where(eq(billingInvoices.customerId, customerId));
    expect(invoices.at(-1)?.paymentSourceId).toBe(winner);
  });

  it("starts nothing when a 'Choose another card' read the job before it ran again and wrote after", async () => {
    const { member, customerId, key } = await orderWith("Northwind Late Write", "4000 0027 6000 3184");
    const ownerId = member.organization.id;
    const jobId = await placed(member, key);
    await drain();
    const before = await jobNow(ownerId, jobId);
    const [first, second] = [
      await savedCard(customerId, "4000 0000 0000 3220"),
      await savedCard(customerId, "4242 4242 4242 4242"),
    ];
    expect(await chooseAnotherCard(ownerId, jobId, newSubscriptionOrder, first, intentOf(before))).toBe(true);
    await drain();
    // The second choice's read was of the job as it was before: the job has run and waits again since.
    expect(await resumeWaitingJob(ownerId, before, { ...before.input, otherCard: second })).toBe(false);
    expect(await jobNow(ownerId, jobId)).toMatchObject({
      status: "waiting_for_cardholder",
      input: { otherCard: first },
    });
  });

  it("charges a card whose bank asked only when it was saved (3155) without asking again", async () => {
    const { member, key } = await orderWith("Northwind Asked Once", "4000 0025 0000 3155");
    const jobId = await placed(member, key);
    await drain();
    expect((await jobNow(member.organization.id, jobId)).status).toBe("succeeded");
  });

  it.each([
    ["4000 0084 0000 1629", CARD_MESSAGES.declined],
    ["4000 0082 6000 3178", CARD_MESSAGES.insufficientFunds],
  ])("lets %s authenticate, then the charge is declined, charging nothing", async (number, message) => {
    const { member, key } = await orderWith(`Northwind ${number}`, number);
    const ownerId = member.organization.id;
    const invoicesBefore = await invoiceCount();
    const jobId = await placed(member, key);
    await drain();
    const intent = intentOf(await jobNow(ownerId, jobId));
    await answerSetup(db, intent, "complete");
    await resumeAfterBank(ownerId, jobId, newSubscriptionOrder, intent);
    await drain();
    expect(await jobNow(ownerId, jobId)).toMatchObject({ status: "failed", error: { message } });
    expect(await invoiceCount()).toBe(invoicesBefore);
  });

  it("is refused by the engine without an authorized payment intent, and an intent pays one charge only", async () => {
    const { customerId, paymentSourceId } = await orderWith("Northwind Engine", "4000 0027 6000 3184");
    const request = {
      customerId,
      paymentSourceId,
      planId: "core-monthly",
      planQuantity: 2,
      addons: [],
      couponIds: [],
      licenseAssignment: "test",
    };
    await expect(getBilling().createSubscription(request, randomUUID())).rejects.toMatchObject({
      code: AUTHENTICATION_REQUIRED,
    });
    const { amountDue: amount } = await getBilling().estimateNewSubscription(request);
    const intent = await getBilling().createPaymentIntent(
      { customerId, paymentSourceId, amount, returnUrl: "/store/orders/x" },
      randomUUID(),
    );
    expect(intent).toMatchObject({ status: "requires_action", amount, paymentSourceId });
    const paid = { ...request, paymentIntentId: intent.id };
    await expect(getBilling().createSubscription(paid, randomUUID())).rejects.toMatchObject({
      code: "payment_intent_invalid",
    });
    await answerSetup(db, intent.id, "complete");
    await getBilling().createSubscription(paid, randomUUID());
    await expect(getBilling().createSubscription(paid, randomUUID())).rejects.toMatchObject({
      code: "payment_intent_invalid",
    });
  });
});

describe("a license update's charge the card's bank asks about", () => {
  const SUBSCRIPTION = "sub_demo_core_monthly";

  it("waits for the cardholder across a restart, and the return charges the change once on two instances", async () => {
    const member = await customer();
    const ownerId = member.organization.id;
    const customerId = member.organization.billingCustomerId!;
    const paymentSourceId = await savedCard(customerId, "4000 0027 6000 3184");
    const wizard = licenseUpdateWizard(SUBSCRIPTION);
    await wizard.save(member, licenseUpdateDraft(paymentSourceId));
    const review = await updateReview(member, SUBSCRIPTION);
    expect(review.problems).toEqual([]);
    const submitted = await submitUpdate(member, SUBSCRIPTION, review.orderKey!);
    if (!("jobId" in submitted)) throw new Error(`expected an update, got ${JSON.stringify(submitted)}`);
    const { jobId } = submitted;
    const subscriptionInvoices = () =>
      db.select().from(billingInvoices).where(eq(billingInvoices.subscriptionId, SUBSCRIPTION));
    const before = (await subscriptionInvoices()).length;
    await drain();
    await drain();
    const intent = intentOf(await jobNow(ownerId, jobId));
    expect(waitingStep(await jobNow(ownerId, jobId))?.redirectUrl).toMatch(/^\/cards\/authenticate\/pi_local/);
    expect(await subscriptionInvoices()).toHaveLength(before);
    const [unchanged] = await db.select().from(billingSubscriptions).where(eq(billingSubscriptions.id, SUBSCRIPTION));
    expect(unchanged.planQuantity).toBe(10);

    await completedAndReturnedTwice(ownerId, jobId, licenseUpdate, intent);
    expect((await jobNow(ownerId, jobId)).status).toBe("succeeded");
    expect(await subscriptionInvoices()).toHaveLength(before + 1);
    const [updated] = await db.select().from(billingSubscriptions).where(eq(billingSubscriptions.id, SUBSCRIPTION));
    expect(updated.planQuantity).toBe(15);
  });
});

describe("Pay now's charge the card's bank asks about", () => {
  it("waits for the cardholder, and the return collects the invoice once on two instances", async () => {
    const member = await customer();
    const ownerId = member.organization.id;
    const customerId = member.organization.billingCustomerId!;
    const paymentSourceId = await savedCard(customerId, "4000 0027 6000 3184");
    // A renewal left unpaid, as a declined renewal leaves it.
    const [invoice] = await db.select().from(billingInvoices).where(eq(billingInvoices.customerId, customerId));
    await db
      .update(billingInvoices)
      .set({ status: "payment_due", amountPaid: 0, amountDue: invoice.total, paidAt: null })
      .where(eq(billingInvoices.id, invoice.id));
    const job = await enqueueJob(payNow, {
      ownerId,
      idempotencyKey: `pay-now-sca-${invoice.id}`,
      input: { customerId, invoiceId: invoice.id, paymentSourceId, amount: invoice.total },
    });
    await drain();
    await drain();
    const intent = intentOf(await jobNow(ownerId, job.id));
    const due = async () => (await db.select().from(billingInvoices).where(eq(billingInvoices.id, invoice.id)))[0];
    expect((await due()).status).toBe("payment_due");

    await completedAndReturnedTwice(ownerId, job.id, payNow, intent);
    expect((await jobNow(ownerId, job.id)).status).toBe("succeeded");
    expect(await due()).toMatchObject({
      status: "paid",
      amountPaid: invoice.total,
      paymentAttempts: invoice.paymentAttempts + 1,
    });
  });
});

describe("a trial's hardware charge the card's bank asks about", () => {
  it("waits for the cardholder with nothing charged, across a restart, and the return charges once on two instances", async () => {
    const member = await customer();
    const ownerId = member.organization.id;
    const customerId = member.organization.billingCustomerId!;
    const paymentSourceId = await savedCard(customerId, "4000 0027 6000 3184");
    const wizard = TRIAL_WIZARDS.onpremise;
    await wizard.save(member, trialDraft("onpremise", paymentSourceId));
    const { key } = await trialOrder(member, "onpremise", await wizard.read(member));
    const placement = await buildTrial(member, "onpremise", key!);
    if (!("placed" in placement)) throw new Error(`not placed: ${JSON.stringify(placement)}`);
    const jobId = placement.placed.id;
    const hardwareInvoices = () =>
      db
        .select()
        .from(billingInvoices)
        .where(and(eq(billingInvoices.customerId, customerId), isNull(billingInvoices.subscriptionId)));
    const before = (await hardwareInvoices()).length;
    await drain();
    const waiting = await jobNow(ownerId, jobId);
    expect(waiting).toMatchObject({ status: "waiting_for_cardholder", error: null });
    expect(waitingStep(waiting)?.redirectUrl).toMatch(/^\/cards\/authenticate\/pi_local/);
    // The trial's license is made; its hardware is not charged.
    expect(trialOutcome(waiting).licenseId).not.toBeNull();
    expect(await hardwareInvoices()).toHaveLength(before);
    const intent = intentOf(waiting);

    await restartAndCrashIn(ownerId, waiting, "purchase-hardware", intent);
    expect(await hardwareInvoices()).toHaveLength(before);

    await completedAndReturnedTwice(ownerId, jobId, TRIAL_KINDS, intent);
    const done = await jobNow(ownerId, jobId);
    expect(done.status).toBe("succeeded");
    const invoices = await hardwareInvoices();
    expect(invoices).toHaveLength(before + 1);
    expect(trialOutcome(done).hardware).toEqual({ status: "invoiced", invoiceId: invoices.at(-1)?.id });
    expect(invoices.at(-1)).toMatchObject({ status: "paid", paymentSourceId });
    expect((await getBilling().retrievePaymentIntent(customerId, intent)).status).toBe("consumed");
    expect(await resumeAfterBank(ownerId, jobId, TRIAL_KINDS, intent)).toBe(false);
  });
});

// Last in the file: the time machine moves the engine's clock for good.
describe("a payment intent the cardholder comes back to after its hour", () => {
  it("has expired by the portal's clock: the job waits on a new bank page, which charges once", async () => {
    const { member, customerId, paymentSourceId, key } = await orderWith(
      "Northwind Came Back Later",
      "4000002760003184",
    );
    const ownerId = member.organization.id;
    const jobId = await placed(member, key);
    await drain();
    const first = intentOf(await jobNow(ownerId, jobId));
    // Authorized, but not charged within its hour (the portal's clock moved by the time machine).
    await answerSetup(db, first, "complete");
    expect((await getBilling().retrievePaymentIntent(customerId, first)).status).toBe("authorized");
    await getBillingClock()!.advance(1);
    const invoicesBefore = await invoiceCount();
    expect(await getBilling().retrievePaymentIntent(customerId, first)).toMatchObject({
      status: "expired",
      failure: expect.stringContaining("expired") as string,
    });
    // A charge naming it is refused, charging nothing.
    const request = {
      customerId,
      paymentSourceId,
      planId: "core-monthly",
      planQuantity: 10,
      addons: [],
      couponIds: [],
    };
    await expect(
      getBilling().createSubscription({ ...request, licenseAssignment: "test", paymentIntentId: first }, randomUUID()),
    ).rejects.toMatchObject({ code: PAYMENT_INTENT_EXPIRED });
    expect(await invoiceCount()).toBe(invoicesBefore);

    expect(await resumeAfterBank(ownerId, jobId, newSubscriptionOrder, first)).toBe(true);
    await drain();
    const again = await jobNow(ownerId, jobId);
    const second = intentOf(again);
    expect(second).not.toBe(first);
    expect(waitingStep(again)?.message).toMatch(/expired/);
    // The new intent's key names the expired one: a rerun of the step makes the same.
    await restartAndCrashIn(ownerId, again, "create-subscription", second);
    expect(await invoiceCount()).toBe(invoicesBefore);

    await completedAndReturnedTwice(ownerId, jobId, newSubscriptionOrder, second);
    expect((await jobNow(ownerId, jobId)).status).toBe("succeeded");
    expect(await invoiceCount()).toBe(invoicesBefore + 1);
    expect(await licensesNamed("Northwind Came Back Later")).toHaveLength(1);
    expect((await getBilling().retrievePaymentIntent(customerId, second)).status).toBe("consumed");
    expect((await getBilling().retrievePaymentIntent(customerId, first)).status).toBe("expired");
  });
});
