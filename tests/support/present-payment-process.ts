// One portal instance of tests/postgres/waiting-for-the-cardholder.test.ts, on the database DATABASE_URL names (its
// start-up, without the job runner: the instance drains the jobs itself). It prints "ready", then does what each
// line on its stdin says, until its input ends:
// - place <charge…>: places each money-moving job named (order, license-update, pay-now, trial, cloud-trial), each
//   paid with a new 3184 card of its own (its bank asks on every payment), runs them until they wait,
//   and prints "waiting <JSON>" for each: its charge, owner, job, card, payment intent and status;
// - restart <JSON list of those>: as an instance that never ran them, runs what is due and prints
//   "after restart <job> <status>" for each, then "restarted";
// - return <JSON list of those>: takes the bank's return for each job at once, as their progress pages do, prints
//   "resumed <job> true|false" for each, runs what is due and prints "done <job> <status>" for each.
// Usage: DATABASE_URL=postgres://… node --import tsx tests/support/present-payment-process.ts
import { randomUUID } from "node:crypto";
import { createInterface } from "node:readline";
import { and, desc, eq, ne } from "drizzle-orm";
import { subscriptionDraftSchema } from "~/domain/new-subscription";
import type { TrialHubType } from "~/domain/trial-wizard";
import { getBilling } from "~/server/billing/index.server";
import { boot } from "~/server/boot.server";
import { getCards } from "~/server/cards/index.server";
import { JOB_KINDS } from "~/server/job-kinds.server";
import { licenseUpdate } from "~/server/orders/license-update-job.server";
import { licenseUpdateWizard, submitUpdate, updateReview } from "~/server/orders/license-update-wizard.server";
import { newSubscriptionOrder } from "~/server/orders/new-subscription-job.server";
import { orderReview, purchase } from "~/server/orders/new-subscription-order.server";
import { subscriptionWizard } from "~/server/orders/new-subscription-wizard.server";
import { payNow } from "~/server/orders/pay-now-job.server";
import { resumeAfterBank, type PresentPaymentKinds } from "~/server/orders/present-payments.server";
import { connection } from "~/server/platform/database/connection.server";
import { db } from "~/server/platform/database/db.server";
import { billingInvoices } from "~/server/platform/database/tables.server";
import { sealSecret } from "~/server/platform/wizards/sealed.server";
import { enqueueJob, findOwnedJob, JobRunner } from "~/server/platform/jobs/runner.server";
import { TRIAL_KINDS } from "~/server/trials/trial-job.server";
import { buildTrial, TRIAL_WIZARDS, trialOrder } from "~/server/trials/trial-wizard.server";
import { authenticatedTokenOf } from "./card-tokens";
import { licenseUpdateDraft, trialDraft } from "./drafts";
import { memberByEmail, type TestMember } from "./members";

/** The license the license update changes: 10 users of Core, monthly. */
const UPDATED_SUBSCRIPTION = "sub_demo_core_monthly";

/**
 * Each money-moving job: who places it (customer@example.com unless `email` says), how, paid with `card`, and the
 * kinds its progress page follows.
 */
const CHARGES: Record<
  string,
  { kinds: PresentPaymentKinds; email?: string; place(member: TestMember, card: string): Promise<string> }
> = {
  order: {
    kinds: newSubscriptionOrder,
    async place(member, paymentSourceId) {
      await subscriptionWizard.save(member, {
        ...subscriptionDraftSchema.parse({}),
        organization: "Northwind Two Instances",
        users: 5,
        paymentSourceId,
        completed: ["plan", "hosting", "hardware", "support", "review", "billing"],
      });
      return placed(await purchase(member, (await orderReview(member)).orderKey!));
    },
  },
  "license-update": {
    kinds: licenseUpdate,
    async place(member, paymentSourceId) {
      await licenseUpdateWizard(UPDATED_SUBSCRIPTION).save(member, licenseUpdateDraft(paymentSourceId));
      const review = await updateReview(member, UPDATED_SUBSCRIPTION);
      return placed(await submitUpdate(member, UPDATED_SUBSCRIPTION, review.orderKey!));
    },
  },
  "pay-now": {
    kinds: payNow,
    async place(member, paymentSourceId) {
      // Another subscription's renewal than the one the license update changes, left unpaid as a declined renewal
      // leaves it.
      const customerId = member.organization.billingCustomerId!;
      const [invoice] = await db
        .select()
        .from(billingInvoices)
        .where(
          and(eq(billingInvoices.customerId, customerId), ne(billingInvoices.subscriptionId, UPDATED_SUBSCRIPTION)),
        )
        .orderBy(desc(billingInvoices.date))
        .limit(1);
      await db
        .update(billingInvoices)
        .set({ status: "payment_due", amountPaid: 0, amountDue: invoice.total, paidAt: null })
        .where(eq(billingInvoices.id, invoice.id));
      const job = await enqueueJob(payNow, {
        ownerId: member.organization.id,
        idempotencyKey: `pay-now:${invoice.id}:${paymentSourceId}`,
        input: { customerId, invoiceId: invoice.id, paymentSourceId, amount: invoice.total },
      });
      return job.id;
    },
  },
  trial: { kinds: TRIAL_KINDS, place: (member, card) => placeTrial(member, card, "onpremise") },
  // A distributor's: its trials are unlimited, and the customer's organization has had its one.
  "cloud-trial": {
    kinds: TRIAL_KINDS,
    email: "distributor@example.com",
    place: (member, card) => placeTrial(member, card, "cloud"),
  },
};

