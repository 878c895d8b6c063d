import { and, eq, isNull } from "drizzle-orm";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { action as orderAction } from "~/routes/_portal.trial.$hubType.order";
import { trialDraft, TRIAL_ADDRESS } from "../support/drafts";
import { runJobs } from "../support/jobs";
import { formRequest, respond } from "../support/requests";
import { demoCookie } from "../support/sign-in";
import { TRIAL_FAILURES } from "~/domain/trial-wizard";
import { billingFaults, getBilling } from "~/server/billing/index.server";
import {
  billingInvoices,
  hubInstallations,
  hubLicenses,
  jobs,
  licenses,
  trials,
} from "~/server/platform/database/tables.server";
import { db } from "~/server/platform/database/db.server";
import { findDraft } from "~/server/platform/wizards/drafts.server";
import { hubFaults } from "~/server/hubs/index.server";
import { verifyLicenseFile } from "~/server/hubs/license-files.server";
import { retryWhenOpen, secondsUntilRetry } from "~/server/cloud-hubs/hub-provisioning.server";
import { TRIAL_JOBS, trialOutcome } from "~/server/trials/trial-job.server";
import * as runner from "~/server/platform/jobs/runner.server";
import { findOwnedJob, retryJob } from "~/server/platform/jobs/runner.server";
import { mayStartTrial } from "~/server/trials/trials.server";
import { invoicePage } from "~/server/subscriptions/invoices.server";
import { saveInvoiceCopy } from "~/server/subscriptions/copies.server";
import { memberByEmail, type TestMember } from "../support/members";
import { buildTrial, TRIAL_WIZARDS, trialOrder } from "~/server/trials/trial-wizard.server";
import { sealSecret } from "~/server/platform/wizards/sealed.server";

const customer = () => memberByEmail("customer@example.com");
const distributor = () => memberByEmail("distributor@example.com");

/** A trial wizard filled in as a customer would, then 'Build My Trial': the placement. */
async function confirmTrial(
  member: TestMember,
  hubType: "cloud" | "onpremise",
  hardware: { tokens: number; sensors: number },
) {
  const wizard = TRIAL_WIZARDS[hubType];
  const sealed = hubType === "cloud" ? { sealedPassword: sealSecret("Secret123") } : {};
  const paymentSourceId = hardware.tokens + hardware.sensors > 0 ? "src_demo_visa" : null;
  await wizard.save(member, trialDraft(hubType, paymentSourceId, { ...hardware, ...sealed }));
  const { key } = await trialOrder(member, hubType, await wizard.read(member));
  expect(key).not.toBeNull();
  return { key: key!, placement: await buildTrial(member, hubType, key!) };
}

const placedId = (placement: Awaited<ReturnType<typeof buildTrial>>) => {
  if (!("placed" in placement)) throw new Error(`not placed: ${JSON.stringify(placement)}`);
  return placement.placed.id;
};

const invoicesOf = (member: TestMember) =>
  db
    .select()
    .from(billingInvoices)
    .where(
      and(
        eq(billingInvoices.customerId, member.organization.billingCustomerId!),
        isNull(billingInvoices.subscriptionId),
      ),
    );

const trialsOf = (member: TestMember) => db.select().from(trials).where(eq(trials.ownerId, member.organization.id));

beforeEach(async () => {
  await billingFaults.clear();
  await hubFaults.clear();
  await db.delete(jobs);
  await db.delete(trials);
  await db.delete(hubLicenses);
  await db.delete(licenses).where(eq(licenses.type, "trial"));
  await db.delete(billingInvoices).where(isNull(billingInvoices.subscriptionId));
  for (const member of [await customer(), await distributor()])
    for (const wizard of Object.values(TRIAL_WIZARDS)) await wizard.clear(member);
});

