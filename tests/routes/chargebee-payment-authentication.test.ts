import { randomUUID } from "node:crypto";
import { and, eq, isNull } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { action, loader } from "~/routes/_portal.payments.authenticate.$intentId";
import { createChargebeeBilling } from "~/server/billing/chargebee/adapter.server";
import type * as BillingModule from "~/server/billing/index.server";
import type { BillingProvider } from "~/server/billing/port.server";
import { getCards } from "~/server/cards/index.server";
import { JOB_KINDS } from "~/server/job-kinds.server";
import { db } from "~/server/platform/database/db.server";
import { billingInvoices } from "~/server/platform/database/tables.server";
import { enqueueJob, findOwnedJob, JobRunner, waitingStep } from "~/server/platform/jobs/runner.server";
import { onPremiseTrial } from "~/server/trials/trial-job.server";
import { quoteTrialHardware } from "~/server/trials/trials.server";
import {
  FAKE_API_KEY,
  FAKE_GATEWAY_ACCOUNT_ID,
  FAKE_SITE,
  startChargebeeFake,
  type ChargebeeFake,
} from "../fakes/chargebee";
import { authenticatedTokenOf } from "../support/card-tokens";
import { trialChoices } from "../support/drafts";
import { createAccount, memberByEmail } from "../support/members";
import { formRequest, getRequest, respond } from "../support/requests";
import { demoCookie, freshSession } from "../support/sign-in";

/**
 * The page where the cardholder authenticates a Chargebee payment intent, called as Remix calls it, through the
 * Chargebee adapter and the fake of Chargebee's API: `answerPaymentIntent` stands in for the bank's challenge that
 * Chargebee.js opens in the browser.
 */
let billing: BillingProvider;
vi.mock("~/server/billing/index.server", async (importOriginal) => ({
  ...(await importOriginal<typeof BillingModule>()),
  getBilling: () => billing,
  chargebeeJsSettings: () => ({ site: "gatekeeper-test", publishableKey: "test_publishable" }),
}));

/** A distributor: it may start any number of trials, so each test starts one of its own. */
const PAYER = "distributor@example.com";
/** The policy scripts/server.mjs gives a page that takes no card (as on the branch that names Stripe's hosts there). */
const SERVER_POLICY = "default-src 'self'; script-src 'self' 'nonce-abc'; connect-src 'self'; frame-src 'none'";

let fake: ChargebeeFake;
let askingCard: string;
let viewerCookie: string;

beforeAll(async () => {
  fake = await startChargebeeFake({ store: db, now: () => new Date() });
  billing = createChargebeeBilling({
    site: FAKE_SITE,
    apiKey: FAKE_API_KEY,
    gatewayAccountId: FAKE_GATEWAY_ACCOUNT_ID,
    endpoint: { protocol: "http", hostSuffix: "", port: fake.port },
  });
  const member = await memberByEmail(PAYER);
  const form = new FormData();
  form.set("card_number", "4000002760003184");
  form.set("card_expiry", "12 / 34");
  form.set("card_cvc", "123");
  const holder = { firstName: "Ada", lastName: "Lovelace" };
  const tmpToken = await authenticatedTokenOf(getCards(), form, holder, randomUUID());
  const customerId = member.organization.billingCustomerId!;
  askingCard = (
    await billing.createPaymentSourceFromTempToken({ customerId, setAsPrimary: false, tmpToken }, randomUUID())
  ).id;
  const viewer = `viewer-${randomUUID().slice(0, 8)}@example.com`;
  await createAccount(viewer, member.user.passwordHash, { role: "viewer", organizationId: member.organization.id });
  viewerCookie = await freshSession(viewer);
});
afterAll(async () => {
  await fake.close();
  expect(fake.refusals).toEqual([]);
});

const drain = () => new JobRunner(JOB_KINDS).drain();

/** A trial whose hardware is charged to the card whose bank asks, run until it waits for the cardholder. */
async function waitingTrial() {
  const member = await memberByEmail(PAYER);
  const choices = trialChoices();
  const quote = await quoteTrialHardware(member.organization, { tokens: choices.tokens, sensors: choices.sensors });
  const digest = "e".repeat(43);
  const job = await enqueueJob(onPremiseTrial, {
    ownerId: member.organization.id,
    idempotencyKey: `onpremise-trial:${randomUUID()}:${digest}`,
    input: {
      draftId: randomUUID(),
      digest,
      ...choices,
      paymentSourceId: askingCard,
      hardwareCents: quote.total,
      startedBy: member.user.id,
    },
  });
  await drain();
  const waiting = (await findOwnedJob(member.organization.id, job.id))!;
  expect(waiting.status).toBe("waiting_for_cardholder");
  const intentId = String(waiting.input.paymentIntentId);
  return { member, jobId: job.id, intentId, path: `/payments/authenticate/${intentId}`, params: { intentId } };
}

