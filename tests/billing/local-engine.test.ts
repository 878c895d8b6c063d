import { eq } from "drizzle-orm";
import { billingFaults, getBilling } from "~/server/billing/index.server";
import { createLocalBilling } from "~/server/billing/local/engine.server";
import { DEMO_BILLING } from "~/server/billing/local/seed.server";
import { createLocalCards } from "~/server/cards/local/provider.server";
import { db } from "~/server/db.server";
import {
  billingCustomers,
  billingInvoices,
  billingPaymentSources,
  cardTokens,
  licenses,
  organizations,
} from "~db/schema";

/** What only the embedded engine has: the demo seed, fault injection, lazy renewals, its ledger of invoices. */
const DAY = 24 * 60 * 60 * 1000;
let clock = new Date("2026-04-01T00:00:00Z");
const billing = createLocalBilling({ store: db, now: () => clock });
const cards = createLocalCards({ store: db, now: () => clock });

afterEach(() => {
  billingFaults.clear();
  clock = new Date("2026-04-01T00:00:00Z");
});

/** A monthly core subscription for the customer's card, from the clock's now. */
const subscribe = (customerId: string, paymentSourceId: string, planQuantity: number) =>
  billing.createSubscription(
    { customerId, planId: "core-monthly", planQuantity, paymentSourceId, licenseAssignment: customerId },
    `${customerId}:subscribe`,
  );

async function customerWithCard(id: string, expiry = "12 / 34") {
  await billing.ensureCustomer(
    id,
    { firstName: "Kai", lastName: "Engine", email: "kai@example.org", phone: "", company: "K" },
    `${id}:c`,
  );
  const form = new FormData();
  form.set("card_number", "4242 4242 4242 4242");
  form.set("card_expiry", expiry);
  form.set("card_cvc", "123");
  const tmpToken = await cards.temporaryToken(form, { firstName: "Kai", lastName: "Engine" }, `${id}:t`);
  return billing.createPaymentSourceFromTempToken({ customerId: id, tmpToken, setAsPrimary: true }, `${id}:s`);
}

describe("demo seed", () => {
  it("gives the demo customer a Visa, a billing address and the core-monthly subscription of their license", async () => {
    const provider = getBilling();
    expect(provider.name).toBe("local");
    const customer = await provider.retrieveCustomer(DEMO_BILLING.customerId);
    expect(customer).toMatchObject({
      firstName: "Dana",
      lastName: "Whitfield",
      email: "customer@example.com",
      company: "Northwind Clinics",
      phone: "+1 415 555 0134",
      primaryPaymentSourceId: DEMO_BILLING.paymentSourceId,
    });
    expect(customer.billingAddress).toMatchObject({
      line1: "450 Mission Street",
      city: "San Francisco",
      country: "US",
    });
    expect(await provider.listPaymentSources(DEMO_BILLING.customerId)).toEqual([
      expect.objectContaining({
        id: DEMO_BILLING.paymentSourceId,
        status: "valid",
        card: expect.objectContaining({ brand: "visa", last4: "4242" }),
      }),
    ]);

    const subscription = await provider.retrieveSubscription(DEMO_BILLING.customerId, "sub_demo_core_monthly");
    expect(subscription).toMatchObject({
      planId: "core-monthly",
      planQuantity: 10,
      status: "active",
      paymentSourceId: DEMO_BILLING.paymentSourceId,
    });
    // Renewed up to the current term on its first read.
    const now = Date.now();
    expect(subscription.currentTermStart!.getTime()).toBeLessThanOrEqual(now);
    expect(subscription.currentTermEnd!.getTime()).toBeGreaterThan(now);
    expect(subscription.nextBillingAt).toEqual(subscription.currentTermEnd);
    // It pays for the demo customer's on-premise license.
    const paidFor = db
      .select({ license: licenses.externalLicenseId, billingCustomerId: organizations.billingCustomerId })
      .from(licenses)
      .innerJoin(organizations, eq(organizations.id, licenses.ownerId))
      .where(eq(licenses.subscriptionId, subscription.id))
      .get();
    expect(paidFor).toEqual({ license: "GK-NWC-2026-0001", billingCustomerId: DEMO_BILLING.customerId });
  });

  it("gives the distributor nothing until it is needed", async () => {
    expect(
      db.select().from(billingCustomers).where(eq(billingCustomers.id, "cust_demo_distributor")).get(),
    ).toBeUndefined();
    await expect(getBilling().retrieveCustomer("cust_demo_distributor")).rejects.toMatchObject({ code: "not_found" });
  });
});

