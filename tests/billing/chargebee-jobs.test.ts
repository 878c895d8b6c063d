import { and, eq, isNull } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createChargebeeBilling } from "~/server/billing/chargebee/adapter.server";
import { injectBillingFault } from "~/server/billing/local/faults.server";
import type * as BillingModule from "~/server/billing/index.server";
import type { BillingProvider } from "~/server/billing/port.server";
import { db } from "~/server/platform/database/db.server";
import { JOB_KINDS } from "~/server/job-kinds.server";
import { enqueueJob, findOwnedJob, JobRunner } from "~/server/platform/jobs/runner.server";
import { onPremiseTrial, trialOutcome } from "~/server/trials/trial-job.server";
import { quoteTrialHardware } from "~/server/trials/trials.server";
import { trialChoices } from "../support/drafts";
import { memberByEmail } from "../support/members";
import { billingInvoices, jobs } from "~/server/platform/database/tables.server";
import {
  FAKE_API_KEY,
  FAKE_GATEWAY_ACCOUNT_ID,
  FAKE_SITE,
  IDEMPOTENCY_WINDOW_MS,
  startChargebeeFake,
  type ChargebeeFake,
} from "../fakes/chargebee";

/**
 * The portal's jobs on the Chargebee adapter, through the fake that refuses what Chargebee refuses: the money
 * steps must hold where Chargebee's own guarantees end (its idempotency keys last 30 minutes).
 */
let billing: BillingProvider;
vi.mock("~/server/billing/index.server", async (importOriginal) => ({
  ...(await importOriginal<typeof BillingModule>()),
  getBilling: () => billing,
}));

let fake: ChargebeeFake;
let chargebeeNow = () => new Date();

beforeAll(async () => {
  fake = await startChargebeeFake({ store: db, now: () => chargebeeNow() });
  billing = createChargebeeBilling({
    site: FAKE_SITE,
    apiKey: FAKE_API_KEY,
    gatewayAccountId: FAKE_GATEWAY_ACCOUNT_ID,
    endpoint: { protocol: "http", hostSuffix: "", port: fake.port },
  });
});
afterAll(() => fake.close());

describe("a trial's hardware invoice on Chargebee", () => {
  it("is found by its key when the job is retried after Chargebee forgot the key: one invoice, no second charge", async () => {
    vi.spyOn(console, "error").mockImplementation(() => undefined);
    vi.spyOn(console, "warn").mockImplementation(() => undefined);
    const member = await memberByEmail("customer@example.com");
    const hardware = { tokens: 3, sensors: 1 };
    const quote = await quoteTrialHardware(member.organization, hardware);
    const job = await enqueueJob(onPremiseTrial, {
      ownerId: member.organization.id,
      idempotencyKey: `onpremise-trial:${crypto.randomUUID()}:${"d".repeat(43)}`,
      input: {
        draftId: crypto.randomUUID(),
        digest: "d".repeat(43),
        ...trialChoices(),
        ...hardware,
        paymentSourceId: "src_demo_visa",
        hardwareCents: quote.total,
        startedBy: member.user.id,
      },
    });
    const runner = new JobRunner(JOB_KINDS);

    // Chargebee invoices and charges, but its answer is lost: the job cannot know, and waits.
    await injectBillingFault(db, "createHardwareInvoice", { mode: "lose", times: "once" });
    await runner.drain();
    expect(await findOwnedJob(member.organization.id, job.id)).toMatchObject({
      status: "needs_attention",
      steps: { "purchase-hardware": { status: "unknown" } },
    });

    // The retry comes after Chargebee's idempotency window.
    const later = Date.now() + IDEMPOTENCY_WINDOW_MS + 60_000;
    chargebeeNow = () => new Date(later);
    await db
      .update(jobs)
      .set({ nextRunAt: new Date(0) })
      .where(eq(jobs.id, job.id));
    await runner.drain();

    const finished = (await findOwnedJob(member.organization.id, job.id))!;
    const hardwareInvoices = await db
      .select()
      .from(billingInvoices)
      .where(
        and(
          eq(billingInvoices.customerId, member.organization.billingCustomerId!),
          isNull(billingInvoices.subscriptionId),
        ),
      );
    expect(hardwareInvoices).toHaveLength(1);
    expect(hardwareInvoices[0].total).toBe(quote.total);
    expect(finished.status).toBe("succeeded");
    expect(trialOutcome(finished).hardware).toEqual({ status: "invoiced", invoiceId: hardwareInvoices[0].id });
    // The job asked what its key made; it never sent the forgotten key again.
    expect(fake.refusals).toEqual([]);
  });
});
