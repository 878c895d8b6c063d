import { count, eq } from "drizzle-orm";
import { beforeEach, describe, expect, it } from "vitest";
import { getBilling, billingFaults } from "~/server/billing/index.server";
import { db } from "~/server/db.server";
import { JOB_KINDS } from "~/server/job-kinds.server";
import { drainJobs, findOwnedJob, type JobKinds } from "~/server/jobs.server";
import { enqueueJob } from "~/server/jobs.server";
import { applyCoupon, estimateOrder, placeOrder, removeCoupon, subscriptionWizard } from "~/server/new-subscription.server";
import { findUserByEmail } from "~/server/users.server";
import { billingInvoices, billingSubscriptions, jobs, licenses } from "~db/schema";
import { subscriptionDraftSchema, type SubscriptionDraft } from "~/domain/new-subscription";

const customer = () => findUserByEmail("customer@example.com")!;
const distributor = () => findUserByEmail("distributor@example.com")!;

const draft = (changes: Partial<SubscriptionDraft> = {}): SubscriptionDraft => ({
  ...subscriptionDraftSchema.parse({}),
  organization: "Northwind Labs",
  users: 10,
  hardware: { "usb-sensor": 6 },
  support: { "virtual-installation": 1 },
  ...changes,
});

const thrownResponse = (run: () => unknown): Response => {
  try {
    run();
  } catch (thrown) {
    if (thrown instanceof Response) return thrown;
    throw thrown;
  }
  throw new Error("expected a redirect");
};

const subscriptionsOf = (customerId: string) =>
  db.select({ n: count() }).from(billingSubscriptions).where(eq(billingSubscriptions.customerId, customerId)).get()?.n ?? 0;

beforeEach(() => {
  billingFaults.clear();
  subscriptionWizard.clear(customer().id);
});

describe("the wizard's steps", () => {
  it("sends a bookmarked later step back to the first step not done, and moves on once a step is saved", () => {
    const user = customer();
    expect(thrownResponse(() => subscriptionWizard.load(user.id, "review")).headers.get("Location")).toBe("/store/subscribe/plan");
    const next = subscriptionWizard.complete(user.id, "plan", { organization: "Acme", users: 5 });
    expect(next.headers.get("Location")).toBe("/store/subscribe/hosting");
    expect(subscriptionWizard.load(user.id, "hosting").data).toMatchObject({ organization: "Acme", users: 5, completed: ["plan"] });
    expect(thrownResponse(() => subscriptionWizard.load(user.id, "support")).headers.get("Location")).toBe("/store/subscribe/hosting");
  });

  it("keeps one draft per user that every tab and refresh reads, until the wizard is closed", () => {
    const user = customer();
    const first = subscriptionWizard.save(user.id, { organization: "Tab one" });
    const second = subscriptionWizard.peek(user.id);
    expect(second.id).toBe(first.id);
    expect(second.data.organization).toBe("Tab one");
    subscriptionWizard.clear(user.id);
    expect(subscriptionWizard.peek(user.id).data.organization).toBe("");
  });
});

describe("the order's estimate", () => {
  it("adds plan × users, the cloud Hub, hardware with its shipping, and support (worked from the price list)", async () => {
    const estimate = await estimateOrder(customer(), draft());
    // advanced-monthly 10 × $6.00 + cloud Hub $99.00 + 6 USB sensors × $60.00 + shipping 2 boxes × $7.50 + virtual installation $500.00
    expect(estimate.amountDue).toBe(6000 + 9900 + 36000 + 1500 + 50000);
    expect(estimate.lineItems.find((line) => line.entityId === "gatekeeper-shipping")).toMatchObject({ quantity: 1, unitAmount: 1500 });
  });

  it("prices a distributor's order with the reseller ids", async () => {
    const estimate = await estimateOrder(distributor(), draft({ hardware: {}, support: {} }));
    expect(estimate.lineItems.map((line) => line.entityId)).toEqual(["reseller-advanced-monthly", "reseller-gatekeeper-cloud-monthly"]);
    expect(estimate.amountDue).toBe(10 * 450 + 7920);
  });

  it("takes a coupon off the total", async () => {
    const estimate = await estimateOrder(customer(), draft({ couponId: "WELCOME10" }));
    expect(estimate.amountDue).toBe(103400 - 10340);
  });
});