describe("fault injection", () => {
  it("fails a named call once with the given message, then lets it through", async () => {
    billingFaults.inject("listPlans", { message: "Chargebee is down for maintenance." });
    await expect(getBilling().listPlans()).rejects.toMatchObject({
      kind: "final",
      providerMessage: "Chargebee is down for maintenance.",
    });
    await expect(getBilling().listPlans()).resolves.toHaveLength(12);
  });

  it("fails always, or a number of times, with the kind asked for", async () => {
    billingFaults.inject("retrieveCoupon", { times: "always", kind: "retryable", message: "Busy." });
    for (let i = 0; i < 3; i++)
      await expect(getBilling().retrieveCoupon("SAVE50")).rejects.toMatchObject({ kind: "retryable" });
    billingFaults.inject("retrieveCoupon", { times: 2, message: "No." });
    await expect(getBilling().retrieveCoupon("SAVE50")).rejects.toThrow("No.");
    await expect(getBilling().retrieveCoupon("SAVE50")).rejects.toThrow("No.");
    await expect(getBilling().retrieveCoupon("SAVE50")).resolves.toMatchObject({ id: "SAVE50" });
  });

  it("hangs a call and then times it out without a provider message", async () => {
    billingFaults.inject("listAddons", { mode: "hang", hangMs: 50 });
    const started = Date.now();
    await expect(getBilling().listAddons()).rejects.toMatchObject({ kind: "unknown", providerMessage: undefined });
    expect(Date.now() - started).toBeGreaterThanOrEqual(45);
  });
});

describe("charges", () => {
  it("charges a subscription once however often it is submitted", async () => {
    const source = await customerWithCard("cust_once");
    const request = {
      customerId: "cust_once",
      planId: "ultimate-monthly",
      planQuantity: 3,
      paymentSourceId: source.id,
      licenseAssignment: "Once Ltd",
    };
    const [first, second] = await Promise.all([
      billing.createSubscription(request, "order-1"),
      billing.createSubscription(request, "order-1"),
    ]);
    expect(second.id).toBe(first.id);
    const invoices = db.select().from(billingInvoices).where(eq(billingInvoices.customerId, "cust_once")).all();
    expect(invoices).toHaveLength(1);
    expect(invoices[0]).toMatchObject({ status: "paid", total: 2400, amountPaid: 2400, paymentSourceId: source.id });
  });

  it("refuses the same key for a different call", async () => {
    const source = await customerWithCard("cust_key");
    await expect(
      billing.createHardwareInvoice(
        { customerId: "cust_key", paymentSourceId: source.id, hardware: [{ id: "usb-sensor", quantity: 1 }] },
        "cust_key:s",
      ),
    ).rejects.toThrow("already used for a different request");
  });

  it("does not charge an expired card", async () => {
    clock = new Date("2026-04-01T00:00:00Z");
    const source = await customerWithCard("cust_expiring", "04 / 26");
    clock = new Date("2026-05-01T00:00:00Z");
    const [listed] = await billing.listPaymentSources("cust_expiring");
    expect(listed.status).toBe("expired");
    await expect(
      billing.createHardwareInvoice(
        { customerId: "cust_expiring", paymentSourceId: source.id, hardware: [{ id: "usb-sensor", quantity: 1 }] },
        "expired-card-order",
      ),
    ).rejects.toMatchObject({ kind: "final", code: "payment_method_not_usable" });
  });

  it("records the prorated charge of an upgrade, paid from the subscription's card", async () => {
    const source = await customerWithCard("cust_upgrade");
    const subscription = await subscribe("cust_upgrade", source.id, 10);
    clock = new Date("2026-04-16T00:00:00Z");
    // Submitted twice with the same key: charged once.
    for (let submit = 0; submit < 2; submit++) {
      await billing.updateSubscription(
        "cust_upgrade",
        subscription.id,
        { planId: "core-monthly", planQuantity: 15 },
        "up:1",
      );
    }
    const amounts = db
      .select({ paid: billingInvoices.amountPaid })
      .from(billingInvoices)
      .where(eq(billingInvoices.subscriptionId, subscription.id))
      .all()
      .map((invoice) => invoice.paid);
    expect(amounts).toEqual([4000, 1000]);
  });
});