describe("building an on-premise trial", () => {
  it("makes a signed trial license, one invoice for the tokens and a box of shipping, the record, and clears the draft", async () => {
    const member = await customer();
    const { placement } = await confirmTrial(member, "onpremise", { tokens: 3, sensors: 0 });
    await runJobs();
    const job = (await findOwnedJob(member.organization.id, placedId(placement)))!;
    expect(job).toMatchObject({ status: "succeeded", error: null });

    const { licenseId, hardware } = trialOutcome(job);
    const [license] = await db.select().from(licenses).where(eq(licenses.id, licenseId!));
    expect(license).toMatchObject({
      ownerId: member.organization.id,
      type: "trial",
      planType: "ultimate",
      nodes: 5,
      hasCloudSupport: false,
    });
    expect(verifyLicenseFile(license.licenseCode)).toMatchObject({ type: "trial", plan: "ultimate", users: 5 });
    expect(license.validTo.getTime() - license.validFrom.getTime()).toBe((1 + 20 + 7) * 24 * 60 * 60 * 1000);

    expect(hardware?.status).toBe("invoiced");
    const [invoice] = await invoicesOf(member);
    expect(invoice.lineItems.map(({ entityId, quantity, amount }) => ({ entityId, quantity, amount }))).toEqual([
      expect.objectContaining({ entityId: "halberd-rechargeable-token", quantity: 3 }),
      { entityId: "gatekeeper-shipping", quantity: 1, amount: 750 },
    ]);
    // The invoices page (the portal's copy, as the provider's event leaves it) says what it was for.
    const account = { ownerId: member.organization.id, customerId: member.organization.billingCustomerId };
    await saveInvoiceCopy(account, await getBilling().retrieveInvoice(account.customerId!, invoice.id));
    const listed = (await invoicePage(account, 1, 10)).invoices.find((row) => row.id === invoice.id);
    expect(listed?.for).toBe("Trial hardware");
    expect(await trialsOf(member)).toEqual([
      expect.objectContaining({
        hubType: "onpremise",
        hubId: null,
        hubUrl: null,
        userName: null,
        licenseId,
        tokens: 3,
        sensors: 0,
        duration: 20,
        address: TRIAL_ADDRESS,
      }),
    ]);
    expect(await findDraft(member, "onpremise-trial")).toBeNull();
    expect(await mayStartTrial(member.organization)).toBe(false);
  });

  it("places one trial however often 'Build My Trial' is posted, and refuses a second one to a regular customer", async () => {
    const member = await customer();
    const { key, placement } = await confirmTrial(member, "onpremise", { tokens: 0, sensors: 0 });
    const id = placedId(placement);
    expect(placedId(await buildTrial(member, "onpremise", key))).toBe(id);
    // A second trial while the first is on its way, and after it.
    expect((await confirmTrial(member, "cloud", { tokens: 0, sensors: 0 })).placement).toEqual({ usedUp: true });
    await runJobs();
    expect(await invoicesOf(member)).toHaveLength(0);
    expect(await trialsOf(member)).toHaveLength(1);
  });

  it("answers 'Build My Trial' posted again with the trial it started, also once that trial has used up the user's trial", async () => {
    const member = await customer();
    const { key, placement } = await confirmTrial(member, "cloud", { tokens: 0, sensors: 0 });
    const id = placedId(placement);
    await runJobs();
    // The trial took the license and cleared the draft: the customer may start no other trial now.
    expect(await mayStartTrial(member.organization)).toBe(false);
    expect(await findDraft(member, "cloud-trial")).toBeNull();
    // The page's form posted again (a double click without JavaScript): the trial's page, not /trial.
    for (const hubType of ["cloud", "onpremise"]) {
      const answer = await respond(async () =>
        orderAction({
          request: await formRequest(
            `/trial/${hubType}/order`,
            { intent: "build", trialKey: key },
            { cookie: await demoCookie("customer@example.com") },
          ),
          params: { hubType },
          context: {},
        }),
      );
      expect(answer.headers.get("Location")).toBe(`/trial/runs/${id}`);
    }
  });

  it("answers two 'Build My Trial' posted at once with one trial", async () => {
    const member = await customer();
    const wizard = TRIAL_WIZARDS.onpremise;
    const { key, placement } = await confirmTrial(member, "onpremise", { tokens: 0, sensors: 0 });
    const [second, third] = await Promise.all([
      buildTrial(member, "onpremise", key),
      buildTrial(member, "onpremise", key),
    ]);
    expect([placedId(second), placedId(third)]).toEqual([placedId(placement), placedId(placement)]);
    await runJobs();
    expect((await wizard.read(member)).id).toBeNull();
    expect(await trialsOf(member)).toHaveLength(1);
  });

  it("answers the second of two posts at once with the trial even when the first built it and cleared the draft in between", async () => {
    const member = await customer();
    const { key, placement } = await confirmTrial(member, "onpremise", { tokens: 0, sensors: 0 });
    await runJobs();
    expect((await TRIAL_WIZARDS.onpremise.read(member)).id).toBeNull();
    // The second post looked for the key before the first post's trial was recorded.
    const lookup = vi.spyOn(runner, "findJobByKey").mockResolvedValueOnce(null);
    try {
      expect(placedId(await buildTrial(member, "onpremise", key))).toBe(placedId(placement));
    } finally {
      lookup.mockRestore();
    }
    expect(await trialsOf(member)).toHaveLength(1);
  });

  it("refuses in the job a second trial that got past the pages (two tabs): no license, nothing charged", async () => {
    const member = await customer();
    await confirmTrial(member, "onpremise", { tokens: 0, sensors: 0 });
    await runJobs();
    // As if the second tab had queued its trial before the first finished.
    const { key } = await confirmTrial(await distributor(), "onpremise", { tokens: 0, sensors: 0 });
    const [queued] = await db.select().from(jobs).where(eq(jobs.idempotencyKey, key));
    const [sneaked] = await db
      .insert(jobs)
      .values({
        ...queued,
        id: "sneaked",
        ownerId: member.organization.id,
        idempotencyKey: "sneaked",
        status: "queued",
        steps: {},
        nextRunAt: new Date(0),
      })
      .returning();
    await runJobs();
    expect(await findOwnedJob(member.organization.id, sneaked.id)).toMatchObject({
      status: "failed",
      error: { title: TRIAL_FAILURES.license.title },
    });
    expect(
      await db
        .select()
        .from(licenses)
        .where(and(eq(licenses.ownerId, member.organization.id), eq(licenses.type, "trial"))),
    ).toHaveLength(1);
  });

  it("goes on after a refused hardware purchase: 'Hardware purchase failed.', no invoice, the trial recorded", async () => {
    const member = await customer();
    await billingFaults.inject("createHardwareInvoice", { message: "Your card was declined.", times: "once" });
    const { placement } = await confirmTrial(member, "onpremise", { tokens: 2, sensors: 1 });
    await runJobs();
    const job = (await findOwnedJob(member.organization.id, placedId(placement)))!;
    expect(job.status).toBe("succeeded");
    expect(trialOutcome(job).hardware).toEqual({ status: "failed" });
    expect(await invoicesOf(member)).toHaveLength(0);
    expect(await trialsOf(member)).toHaveLength(1);
  });

  it("charges once when the invoice's answer is lost: the retry carries the same key", async () => {
    const member = await customer();
    await billingFaults.inject("createHardwareInvoice", { mode: "lose", times: "once" });
    const { placement } = await confirmTrial(member, "onpremise", { tokens: 1, sensors: 0 });
    await runJobs();
    expect((await findOwnedJob(member.organization.id, placedId(placement)))?.status).toBe("succeeded");
    expect(await invoicesOf(member)).toHaveLength(1);
  });
});