/** A trial with one token of hardware, paid with `paymentSourceId`, built as 'Build My Trial' does. */
async function placeTrial(member: TestMember, paymentSourceId: string, hubType: TrialHubType) {
  const wizard = TRIAL_WIZARDS[hubType];
  const sealed = hubType === "cloud" ? { sealedPassword: sealSecret("Secret123") } : {};
  await wizard.save(member, trialDraft(hubType, paymentSourceId, sealed));
  const { key } = await trialOrder(member, hubType, await wizard.read(member));
  const placement = await buildTrial(member, hubType, key!);
  if (!("placed" in placement)) throw new Error(`Not placed: ${JSON.stringify(placement)}`);
  return placement.placed.id;
}

/** A job as the "waiting" line prints it, and as the later modes take it back. */
export interface Waiting {
  charge: string;
  ownerId: string;
  jobId: string;
  card: string;
  intent: string;
  status: string;
}

function placed(result: object): string {
  if (!("jobId" in result) || typeof result.jobId !== "string")
    throw new Error(`Not placed: ${JSON.stringify(result)}`);
  return result.jobId;
}

function chargeNamed(name: string) {
  const charge = CHARGES[name];
  if (!charge) throw new Error(`No charge ${name}.`);
  return charge;
}

await boot({ jobs: false });
const drain = () => new JobRunner(JOB_KINDS).drain();

async function statusOf(ownerId: string, jobId: string) {
  return (await findOwnedJob(ownerId, jobId))?.status ?? "missing";
}

async function new3184Card(customerId: string): Promise<string> {
  const form = new FormData();
  form.set("card_number", "4000 0027 6000 3184");
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

async function place(names: string[]) {
  const jobs = [];
  for (const name of names) {
    const charge = chargeNamed(name);
    const member = await memberByEmail(charge.email ?? "customer@example.com");
    const card = await new3184Card(member.organization.billingCustomerId!);
    jobs.push({ charge: name, ownerId: member.organization.id, card, jobId: await charge.place(member, card) });
  }
  await drain();
  for (const job of jobs) {
    const found = await findOwnedJob(job.ownerId, job.jobId);
    const waiting: Waiting = {
      ...job,
      intent: String(found?.input.paymentIntentId),
      status: found?.status ?? "missing",
    };
    console.log(`waiting ${JSON.stringify(waiting)}`);
  }
}

async function restart(jobs: Waiting[]) {
  await drain();
  for (const { ownerId, jobId } of jobs) console.log(`after restart ${jobId} ${await statusOf(ownerId, jobId)}`);
  console.log("restarted");
}

async function bankReturn(jobs: Waiting[]) {
  const resumed = await Promise.all(
    jobs.map(({ charge, ownerId, jobId, intent }) =>
      resumeAfterBank(ownerId, jobId, chargeNamed(charge).kinds, intent),
    ),
  );
  jobs.forEach(({ jobId }, at) => console.log(`resumed ${jobId} ${resumed[at]}`));
  await drain();
  for (const { ownerId, jobId } of jobs) console.log(`done ${jobId} ${await statusOf(ownerId, jobId)}`);
}

console.log("ready");
try {
  for await (const line of createInterface({ input: process.stdin })) {
    const [mode = "", ...words] = line.split(" ");
    const jobs = () => JSON.parse(words.join(" ")) as Waiting[];
    if (mode === "place") await place(words);
    else if (mode === "restart") await restart(jobs());
    else if (mode === "return") await bankReturn(jobs());
    else throw new Error(`No command ${mode}.`);
  }
} finally {
  await connection.close();
}