describe("renewals", () => {
  it("moves a subscription read after its term on by whole periods", async () => {
    const source = await customerWithCard("cust_renew");
    const created = await subscribe("cust_renew", source.id, 1);
    clock = new Date(clock.getTime() + 45 * DAY);
    const renewed = await billing.retrieveSubscription("cust_renew", created.id);
    expect(renewed.currentTermStart).toEqual(new Date("2026-05-01T00:00:00Z"));
    expect(renewed.currentTermEnd).toEqual(new Date("2026-06-01T00:00:00Z"));
  });
});

describe("credits", () => {
  it("carries credits an invoice could not use to the renewal, which records its invoice and uses them first", async () => {
    const source = await customerWithCard("cust_credits");
    const subscription = await subscribe("cust_credits", source.id, 10);
    clock = new Date("2026-04-16T00:00:00Z");
    // 15 advanced users for the half term left: 15 x 600 x 1/2 = 4500, all taken by the $50 coupon;
    // the unused half of 10 core users (2000) is kept.
    const upgrade = { planId: "advanced-monthly", planQuantity: 15, couponIds: ["SAVE50"] };
    await billing.updateSubscription("cust_credits", subscription.id, upgrade, "credits:up");
    expect((await billing.retrieveCustomer("cust_credits")).creditBalance).toBe(2000);

    clock = new Date("2026-05-05T00:00:00Z");
    await billing.retrieveSubscription("cust_credits", subscription.id);
    const invoices = db
      .select({
        total: billingInvoices.total,
        credits: billingInvoices.creditsApplied,
        paid: billingInvoices.amountPaid,
      })
      .from(billingInvoices)
      .where(eq(billingInvoices.subscriptionId, subscription.id))
      .all();
    // The first term, the upgrade, then May's renewal: 15 x 600 = 9000, of which 2000 from the credits.
    expect(invoices).toEqual([
      { total: 4000, credits: 0, paid: 4000 },
      { total: 0, credits: 0, paid: 0 },
      { total: 9000, credits: 2000, paid: 7000 },
    ]);
    expect((await billing.retrieveCustomer("cust_credits")).creditBalance).toBe(0);
    // Read again in the same term: renewed once, not again.
    await billing.retrieveSubscription("cust_credits", subscription.id);
    expect(
      db.select().from(billingInvoices).where(eq(billingInvoices.subscriptionId, subscription.id)).all(),
    ).toHaveLength(3);
  });
});

describe("the vault", () => {
  it("keeps brand, last four digits and expiry of a card, never its number", async () => {
    await customerWithCard("cust_vault");
    const stored = [
      db.select().from(billingPaymentSources).where(eq(billingPaymentSources.customerId, "cust_vault")).all(),
      db.select().from(cardTokens).all(),
    ];
    expect(stored[0]).toHaveLength(1);
    expect(JSON.stringify(stored)).toContain('"last4":"4242"');
    expect(JSON.stringify(stored)).not.toContain("4242424242424242");
  });
});