describe("coupons", () => {
  it("say what is wrong in the spec's words, and remove an invalid one", async () => {
    const user = customer();
    expect(await applyCoupon(user, "  ")).toBe("Please enter a valid coupon code.");
    expect(await applyCoupon(user, "NO-SUCH-CODE")).toBe("Invalid coupon code.");
    expect(await applyCoupon(user, "SPRING2024")).toBe("This coupon has expired or has already been used.");
    expect(await applyCoupon(user, "REF-CUSTOMER")).toBe("This referral coupon cannot be applied to your purchases.");
    expect(subscriptionWizard.peek(user.id).data.couponId).toBeNull();
    expect(await applyCoupon(user, "WELCOME10")).toBeNull();
    expect(subscriptionWizard.peek(user.id).data.couponId).toBe("WELCOME10");
    expect(removeCoupon(user)).toBeNull();
    expect(removeCoupon(user)).toBe("No coupon added.");
  });

  it("lets another customer use someone's referral coupon", async () => {
    expect(await applyCoupon(distributor(), "REF-CUSTOMER")).toBeNull();
  });
});

describe("placing the order", () => {
  async function orderAs(changes: Partial<SubscriptionDraft> = {}) {
    const user = customer();
    const stored = subscriptionWizard.save(user.id, draft(changes));
    const [card] = await getBilling().listPaymentSources(user.billingCustomerId!);
    return { user, stored, card, place: () => placeOrder(user, stored.id, stored.data, card.id, undefined) };
  }

  it("creates one subscription, one charge and one license, however often it is submitted", async () => {
    const { user, place } = await orderAs({ organization: "Northwind Double Click" });
    const subscriptionsBefore = subscriptionsOf(user.billingCustomerId!);
    const first = await place();
    const second = await place();
    expect(second.id).toBe(first.id);
    await drainJobs(JOB_KINDS);
    expect((await place()).id).toBe(first.id);
    await drainJobs(JOB_KINDS);

    expect(findOwnedJob(user.id, first.id)?.status).toBe("succeeded");
    expect(subscriptionsOf(user.billingCustomerId!)).toBe(subscriptionsBefore + 1);
    const license = db.select().from(licenses).where(eq(licenses.name, "Northwind Double Click")).all();
    expect(license).toHaveLength(1);
    expect(license[0]).toMatchObject({ nodes: 10, planType: "advanced", type: "recurring", hasCloudSupport: true });
    expect(subscriptionWizard.peek(user.id).data.organization).toBe("");
  });

  it("shows the provider's message when the subscription is refused, and a new submit is a new attempt", async () => {
    const { user, place } = await orderAs({ organization: "Northwind Declined" });
    billingFaults.inject("createSubscription", { message: "Your card was declined.", times: "once" });
    const failed = await place();
    await drainJobs(JOB_KINDS);
    expect(findOwnedJob(user.id, failed.id)).toMatchObject({
      status: "failed",
      error: { title: "Failed to create a subscription", message: "Error message: Your card was declined." },
    });

    const retried = await placeOrder(user, subscriptionWizard.peek(user.id).id, subscriptionWizard.peek(user.id).data, (await getBilling().listPaymentSources(user.billingCustomerId!))[0].id, undefined);
    expect(retried.id).not.toBe(failed.id);
    await drainJobs(JOB_KINDS);
    expect(findOwnedJob(user.id, retried.id)?.status).toBe("succeeded");
  });

  it("retries a passing provider failure with the same key, charging once", async () => {
    const { user, place } = await orderAs({ organization: "Northwind Flaky" });
    const invoicesBefore = db.select({ n: count() }).from(billingInvoices).get()?.n ?? 0;
    billingFaults.inject("createSubscription", { kind: "retryable", message: "Try again later.", times: "once" });
    const job = await place();
    await drainJobs(JOB_KINDS);
    expect(findOwnedJob(user.id, job.id)?.status).toBe("succeeded");
    expect(db.select({ n: count() }).from(billingInvoices).get()?.n).toBe(invoicesBefore + 1);
  });
});

describe("the job runner", () => {
  it("resumes an interrupted job after its last saved step, never repeating one", async () => {
    const runs: string[] = [];
    const kinds: JobKinds = {
      "three-steps": {
        steps: ["first", "second", "third"].map((name) => ({
          name,
          run: async () => {
            runs.push(name);
            return name.toUpperCase();
          },
        })),
        failure: (step) => ({ step, title: "failed", message: "failed" }),
      },
    };
    const job = enqueueJob({ kind: "three-steps", ownerId: customer().id, idempotencyKey: "resume-test", input: {} });
    // As a server that died after the first step leaves it: running, with the first step saved.
    db.update(jobs)
      .set({ status: "queued", steps: { first: { status: "done", result: "FIRST" } } })
      .where(eq(jobs.id, job.id))
      .run();
    await drainJobs(kinds);
    expect(runs).toEqual(["second", "third"]);
    expect(findOwnedJob(customer().id, job.id)).toMatchObject({ status: "succeeded", result: { first: "FIRST", second: "SECOND", third: "THIRD" } });
  });

  it("shows a job only to its owner", () => {
    const job = enqueueJob({ kind: "three-steps", ownerId: customer().id, idempotencyKey: "owner-test", input: {} });
    expect(findOwnedJob(distributor().id, job.id)).toBeNull();
  });
});
