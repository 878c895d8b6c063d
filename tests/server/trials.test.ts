import { and, eq, isNull } from "drizzle-orm";
import { beforeEach, describe, expect, it } from "vitest";
import { action as orderAction } from "~/routes/_portal.trial.$hubType.order";
import { runJobs } from "../support/jobs";
import { formRequest, respond } from "../support/requests";
import { demoCookie } from "../support/sign-in";
import { isoDay, TRIAL_FAILURES } from "~/domain/trial-wizard";
import { billingFaults } from "~/server/billing/index.server";
import { db } from "~/server/db.server";
import { findDraft } from "~/server/drafts.server";
import { hubFaults } from "~/server/hubs/index.server";
import { verifyLicenseFile } from "~/server/license-files.server";
import { retryWhenOpen, secondsUntilRetry } from "~/server/jobs/hub-provisioning.server";
import { TRIAL_JOBS, trialOutcome } from "~/server/jobs/trial.server";
import { findOwnedJob, retryJob } from "~/server/jobs/runner.server";
import { mayStartTrial } from "~/server/trials.server";
import { memberByEmail, type TestMember } from "../support/members";
import { buildTrial, TRIAL_WIZARDS, trialOrder } from "~/server/wizards/trials.server";
import { sealSecret } from "~/server/wizards/sealed.server";
import { billingInvoices, hubInstallations, hubLicenses, jobs, licenses, trials } from "~db/schema";

const customer = () => memberByEmail("customer@example.com");
const distributor = () => memberByEmail("distributor@example.com");

const ADDRESS = {
  name: "Ada Lovelace",
  company: "Northwind",
  street: "1 Main Street",
  city: "Springfield",
  state: "IL",
  zipcode: "62701",
  country: "US",
};

/** A trial wizard filled in as a customer would, then 'Build My Trial': the placement. */
async function confirmTrial(
  member: TestMember,
  hubType: "cloud" | "onpremise",
  hardware: { tokens: number; sensors: number },
) {
  const wizard = TRIAL_WIZARDS[hubType];
  const cloud =
    hubType === "cloud"
      ? {
          subdomain: `trial-${Math.random().toString(36).slice(2, 10)}`,
          administrator: {
            userName: "ada-admin",
            firstName: "Ada",
            lastName: "Lovelace",
            phoneNumber: "",
            email: "ada@example.com",
          },
          sealedPassword: sealSecret("Secret123"),
        }
      : {};
  wizard.save(member, {
    nodes: 5,
    employees: 40,
    startDate: isoDay(new Date()),
    duration: 20,
    ...hardware,
    address: ADDRESS,
    paymentSourceId: hardware.tokens + hardware.sensors > 0 ? "src_demo_visa" : null,
    ...cloud,
    completed:
      hubType === "cloud"
        ? ["welcome", "instance", "admin", "hardware", "address", "payment", "review"]
        : ["welcome", "license", "hardware", "address", "payment", "review"],
  });
  const { key } = await trialOrder(member, hubType, wizard.read(member));
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
    )
    .all();

beforeEach(() => {
  billingFaults.clear();
  hubFaults.clear();
  db.delete(jobs).run();
  db.delete(trials).run();
  db.delete(hubLicenses).run();
  db.delete(licenses).where(eq(licenses.type, "trial")).run();
  db.delete(billingInvoices).where(isNull(billingInvoices.subscriptionId)).run();
  for (const member of [customer(), distributor()])
    for (const wizard of Object.values(TRIAL_WIZARDS)) wizard.clear(member);
});

