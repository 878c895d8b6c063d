import { count, eq } from "drizzle-orm";
import { beforeEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { INSTALLATION_REMOVED, subscriptionDraftSchema, type SubscriptionDraft } from "~/domain/new-subscription";
import { billingFaults, getBilling } from "~/server/billing/index.server";
import { billingInvoices, billingSubscriptions, jobs, licenses } from "~/server/platform/database/tables.server";
import { db } from "~/server/platform/database/db.server";
import { findDraft } from "~/server/platform/wizards/drafts.server";
import { JOB_KINDS } from "~/server/job-kinds.server";
import { PRICE_CHANGED } from "~/server/orders/new-subscription-job.server";
import { enqueueJob, findOwnedJob, JobRunner, retryJob, type JobKind } from "~/server/platform/jobs/runner.server";
import { applyCoupon, removeCoupon } from "~/server/orders/coupons.server";
import { orderReview, purchase } from "~/server/orders/new-subscription-order.server";
import { estimateDraft, OWN_ORDER, subscriptionWizard } from "~/server/orders/new-subscription-wizard.server";
import { subscriptionsOf } from "../support/accounts";
import { memberByEmail } from "../support/members";
import { refuseInserts } from "../support/refused-writes";

const customer = () => memberByEmail("customer@example.com");
const distributor = () => memberByEmail("distributor@example.com");
const drain = () => new JobRunner(JOB_KINDS).drain();

const draft = (changes: Partial<SubscriptionDraft> = {}): SubscriptionDraft => ({
  ...subscriptionDraftSchema.parse({}),
  organization: "Northwind Labs",
  users: 10,
  hardware: { "usb-sensor": 6 },
  support: { "virtual-installation": 1 },
  ...changes,
});

async function thrownResponse(run: () => Promise<unknown>): Promise<Response> {
  try {
    await run();
  } catch (thrown) {
    if (thrown instanceof Response) return thrown;
    throw thrown;
  }
  throw new Error("expected a redirect");
}

async function invoiceCount() {
  const [row] = await db.select({ n: count() }).from(billingInvoices);
  return row?.n ?? 0;
}
const licensesNamed = (name: string) => db.select().from(licenses).where(eq(licenses.name, name));

beforeEach(async () => {
  await billingFaults.clear();
  await subscriptionWizard.clear(await customer());
});

describe("the wizard's steps", () => {
  it("sends a bookmarked later step back to the first step not done, and moves on once a step is saved", async () => {
    const member = await customer();
    expect((await thrownResponse(() => subscriptionWizard.load(member, "review"))).headers.get("Location")).toBe(
      "/store/subscribe/plan",
    );
    const next = await subscriptionWizard.complete(member, "plan", { organization: "Acme", users: 5 });
    expect(next.headers.get("Location")).toBe("/store/subscribe/hosting");
    expect((await subscriptionWizard.load(member, "hosting")).data).toMatchObject({
      organization: "Acme",
      users: 5,
      completed: ["plan"],
    });
    expect((await thrownResponse(() => subscriptionWizard.load(member, "support"))).headers.get("Location")).toBe(
      "/store/subscribe/hosting",
    );
  });

  it("keeps one draft per user that every tab and refresh reads, and a read never writes one", async () => {
    const member = await customer();
    expect(await subscriptionWizard.read(member)).toMatchObject({ id: null, data: { organization: "" } });
    expect(await findDraft(member, "new-subscription")).toBeNull();
    const first = await subscriptionWizard.save(member, { organization: "Tab one" });
    const second = await subscriptionWizard.read(member);
    expect(second.id).toBe(first.id);
    expect(second.data.organization).toBe("Tab one");
    await subscriptionWizard.clear(member);
    expect((await subscriptionWizard.read(member)).data.organization).toBe("");
  });

  it("drops an installation add-on when hosting becomes on-premise, and sends the order back to the support step with a notice", async () => {
    const member = await customer();
    await subscriptionWizard.save(
      member,
      draft({
        hosting: "cloud",
        paymentSourceId: "src_x",
        completed: ["plan", "hosting", "hardware", "support", "review", "billing"],
      }),
    );
    await subscriptionWizard.complete(member, "hosting", { hosting: "on-premise" });
    const { data } = await subscriptionWizard.read(member);
    expect(data.support).toEqual({});
    expect(data.completed).not.toContain("support");
    expect(await subscriptionWizard.layout(member, "/store/subscribe/support")).toMatchObject({
      reachable: ["plan", "hosting", "hardware"],
      notices: [INSTALLATION_REMOVED],
    });
    expect((await thrownResponse(() => subscriptionWizard.load(member, "order"))).headers.get("Location")).toBe(
      "/store/subscribe/support",
    );
    // Saving the support step again reads the notice.
    await subscriptionWizard.complete(member, "support", { support: {} });
    expect((await subscriptionWizard.layout(member, "/store/subscribe/support")).notices).toEqual([]);
  });

  it("refuses on-premise hosting for a license that is for a cloud Hub", async () => {
    const member = await customer();
    await subscriptionWizard.save(
      member,
      draft({ origin: "cloud-hubs", support: {}, completed: ["plan", "hosting", "hardware", "support"] }),
    );
    await subscriptionWizard.save(member, { hosting: "on-premise" });
    expect((await thrownResponse(() => subscriptionWizard.load(member, "review"))).headers.get("Location")).toBe(
      "/store/subscribe/hosting",
    );
  });
});

describe("the order's estimate", () => {
  it("adds plan × users, the cloud Hub, hardware with its shipping, and support (worked from the price list)", async () => {
    const estimate = await estimateDraft((await customer()).organization, draft(), { withCoupon: true });
    // advanced-monthly 10 × $6.00 + cloud Hub $99.00 + 6 USB sensors × $60.00 + shipping 2 boxes × $7.50 + virtual installation $500.00
    expect(estimate.amountDue).toBe(6000 + 9900 + 36000 + 1500 + 50000);
    expect(estimate.lineItems.find((line) => line.entityId === "gatekeeper-shipping")).toMatchObject({
      quantity: 1,
      unitAmount: 1500,
    });
  });

  it("prices a distributor's order with the reseller ids, before the distributor has a billing customer", async () => {
    const member = await distributor();
    const estimate = await estimateDraft(member.organization, draft({ hardware: {}, support: {} }), {
      withCoupon: true,
    });
    expect(estimate.lineItems.map((line) => line.entityId)).toEqual([
      "reseller-advanced-monthly",
      "reseller-gatekeeper-cloud-monthly",
    ]);
    expect(estimate.amountDue).toBe(10 * 450 + 7920);
    expect((await distributor()).organization.billingCustomerId).toBe(member.organization.billingCustomerId);
  });

  it("takes a coupon off the total", async () => {
    const estimate = await estimateDraft((await customer()).organization, draft({ couponId: "WELCOME10" }), {
      withCoupon: true,
    });
    expect(estimate.amountDue).toBe(103400 - 10340);
  });
});

describe("coupons", () => {
  it("say what is wrong, and remove an invalid one", async () => {
    const member = await customer();
    expect(await applyCoupon(member, subscriptionWizard, "  ")).toBe("Please enter a valid coupon code.");
    expect(await applyCoupon(member, subscriptionWizard, "NO-SUCH-CODE")).toBe("Invalid coupon code.");
    expect(await applyCoupon(member, subscriptionWizard, "SPRING2024")).toBe(
      "This coupon has expired or has already been used.",
    );
    expect(await applyCoupon(member, subscriptionWizard, "REF-CUSTOMER")).toBe(
      "This referral coupon cannot be applied to your purchases.",
    );
    expect((await subscriptionWizard.read(member)).data.couponId).toBeNull();
    expect(await applyCoupon(member, subscriptionWizard, "WELCOME10")).toBeNull();
    expect((await subscriptionWizard.read(member)).data.couponId).toBe("WELCOME10");
    expect(await removeCoupon(member, subscriptionWizard)).toBeNull();
    expect(await removeCoupon(member, subscriptionWizard)).toBe("No coupon added.");
  });

  it("lets another customer use someone's referral coupon", async () => {
    expect(await applyCoupon(await distributor(), subscriptionWizard, "REF-CUSTOMER")).toBeNull();
    await subscriptionWizard.clear(await distributor());
  });
});

describe("placing the order", () => {
  /** The customer's draft at the Order step with the Visa on file, and the confirmation's key. */
  async function atOrder(changes: Partial<SubscriptionDraft> = {}) {
    const member = await customer();
    const [card] = await getBilling().listPaymentSources(member.organization.billingCustomerId!);
    await subscriptionWizard.save(
      member,
      draft({
        paymentSourceId: card.id,
        completed: ["plan", "hosting", "hardware", "support", "review", "billing"],
        ...changes,
      }),
    );
    const review = await orderReview(member);
    expect(review.problems).toEqual([]);
    return { member, key: review.orderKey!, review };
  }

  const jobOf = (result: Awaited<ReturnType<typeof purchase>>) => {
    if (!("jobId" in result)) throw new Error(`expected an order, got ${JSON.stringify(result)}`);
    return result.jobId;
  };

  it("creates one subscription, one charge and one license, however often it is submitted", async () => {
    const { member, key } = await atOrder({ organization: "Northwind Double Click" });
    const subscriptionsBefore = await subscriptionsOf(member.organization.billingCustomerId!);
    const first = jobOf(await purchase(member, key));
    expect(jobOf(await purchase(member, key))).toBe(first);
    await drain();
    expect(jobOf(await purchase(member, key))).toBe(first);
    await drain();
    expect((await findOwnedJob(member.organization.id, first))?.status).toBe("succeeded");
    expect(await subscriptionsOf(member.organization.billingCustomerId!)).toBe(subscriptionsBefore + 1);
    const license = await licensesNamed("Northwind Double Click");
    expect(license).toHaveLength(1);
    expect(license[0]).toMatchObject({ nodes: 10, planType: "advanced", type: "recurring", hasCloudSupport: true });
    expect(await findDraft(member, "new-subscription")).toBeNull();
  });

  it("carries the PO number typed on the confirmation to the subscription, its invoice and the license's row", async () => {
    const { member, key } = await atOrder({ organization: "Northwind Purchase Order" });
    jobOf(await purchase(member, key, OWN_ORDER, "PO-4500012345"));
    await drain();
    const [license] = await licensesNamed("Northwind Purchase Order");
    expect(license.poNumber).toBe("PO-4500012345");
    const [subscription] = await db
      .select()
      .from(billingSubscriptions)
      .where(eq(billingSubscriptions.id, license.subscriptionId!));
    expect(subscription.poNumber).toBe("PO-4500012345");
    const invoices = await db
      .select({ poNumber: billingInvoices.poNumber })
      .from(billingInvoices)
      .where(eq(billingInvoices.subscriptionId, license.subscriptionId!));
    expect(invoices).toEqual([{ poNumber: "PO-4500012345" }]);
  });

  it("refuses a confirmation whose order changed since (another tab), with the new total, and charges nothing", async () => {
    const { member, key } = await atOrder({
      organization: "Northwind Two Tabs",
      tier: "core",
      users: 3,
      hardware: {},
      support: {},
    });
    const invoicesBefore = await invoiceCount();
    // Tab B: 500 Ultimate users.
    await subscriptionWizard.save(member, { tier: "ultimate", users: 500 });
    const result = await purchase(member, key);
    expect(result).toEqual({ refused: expect.stringContaining("$4,099.00") as string });
    await drain();
    expect(await invoiceCount()).toBe(invoicesBefore);
  });

  it("shows the provider's own message when the subscription is refused, and Try again charges once with a new key", async () => {
    const { member, key } = await atOrder({ organization: "Northwind Declined" });
    await billingFaults.inject("createSubscription", { message: "Your card was declined.", times: "once" });
    const job = jobOf(await purchase(member, key));
    await drain();
    expect(await findOwnedJob(member.organization.id, job)).toMatchObject({
      status: "failed",
      error: { title: "Failed to create a subscription", message: "Your card was declined." },
    });
    expect(await retryJob(member.organization.id, job)).toBe(true);
    await drain();
    expect((await findOwnedJob(member.organization.id, job))?.status).toBe("succeeded");
    expect(await licensesNamed("Northwind Declined")).toHaveLength(1);
  });

  it("after a failure once charged, finishes the same order and never places a second one", async () => {
    const { member, key } = await atOrder({ organization: "Northwind Full Disk" });
    const subscriptionsBefore = await subscriptionsOf(member.organization.billingCustomerId!);
    const allowInserts = await refuseInserts("full_disk", "licenses", "database or disk is full");
    const job = jobOf(await purchase(member, key));
    await drain();
    expect(await findOwnedJob(member.organization.id, job)).toMatchObject({
      status: "queued",
      steps: { "create-subscription": { status: "done" } },
    });
    // The customer changes the order and purchases again: they are led to the first order.
    await subscriptionWizard.save(member, { users: 11 });
    const again = await orderReview(member);
    expect(jobOf(await purchase(member, again.orderKey!))).toBe(job);
    await allowInserts();
    await db.update(jobs).set({ nextRunAt: new Date() }).where(eq(jobs.id, job));
    await drain();
    expect((await findOwnedJob(member.organization.id, job))?.status).toBe("succeeded");
    expect(await subscriptionsOf(member.organization.billingCustomerId!)).toBe(subscriptionsBefore + 1);
    expect(await licensesNamed("Northwind Full Disk")).toHaveLength(1);
  });

  it("after a timeout that charged, asks the provider before anything else, and finishes with one subscription", async () => {
    const { member, key } = await atOrder({ organization: "Northwind Lost Answer" });
    const subscriptionsBefore = await subscriptionsOf(member.organization.billingCustomerId!);
    await billingFaults.inject("createSubscription", { mode: "lose", times: "always" });
    const job = jobOf(await purchase(member, key));
    await drain();
    expect((await findOwnedJob(member.organization.id, job))?.status).toBe("needs_attention");
    expect(await subscriptionsOf(member.organization.billingCustomerId!)).toBe(subscriptionsBefore + 1);
    await db.update(jobs).set({ nextRunAt: new Date() }).where(eq(jobs.id, job));
    await drain();
    expect((await findOwnedJob(member.organization.id, job))?.status).toBe("succeeded");
    expect(await subscriptionsOf(member.organization.billingCustomerId!)).toBe(subscriptionsBefore + 1);
    expect(await licensesNamed("Northwind Lost Answer")).toHaveLength(1);
  });

  it("refuses in the job, before charging, when the price is not the one confirmed", async () => {
    const { member, key } = await atOrder({ organization: "Northwind Price Change" });
    const invoicesBefore = await invoiceCount();
    const job = jobOf(await purchase(member, key));
    // As if the price list changed between the confirmation and the charge: the confirmed digest no longer matches.
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
    expect(await invoiceCount()).toBe(invoicesBefore);
  });

  it("leaves out a coupon that stopped being valid, saying why", async () => {
    const member = await customer();
    await atOrder({ organization: "Northwind Expired Coupon", couponId: "WELCOME10" });
    await billingFaults.inject("retrieveCoupon", { message: "Coupon WELCOME10 has expired.", times: "always" });
    const review = await orderReview(member);
    expect(review).toMatchObject({ couponId: null, couponError: "Invalid coupon code.", problems: [] });
    expect(review.estimate?.discounts).toEqual([]);
  });
});

describe("the job runner", () => {
  const ranSteps: string[] = [];
  const threeSteps: JobKind<{ note: string }, Record<"first" | "second" | "third", string>> = {
    name: "three-steps",
    input: z.object({ note: z.string() }),
    steps: (["first", "second", "third"] as const).map((name) => ({
      name,
      run: async () => {
        ranSteps.push(name);
        return name.toUpperCase();
      },
    })),
    failure: (step) => ({ step, title: "failed", message: "failed" }),
  };
  const kinds = { [threeSteps.name]: threeSteps };

  it("resumes an interrupted job after its last recorded step, never repeating one", async () => {
    ranSteps.length = 0;
    const job = await enqueueJob(threeSteps, {
      ownerId: (await customer()).organization.id,
      idempotencyKey: "resume-test",
      input: { note: "x" },
    });
    // As a server that died after the first step leaves it: running under a lease that has expired.
    await db
      .update(jobs)
      .set({
        status: "running",
        leaseHolder: "dead-process",
        leaseUntil: new Date(Date.now() - 1000),
        steps: { first: { status: "done", result: "FIRST" } },
      })
      .where(eq(jobs.id, job.id));
    await new JobRunner(kinds).drain();
    expect(ranSteps).toEqual(["second", "third"]);
    expect(await findOwnedJob((await customer()).organization.id, job.id)).toMatchObject({
      status: "succeeded",
      result: { first: "FIRST", second: "SECOND", third: "THIRD" },
    });
  });

  it("lets only one runner hold a job: another waits for the lease, and the first one's writes stop once it is taken over", async () => {
    const job = await enqueueJob(threeSteps, {
      ownerId: (await customer()).organization.id,
      idempotencyKey: "lease-test",
      input: { note: "x" },
    });
    const first = new JobRunner(kinds, 60_000);
    const second = new JobRunner(kinds, 60_000);
    const claimed = await first.claim();
    expect(claimed?.id).toBe(job.id);
    expect(await second.claim()).toBeNull();
    await db
      .update(jobs)
      .set({ leaseUntil: new Date(Date.now() - 1) })
      .where(eq(jobs.id, job.id));
    const taken = await second.claim();
    expect(taken?.leaseHolder).toBe(second.id);
    ranSteps.length = 0;
    await first.execute(claimed!);
    expect(ranSteps).toEqual([]);
    expect((await findOwnedJob((await customer()).organization.id, job.id))?.status).toBe("running");
    await second.execute(taken!);
    expect((await findOwnedJob((await customer()).organization.id, job.id))?.status).toBe("succeeded");
  });

  it("forgets a secret of its input once a step has used it", async () => {
    const used: string[] = [];
    const withSecret: JobKind<{ password?: string }, { use: null }> = {
      name: "uses-a-secret",
      input: z.object({ password: z.string().optional() }),
      steps: [
        {
          name: "use",
          run: async ({ input, forget }) => {
            used.push(input.password ?? "");
            await forget("password");
            return null;
          },
        },
      ],
      failure: (step) => ({ step, title: "failed", message: "failed" }),
    };
    const job = await enqueueJob(withSecret, {
      ownerId: (await customer()).organization.id,
      idempotencyKey: "secret-test",
      input: { password: "sealed-text" },
    });
    await new JobRunner({ [withSecret.name]: withSecret }).drain();
    expect(used).toEqual(["sealed-text"]);
    expect((await findOwnedJob((await customer()).organization.id, job.id))?.input).toEqual({});
  });

  it("shows a job only to its owner", async () => {
    const job = await enqueueJob(threeSteps, {
      ownerId: (await customer()).organization.id,
      idempotencyKey: "owner-test",
      input: { note: "x" },
    });
    expect(await findOwnedJob((await distributor()).organization.id, job.id)).toBeNull();
  });
});