async function hardwareInvoices(customerId: string) {
  const rows = await db
    .select({ id: billingInvoices.id })
    .from(billingInvoices)
    .where(and(eq(billingInvoices.customerId, customerId), isNull(billingInvoices.subscriptionId)));
  return rows.length;
}

const open = async (path: string, params: Record<string, string>, cookie: string) =>
  respond(() =>
    loader({ request: getRequest(path, cookie), params, context: { contentSecurityPolicy: SERVER_POLICY } }),
  );

const post = async (path: string, params: Record<string, string>, jobId: string) =>
  respond(async () =>
    action({
      request: await formRequest(path, { job: jobId }, { cookie: await demoCookie(PAYER) }),
      params,
      context: {},
    }),
  );

describe("the page where the cardholder authenticates a Chargebee payment intent", () => {
  it("hands Chargebee.js the intent under a policy naming Chargebee's hosts, to the organization's payers only", async () => {
    const trial = await waitingTrial();
    const page = await open(trial.path, trial.params, await demoCookie(PAYER));
    expect(page.status).toBe(200);
    const data = (await page.json()) as { jobId: string; progressUrl: string; chargebee: { intent: { id: string } } };
    expect(data).toMatchObject({
      jobId: trial.jobId,
      progressUrl: `/trial/runs/${trial.jobId}`,
      chargebee: { site: "gatekeeper-test", publishableKey: "test_publishable", intent: { id: trial.intentId } },
    });
    expect(data.chargebee.intent).toMatchObject({ status: "inited", amount: expect.any(Number) as number });
    expect(page.headers.get("Content-Security-Policy")).toBe(
      "default-src 'self'; script-src 'self' 'nonce-abc' https://js.chargebee.com; " +
        "connect-src 'self' https://gatekeeper-test.chargebee.com; " +
        "frame-src https://js.chargebee.com https://gatekeeper-test.chargebee.com",
    );

    // Another organization's member does not find it; a Viewer is told why not.
    expect((await open(trial.path, trial.params, await demoCookie("customer@example.com"))).status).toBe(404);
    const refused = await open(trial.path, trial.params, viewerCookie);
    expect(refused.status).toBe(403);
    expect(((await refused.json()) as { message: string }).message).toMatch(/is Viewer, which cannot start trials\./);
    // Nor does an intent no job of the organization waits on.
    const unknown = { intentId: "pi_unknown" };
    expect((await open("/payments/authenticate/pi_unknown", unknown, await demoCookie(PAYER))).status).toBe(404);
  });

  it("after the bank's yes, starts the same job once, which charges once however often the page posts", async () => {
    const trial = await waitingTrial();
    const customerId = trial.member.organization.billingCustomerId!;
    const before = await hardwareInvoices(customerId);
    // Posted before the bank answered (the challenge closed): nothing starts, and the page says so.
    const early = await post(trial.path, trial.params, trial.jobId);
    expect(early.status).toBe(409);

    await fake.answerPaymentIntent(trial.intentId, "complete");
    const answers = await Promise.all([
      post(trial.path, trial.params, trial.jobId),
      post(trial.path, trial.params, trial.jobId),
    ]);
    for (const answer of answers) expect(answer.headers.get("Location")).toBe(`/trial/runs/${trial.jobId}`);
    await Promise.all([drain(), drain()]);
    expect((await findOwnedJob(trial.member.organization.id, trial.jobId))?.status).toBe("succeeded");
    expect(await hardwareInvoices(customerId)).toBe(before + 1);

    await post(trial.path, trial.params, trial.jobId);
    await drain();
    expect(await hardwareInvoices(customerId)).toBe(before + 1);
  });

  it("after the bank's no, the job waits again on a new intent and its page says why", async () => {
    const trial = await waitingTrial();
    const customerId = trial.member.organization.billingCustomerId!;
    const before = await hardwareInvoices(customerId);
    await fake.answerPaymentIntent(trial.intentId, "fail");
    const answer = await post(trial.path, trial.params, trial.jobId);
    expect(answer.headers.get("Location")).toBe(`/trial/runs/${trial.jobId}`);
    await drain();
    const job = (await findOwnedJob(trial.member.organization.id, trial.jobId))!;
    expect(job.status).toBe("waiting_for_cardholder");
    expect(job.input.paymentIntentId).not.toBe(trial.intentId);
    expect(waitingStep(job)).toMatchObject({
      redirectUrl: `/payments/authenticate/${String(job.input.paymentIntentId)}`,
      message: expect.stringMatching(/\S/) as string,
    });
    expect(await hardwareInvoices(customerId)).toBe(before);
    // The failed intent's page is gone: the job no longer waits on it.
    expect((await open(trial.path, trial.params, await demoCookie(PAYER))).status).toBe(404);
  });
});