describe("building an on-premise trial", () => {
  it("makes a signed trial license, one invoice for the tokens and a box of shipping, the record, and clears the draft", async () => {
    const member = customer();
    const { placement } = await confirmTrial(member, "onpremise", { tokens: 3, sensors: 0 });
    await runJobs();
    const job = findOwnedJob(member.organization.id, placedId(placement))!;
    expect(job).toMatchObject({ status: "succeeded", error: null });

    const { licenseId, hardware } = trialOutcome(job);
    const license = db.select().from(licenses).where(eq(licenses.id, licenseId!)).get()!;
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
    const [invoice] = invoicesOf(member);
    expect(invoice.lineItems.map(({ entityId, quantity, amount }) => ({ entityId, quantity, amount }))).toEqual([
      expect.objectContaining({ entityId: "halberd-rechargeable-token", quantity: 3 }),
      { entityId: "gatekeeper-shipping", quantity: 1, amount: 750 },
    ]);
    expect(db.select().from(trials).where(eq(trials.ownerId, member.organization.id)).all()).toEqual([
      expect.objectContaining({
        hubType: "onpremise",
        hubId: null,
        hubUrl: null,
        userName: null,
        licenseId,
        tokens: 3,
        sensors: 0,
        duration: 20,
        address: ADDRESS,
      }),
    ]);
    expect(findDraft(member, "onpremise-trial")).toBeNull();
    expect(mayStartTrial(member.organization)).toBe(false);
  });

  it("places one trial however often 'Build My Trial' is posted, and refuses a second one to a regular customer", async () => {
    const member = customer();
    const { key, placement } = await confirmTrial(member, "onpremise", { tokens: 0, sensors: 0 });
    const id = placedId(placement);
    expect(placedId(await buildTrial(member, "onpremise", key))).toBe(id);
    // A second trial while the first is on its way, and after it.
    expect((await confirmTrial(member, "cloud", { tokens: 0, sensors: 0 })).placement).toEqual({ usedUp: true });
    await runJobs();
    expect(invoicesOf(member)).toHaveLength(0);
    expect(db.select().from(trials).where(eq(trials.ownerId, member.organization.id)).all()).toHaveLength(1);
  });

  it("answers 'Build My Trial' posted again with the trial it started, also once that trial has used up the user's trial", async () => {
    const member = customer();
    const { key, placement } = await confirmTrial(member, "cloud", { tokens: 0, sensors: 0 });
    const id = placedId(placement);
    await runJobs();
    // The trial took the license and cleared the draft: the customer may start no other trial now.
    expect(mayStartTrial(member.organization)).toBe(false);
    expect(findDraft(member, "cloud-trial")).toBeNull();
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
    const member = customer();
    const wizard = TRIAL_WIZARDS.onpremise;
    const { key, placement } = await confirmTrial(member, "onpremise", { tokens: 0, sensors: 0 });
    const [second, third] = await Promise.all([
      buildTrial(member, "onpremise", key),
      buildTrial(member, "onpremise", key),
    ]);
    expect([placedId(second), placedId(third)]).toEqual([placedId(placement), placedId(placement)]);
    await runJobs();
    expect(wizard.read(member).id).toBeNull();
    expect(db.select().from(trials).where(eq(trials.ownerId, member.organization.id)).all()).toHaveLength(1);
  });

  it("refuses in the job a second trial that got past the pages (two tabs): no license, nothing charged", async () => {
    const member = customer();
    await confirmTrial(member, "onpremise", { tokens: 0, sensors: 0 });
    await runJobs();
    // As if the second tab had queued its trial before the first finished.
    const { key } = await confirmTrial(distributor(), "onpremise", { tokens: 0, sensors: 0 });
    const sneaked = db
      .insert(jobs)
      .values({
        ...db.select().from(jobs).where(eq(jobs.idempotencyKey, key)).get()!,
        id: "sneaked",
        ownerId: member.organization.id,
        idempotencyKey: "sneaked",
        status: "queued",
        steps: {},
        nextRunAt: new Date(0),
      })
      .returning()
      .get();
    await runJobs();
    expect(findOwnedJob(member.organization.id, sneaked.id)).toMatchObject({
      status: "failed",
      error: { title: TRIAL_FAILURES.license.title },
    });
    expect(
      db
        .select()
        .from(licenses)
        .where(and(eq(licenses.ownerId, member.organization.id), eq(licenses.type, "trial")))
        .all(),
    ).toHaveLength(1);
  });

  it("goes on after a refused hardware purchase: 'Hardware purchase failed.', no invoice, the trial recorded", async () => {
    const member = customer();
    billingFaults.inject("createHardwareInvoice", { message: "Your card was declined.", times: "once" });
    const { placement } = await confirmTrial(member, "onpremise", { tokens: 2, sensors: 1 });
    await runJobs();
    const job = findOwnedJob(member.organization.id, placedId(placement))!;
    expect(job.status).toBe("succeeded");
    expect(trialOutcome(job).hardware).toEqual({ status: "failed" });
    expect(invoicesOf(member)).toHaveLength(0);
    expect(db.select().from(trials).where(eq(trials.ownerId, member.organization.id)).all()).toHaveLength(1);
  });

  it("charges once when the invoice's answer is lost: the retry carries the same key", async () => {
    const member = customer();
    billingFaults.inject("createHardwareInvoice", { mode: "lose", times: "once" });
    const { placement } = await confirmTrial(member, "onpremise", { tokens: 1, sensors: 0 });
    await runJobs();
    expect(findOwnedJob(member.organization.id, placedId(placement))?.status).toBe("succeeded");
    expect(invoicesOf(member)).toHaveLength(1);
  });
});