describe("building a cloud trial", () => {
  it("gives a distributor as many as they like, each with its Hub and its license uploaded", async () => {
    const member = await distributor();
    const first = await confirmTrial(member, "cloud", { tokens: 0, sensors: 0 });
    await runJobs();
    const second = await confirmTrial(member, "cloud", { tokens: 0, sensors: 0 });
    await runJobs();
    for (const { placement } of [first, second]) {
      const job = (await findOwnedJob(member.organization.id, placedId(placement)))!;
      expect(job).toMatchObject({ status: "succeeded" });
      const { hub, licenseId } = trialOutcome(job);
      expect((await db.select().from(hubInstallations).where(eq(hubInstallations.id, hub!.hubId)))[0]).toMatchObject({
        ownerId: member.organization.id,
        type: "cloud",
      });
      expect((await db.select().from(licenses).where(eq(licenses.id, licenseId!)))[0]).toMatchObject({
        hasCloudSupport: true,
        isUsed: true,
      });
      expect(job.input).not.toHaveProperty("adminPassword");
    }
    expect(await trialsOf(member)).toEqual([
      expect.objectContaining({ hubType: "cloud", userName: "ada-admin" }),
      expect.objectContaining({ hubType: "cloud", userName: "ada-admin" }),
    ]);
    expect(await mayStartTrial(member.organization)).toBe(true);
  });

  it("stops at the Hub's failure screen with nothing charged, and 'Try again' finishes the same trial", async () => {
    const member = await customer();
    await hubFaults.inject("createTenant", { message: "Injected.", times: "once" });
    const { placement } = await confirmTrial(member, "cloud", { tokens: 1, sensors: 0 });
    const id = placedId(placement);
    await runJobs();
    expect(await findOwnedJob(member.organization.id, id)).toMatchObject({
      status: "failed",
      error: { title: "Error Creating Hub" },
    });
    expect((await findOwnedJob(member.organization.id, id))?.error?.message).toContain(
      "Your credit card was not charged.",
    );
    expect(await invoicesOf(member)).toHaveLength(0);
    expect(await retryJob(member.organization.id, id)).toBe(true);
    await runJobs();
    expect(await findOwnedJob(member.organization.id, id)).toMatchObject({ status: "succeeded" });
    expect(await invoicesOf(member)).toHaveLength(1);
    expect(await trialsOf(member)).toHaveLength(1);
  });

  it("offers Try again 30 s after registering the trial's Hub was interrupted, as a deployment does", async () => {
    const member = await distributor();
    await hubFaults.inject("registerTenant", { message: "Injected.", times: "once" });
    const { placement } = await confirmTrial(member, "cloud", { tokens: 0, sensors: 0 });
    const id = placedId(placement);
    await runJobs();
    const kind = TRIAL_JOBS.cloud;
    expect((await findOwnedJob(member.organization.id, id))?.status).toBe("failed");
    expect(secondsUntilRetry((await findOwnedJob(member.organization.id, id))!)).toBeGreaterThan(25);
    await retryWhenOpen(member.organization.id, id, kind);
    expect((await findOwnedJob(member.organization.id, id))?.status).toBe("failed");
    await db
      .update(jobs)
      .set({ updatedAt: new Date(Date.now() - 30_001) })
      .where(eq(jobs.id, id));
    expect(secondsUntilRetry((await findOwnedJob(member.organization.id, id))!)).toBe(0);
    await retryWhenOpen(member.organization.id, id, kind);
    await runJobs();
    expect((await findOwnedJob(member.organization.id, id))?.status).toBe("succeeded");
  });
});
