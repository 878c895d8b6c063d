// One portal instance of tests/postgres/waiting-for-the-cardholder.test.ts, on the database DATABASE_URL names (its
// start-up, without the job runner: the instance drains the jobs itself). It prints "ready", waits for a line on
// stdin, then does one of:
// - place <organization>: customer@example.com orders a license for <organization> paid with a new 3184 card (its
//   bank asks on every payment), runs the order until it waits, and prints "waiting <owner> <job> <intent>";
// - restart <owner> <job>: as an instance started since, runs what is due and prints "after restart <status>";
// - return <owner> <job> <intent>: takes the bank's return for <intent> as the order's progress page does, prints
//   "resumed true|false", runs what is due and prints "done <status>".
// Usage: DATABASE_URL=postgres://… node --import tsx tests/support/present-payment-process.ts <mode> <arguments…>
import { randomUUID } from "node:crypto";
import { subscriptionDraftSchema } from "~/domain/new-subscription";
import { getBilling } from "~/server/billing/index.server";
import { boot } from "~/server/boot.server";
import { getCards } from "~/server/cards/index.server";
import { JOB_KINDS } from "~/server/job-kinds.server";
import { newSubscriptionOrder } from "~/server/orders/new-subscription-job.server";
import { orderReview, purchase } from "~/server/orders/new-subscription-order.server";
import { subscriptionWizard } from "~/server/orders/new-subscription-wizard.server";
import { resumeAfterBank } from "~/server/orders/present-payments.server";
import { connection } from "~/server/platform/database/connection.server";
import { findOwnedJob, JobRunner } from "~/server/platform/jobs/runner.server";
import { authenticatedTokenOf } from "./card-tokens";
import { memberByEmail } from "./members";

const [mode = "", ...args] = process.argv.slice(2);
await boot({ jobs: false });
const drain = () => new JobRunner(JOB_KINDS).drain();

async function statusOf(ownerId: string, jobId: string) {
  return (await findOwnedJob(ownerId, jobId))?.status ?? "missing";
}

async function place(organization: string) {
  const member = await memberByEmail("customer@example.com");
  const form = new FormData();
  form.set("card_number", "4000 0027 6000 3184");
  form.set("card_expiry", "12 / 34");
  form.set("card_cvc", "123");
  const holder = { firstName: "Ada", lastName: "Lovelace" };
  const tmpToken = await authenticatedTokenOf(getCards(), form, holder, randomUUID());
  const source = await getBilling().createPaymentSourceFromTempToken(
    { customerId: member.organization.billingCustomerId!, setAsPrimary: false, tmpToken },
    randomUUID(),
  );
  await subscriptionWizard.save(member, {
    ...subscriptionDraftSchema.parse({}),
    organization,
    users: 5,
    paymentSourceId: source.id,
    completed: ["plan", "hosting", "hardware", "support", "review", "billing"],
  });
  const placed = await purchase(member, (await orderReview(member)).orderKey!);
  if (!("jobId" in placed)) throw new Error(`Not placed: ${JSON.stringify(placed)}`);
  await drain();
  const job = await findOwnedJob(member.organization.id, placed.jobId);
  console.log(`waiting ${member.organization.id} ${placed.jobId} ${String(job?.input.paymentIntentId)} ${job?.status}`);
}

async function restart(ownerId: string, jobId: string) {
  await drain();
  console.log(`after restart ${await statusOf(ownerId, jobId)}`);
}

async function bankReturn(ownerId: string, jobId: string, intent: string) {
  console.log(`resumed ${await resumeAfterBank(ownerId, jobId, newSubscriptionOrder, intent)}`);
  await drain();
  console.log(`done ${await statusOf(ownerId, jobId)}`);
}

console.log("ready");
await new Promise((resolve) => process.stdin.once("data", resolve));
process.stdin.destroy();
try {
  if (mode === "place") await place(args[0] ?? "");
  else if (mode === "restart") await restart(args[0] ?? "", args[1] ?? "");
  else if (mode === "return") await bankReturn(args[0] ?? "", args[1] ?? "", args[2] ?? "");
  else throw new Error(`No mode ${mode}.`);
} finally {
  await connection.close();
}