describe("building a cloud trial", () => {
  it("gives a distributor as many as they like, each with its Hub and its license uploaded", async () => {
    const member = distributor();
    const first = await confirmTrial(member, "cloud", { tokens: 0, sensors: 0 });
    await runJobs();
    const second = await confirmTrial(member, "cloud", { tokens: 0, sensors: 0 });
    await runJobs();
    for (const { placement } of [first, second]) {
      const job = findOwnedJob(member.organization.id, placedId(placement))!;
      expect(job).toMatchObject({ status: "succeeded" });
      const { hub, licenseId } = trialOutcome(job);
      expect(db.select().from(hubInstallations).where(eq(hubInstallations.id, hub!.hubId)).get()).toMatchObject({
        ownerId: member.organization.id,
        type: "cloud",
      });
      expect(db.select().from(licenses).where(eq(licenses.id, licenseId!)).get()).toMatchObject({
        hasCloudSupport: true,
        isUsed: true,
      });
      expect(job.input).not.toHaveProperty("adminPassword");
    }
    expect(db.select().from(trials).where(eq(trials.ownerId, member.organization.id)).all()).toEqual([
      expect.objectContaining({ hubType: "cloud", userName: "ada-admin" }),
      expect.objectContaining({ hubType: "cloud", userName: "ada-admin" }),
    ]);
    expect(mayStartTrial(member.organization)).toBe(true);
  });

  it("stops at the Hub's failure screen with nothing charged, and 'Try again' finishes the same trial", async () => {
    const member = customer();
    hubFaults.inject("createTenant", { message: "Injected.", times: "once" });
    const { placement } = await confirmTrial(member, "cloud", { tokens: 1, sensors: 0 });
    const id = placedId(placement);
    await runJobs();
    expect(findOwnedJob(member.organization.id, id)).toMatchObject({
      status: "failed",
      error: { title: "Error Creating Hub" },
    });
    expect(findOwnedJob(member.organization.id, id)?.error?.message).toContain("Your credit card was not charged.");
    expect(invoicesOf(member)).toHaveLength(0);
    expect(retryJob(member.organization.id, id)).toBe(true);
    await runJobs();
    expect(findOwnedJob(member.organization.id, id)).toMatchObject({ status: "succeeded" });
    expect(invoicesOf(member)).toHaveLength(1);
    expect(db.select().from(trials).where(eq(trials.ownerId, member.organization.id)).all()).toHaveLength(1);
  });

  it("offers Try again 30 s after registering the trial's Hub was interrupted, as a deployment does", async () => {
    const member = distributor();
    hubFaults.inject("registerTenant", { message: "Injected.", times: "once" });
    const { placement } = await confirmTrial(member, "cloud", { tokens: 0, sensors: 0 });
    const id = placedId(placement);
    await runJobs();
    const kind = TRIAL_JOBS.cloud;
    expect(findOwnedJob(member.organization.id, id)?.status).toBe("failed");
    expect(secondsUntilRetry(findOwnedJob(member.organization.id, id)!)).toBeGreaterThan(25);
    retryWhenOpen(member.organization.id, id, kind);
    expect(findOwnedJob(member.organization.id, id)?.status).toBe("failed");
    db.update(jobs)
      .set({ updatedAt: new Date(Date.now() - 30_001) })
      .where(eq(jobs.id, id))
      .run();
    expect(secondsUntilRetry(findOwnedJob(member.organization.id, id)!)).toBe(0);
    retryWhenOpen(member.organization.id, id, kind);
    await runJobs();
    expect(findOwnedJob(member.organization.id, id)?.status).toBe("succeeded");
  });
});
