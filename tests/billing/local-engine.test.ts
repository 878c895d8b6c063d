import { asc, eq } from "drizzle-orm";
import { tokenOf } from "../support/card-tokens";
import { billingFaults, getBilling, getBillingClock, onBillingEvents } from "~/server/billing/index.server";
import { createLocalBilling } from "~/server/billing/local/engine.server";
import type { ProviderEvent } from "~/server/billing/port.server";
import { DEMO_BILLING, RESELLER_DEMO_BILLING, RESELLER_DEMO_SUBSCRIPTIONS } from "~/server/billing/local/seed.server";
import { createLocalCards } from "~/server/cards/local/provider.server";
import { db } from "~/server/platform/database/db.server";
import { promiseHooksOn } from "../support/promise-hooks";
import {
  billingFaults as armedBillingFaults,
  billingClock,
  billingEvents,
  billingInvoices,
  billingPaymentSources,
  cardTokens,
  licenses,
  organizations,
} from "~/server/platform/database/tables.server";
import { captureLogs } from "../support/logs";

/** What only the embedded engine has: the demo seed, fault injection, lazy renewals, its ledger of invoices. */
const DAY = 24 * 60 * 60 * 1000;
let clock = new Date("2026-04-01T00:00:00Z");
const billing = createLocalBilling({ store: db, now: () => clock });
const cards = createLocalCards({ store: db, now: () => clock });

afterEach(async () => {
  await billingFaults.clear();
  clock = new Date("2026-04-01T00:00:00Z");
  await db.delete(billingClock);
});

/** A monthly core subscription for the customer's card, from the clock's now. */
const subscribe = (customerId: string, paymentSourceId: string, planQuantity: number) =>
  billing.createSubscription(
    { customerId, planId: "core-monthly", planQuantity, paymentSourceId, licenseAssignment: customerId },
    `${customerId}:subscribe`,
  );

const VISA = "4242 4242 4242 4242";

/** The customer (created once) with a card; another card of theirs gets keys of its own. */
async function customerWithCard(id: string, expiry = "12 / 34", number = VISA, engine = billing) {
  const another = number === VISA ? "" : `:${number}`;
  await engine.ensureCustomer(
    id,
    { firstName: "Kai", lastName: "Engine", email: "kai@example.org", phone: "", company: "K" },
    `${id}:c`,
  );
  const form = new FormData();
  form.set("card_number", number);
  form.set("card_expiry", expiry);
  form.set("card_cvc", "123");
  const tmpToken = await tokenOf(cards, form, { firstName: "Kai", lastName: "Engine" }, `${id}:t${another}`);
  return engine.createPaymentSourceFromTempToken({ customerId: id, tmpToken, setAsPrimary: true }, `${id}:s${another}`);
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
    const [paidFor] = await db
      .select({ license: licenses.externalLicenseId, billingCustomerId: organizations.billingCustomerId })
      .from(licenses)
      .innerJoin(organizations, eq(organizations.id, licenses.ownerId))
      .where(eq(licenses.subscriptionId, subscription.id));
    expect(paidFor).toEqual({ license: "GK-NWC-2026-0001", billingCustomerId: DEMO_BILLING.customerId });
  });

  it("gives the distributor a Mastercard and the reseller subscriptions of its end customers' licenses", async () => {
    const provider = getBilling();
    const { customerId, paymentSourceId } = RESELLER_DEMO_BILLING;
    expect(await provider.retrieveCustomer(customerId)).toMatchObject({
      company: "SecureLine Resellers",
      primaryPaymentSourceId: paymentSourceId,
    });
    expect(await provider.listPaymentSources(customerId)).toEqual([
      expect.objectContaining({ id: paymentSourceId, card: expect.objectContaining({ brand: "mastercard" }) }),
    ]);
    const paidFor = await db
      .select({ subscriptionId: licenses.subscriptionId, ownerId: licenses.ownerId, licenseeId: licenses.licenseeId })
      .from(licenses)
      .innerJoin(organizations, eq(organizations.id, licenses.ownerId))
      .where(eq(organizations.billingCustomerId, customerId));
    expect(paidFor.map((license) => license.subscriptionId).sort()).toEqual(
      RESELLER_DEMO_SUBSCRIPTIONS.map((spec) => spec.id).sort(),
    );
    for (const license of paidFor) {
      const subscription = await provider.retrieveSubscription(customerId, license.subscriptionId!);
      expect(subscription.planId).toMatch(/^reseller-/);
      // Each is licensed to an end customer the distributor manages.
      const [licensee] = await db.select().from(organizations).where(eq(organizations.id, license.licenseeId!));
      expect(licensee.managedBy).toBe(license.ownerId);
    }
  });
});

describe("fault injection", () => {
  it("fails a named call once with the given message, then lets it through", async () => {
    await billingFaults.inject("listPlans", { message: "Chargebee is down for maintenance." });
    await expect(getBilling().listPlans()).rejects.toMatchObject({
      kind: "final",
      providerMessage: "Chargebee is down for maintenance.",
    });
    await expect(getBilling().listPlans()).resolves.toHaveLength(12);
  });

  it("fails always, or a number of times, with the kind asked for", async () => {
    await billingFaults.inject("retrieveCoupon", { times: "always", kind: "retryable", message: "Busy." });
    for (let i = 0; i < 3; i++)
      await expect(getBilling().retrieveCoupon("SAVE50")).rejects.toMatchObject({ kind: "retryable" });
    await billingFaults.inject("retrieveCoupon", { times: 2, message: "No." });
    await expect(getBilling().retrieveCoupon("SAVE50")).rejects.toThrow("No.");
    await expect(getBilling().retrieveCoupon("SAVE50")).rejects.toThrow("No.");
    await expect(getBilling().retrieveCoupon("SAVE50")).resolves.toMatchObject({ id: "SAVE50" });
  });

  it("hangs a call and then times it out without a provider message", async () => {
    await billingFaults.inject("listAddons", { mode: "hang", hangMs: 50 });
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
    const invoices = await db.select().from(billingInvoices).where(eq(billingInvoices.customerId, "cust_once"));
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
    const amounts = (
      await db
        .select({ paid: billingInvoices.amountPaid })
        .from(billingInvoices)
        .where(eq(billingInvoices.subscriptionId, subscription.id))
        .orderBy(asc(billingInvoices.date))
    ).map((invoice) => invoice.paid);
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

  it("are not processed by reading the price list, which time does not change, but by the next call that reads the customer's", async () => {
    const source = await customerWithCard("cust_catalogue");
    const created = await subscribe("cust_catalogue", source.id, 1);
    const invoicesOf = async () =>
      (await db.select().from(billingInvoices).where(eq(billingInvoices.customerId, "cust_catalogue"))).length;
    const invoicesBefore = await invoicesOf();
    clock = new Date(clock.getTime() + 45 * DAY);
    await billing.listPlans();
    await billing.listAddons();
    await billing.retrieveCoupon("SAVE50");
    expect(await invoicesOf()).toBe(invoicesBefore);
    const renewed = await billing.retrieveSubscription("cust_catalogue", created.id);
    expect(renewed.currentTermStart).toEqual(new Date("2026-05-01T00:00:00Z"));
    expect(await invoicesOf()).toBe(invoicesBefore + 1);
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
    const invoices = await db
      .select({
        total: billingInvoices.total,
        credits: billingInvoices.creditsApplied,
        paid: billingInvoices.amountPaid,
      })
      .from(billingInvoices)
      .where(eq(billingInvoices.subscriptionId, subscription.id))
      .orderBy(asc(billingInvoices.date));
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
      await db.select().from(billingInvoices).where(eq(billingInvoices.subscriptionId, subscription.id)),
    ).toHaveLength(3);
  });
});

describe("the vault", () => {
  it("keeps brand, last four digits and expiry of a card, never its number", async () => {
    await customerWithCard("cust_vault");
    const stored = [
      await db.select().from(billingPaymentSources).where(eq(billingPaymentSources.customerId, "cust_vault")),
      await db.select().from(cardTokens),
    ];
    expect(stored[0]).toHaveLength(1);
    expect(JSON.stringify(stored)).toContain('"last4":"4242"');
    expect(JSON.stringify(stored)).not.toContain("4242424242424242");
  });
});

const APRIL = new Date("2026-04-01T00:00:00Z");
const MAY = new Date("2026-05-01T00:00:00Z");
const eventsOf = (customerId: string) =>
  db.select().from(billingEvents).where(eq(billingEvents.customerId, customerId)).orderBy(asc(billingEvents.seq));

describe("the time machine", () => {
  it("moves the engine's clock, kept in the database so that every engine on it reads the same date", async () => {
    const other = createLocalBilling({ store: db, now: () => clock });
    expect(await billing.clockNow()).toEqual(APRIL);
    const moved = await billing.advanceClock(30);
    expect(moved).toMatchObject({ from: APRIL, to: MAY });
    expect(await other.clockNow()).toEqual(MAY);
    // Real time goes on under it.
    clock = new Date(APRIL.getTime() + 60_000);
    expect(await other.clockNow()).toEqual(new Date(MAY.getTime() + 60_000));
  });

  it("is read as time itself, which no armed fault fails: a fault can be armed for the port's calls only", async () => {
    // injectBillingFault takes only the port's calls; a row written by hand for the clock changes nothing.
    await db.insert(armedBillingFaults).values({
      call: "clockNow",
      mode: "fail",
      kind: "final",
      message: "No.",
      remaining: null,
      hangMs: 0,
    });
    expect(await billing.clockNow()).toEqual(APRIL);
  });

  it("renews what falls due on the way, with nobody reading, and says what it did", async () => {
    const source = await customerWithCard("cust_machine");
    const subscription = await subscribe("cust_machine", source.id, 2);
    const moved = await billing.advanceClock(61);
    // Two renewals (May 1, June 1), each invoiced and paid, without a read of the subscription.
    const renewals = await db
      .select()
      .from(billingInvoices)
      .where(eq(billingInvoices.subscriptionId, subscription.id))
      .orderBy(asc(billingInvoices.date));
    expect(renewals.map((invoice) => [invoice.purpose, invoice.date, invoice.status])).toEqual([
      ["new_subscription", APRIL, "paid"],
      ["renewal", MAY, "paid"],
      ["renewal", new Date("2026-06-01T00:00:00Z"), "paid"],
    ]);
    const mine = moved.events.filter((event) => event.customerId === "cust_machine");
    expect(mine.map((event) => event.type)).toEqual([
      "subscription_renewed",
      "invoice_generated",
      "invoice_paid",
      "subscription_renewed",
      "invoice_generated",
      "invoice_paid",
    ]);
    // Time passing without the machine does the same, at the next call of anyone: June 2, and the machine's 61
    // days on top, is August 2.
    clock = new Date("2026-06-02T00:00:00Z");
    const due = await billing.processDue();
    expect(due.filter((event) => event.resourceId === subscription.id).map((event) => event.occurredAt)).toEqual([
      new Date("2026-07-01T00:00:00Z"),
      new Date("2026-08-01T00:00:00Z"),
    ]);
  });

  it("moves forward only, by 1 to 3660 whole days", async () => {
    for (const days of [0, -1, 1.5, 3661, Number.NaN]) {
      await expect(billing.advanceClock(days)).rejects.toMatchObject({ kind: "final", code: "invalid_days" });
    }
    expect(await billing.clockNow()).toEqual(APRIL);
  });

  it("is the embedded engine's only, through the billing module", async () => {
    const machine = getBillingClock();
    expect(machine).not.toBeNull();
    const before = await machine!.now();
    const { to } = await machine!.advance(2);
    expect(to.getTime() - before.getTime()).toBeGreaterThanOrEqual(2 * DAY);
    expect(await machine!.now()).toEqual(to);
  });
});

describe("events", () => {
  it("are written in the transaction of their change: a refused call records none", async () => {
    const source = await customerWithCard("cust_refused");
    const before = (await eventsOf("cust_refused")).length;
    await expect(
      billing.createSubscription(
        {
          customerId: "cust_refused",
          planId: "core-weekly",
          planQuantity: 1,
          paymentSourceId: source.id,
          licenseAssignment: "R",
        },
        "refused:1",
      ),
    ).rejects.toMatchObject({ code: "not_found" });
    await billingFaults.inject("createSubscription", { message: "Down." });
    await expect(
      getBilling().createSubscription(
        {
          customerId: "cust_refused",
          planId: "core-monthly",
          planQuantity: 1,
          paymentSourceId: source.id,
          licenseAssignment: "R",
        },
        "refused:2",
      ),
    ).rejects.toThrow("Down.");
    expect(await eventsOf("cust_refused")).toHaveLength(before);
  });

  it("reach a listener in the process after their call commits, in the order they were written", async () => {
    const told: ProviderEvent[][] = [];
    const stop = onBillingEvents((events) => {
      told.push(events);
    });
    try {
      const provider = getBilling();
      await provider.ensureCustomer(
        "cust_listened",
        { firstName: "L", lastName: "Istener", email: "l@example.org", phone: "", company: "L" },
        "listened:c",
      );
      const form = new FormData();
      form.set("card_number", "4242 4242 4242 4242");
      form.set("card_expiry", "12 / 34");
      form.set("card_cvc", "123");
      const tmpToken = await tokenOf(
        createLocalCards({ store: db }),
        form,
        { firstName: "L", lastName: "Istener" },
        "listened:t",
      );
      const card = await provider.createPaymentSourceFromTempToken(
        { customerId: "cust_listened", tmpToken, setAsPrimary: true },
        "listened:s",
      );
      expect(told.flat().filter((event) => event.customerId === "cust_listened")).toEqual([
        expect.objectContaining({ type: "payment_source_added", resourceId: card.id, paymentSource: card }),
      ]);
      // A repeat with the key changes nothing and tells nothing.
      told.length = 0;
      await provider.createPaymentSourceFromTempToken(
        { customerId: "cust_listened", tmpToken, setAsPrimary: true },
        "listened:s",
      );
      expect(told).toEqual([]);
    } finally {
      stop();
    }
  });

  it("reach the listener with their own call's, calls side by side; no storage is left following promises", async () => {
    const told: string[][] = [];
    const listened = createLocalBilling({
      store: db,
      now: () => clock,
      onEvents: async (events) => {
        await new Promise((resolve) => setImmediate(resolve));
        told.push(events.map((event) => `${event.customerId} ${event.type}`));
      },
    });
    expect(await promiseHooksOn()).toBe(false);
    const customers = ["cust_beside_a", "cust_beside_b", "cust_beside_c"];
    await Promise.all(customers.map((id) => customerWithCard(id, "12 / 34", VISA, listened)));
    expect(told.sort()).toEqual(customers.map((id) => [`${id} payment_source_added`]));
    // Reading the clock, which every page does, opens no call at all.
    await listened.clockNow();
    expect(await promiseHooksOn()).toBe(false);
  });

  it("stay in the list when a listener fails; the call itself succeeds", async () => {
    const logs = captureLogs();
    const listened = createLocalBilling({
      store: db,
      now: () => clock,
      onEvents: () => {
        throw new Error("The portal's store is down.");
      },
    });
    await listened.ensureCustomer(
      "cust_unheard",
      { firstName: "U", lastName: "Nheard", email: "u@example.org", phone: "", company: "U" },
      "unheard:c",
    );
    const source = await customerWithCard("cust_unheard_card");
    await expect(listened.deleteLocalPaymentSource("cust_unheard_card", source.id)).resolves.toBeUndefined();
    logs.restore();
    expect(logs.events("billing-events-listener-failed")).not.toHaveLength(0);
    expect((await eventsOf("cust_unheard_card")).map((event) => event.type)).toEqual([
      "payment_source_added",
      "payment_source_deleted",
    ]);
  });
});

describe("the declining test card", () => {
  it("saves, and every charge to it is declined in Stripe's words; nothing is made", async () => {
    const card = await customerWithCard("cust_declining", "12 / 34", "4000 0000 0000 0341");
    expect(card).toMatchObject({ status: "valid", card: { brand: "visa", last4: "0341" } });
    const declined = { kind: "final", code: "payment_processing_failed", providerMessage: "Your card was declined." };
    await expect(subscribe("cust_declining", card.id, 1)).rejects.toMatchObject(declined);
    await expect(
      billing.createHardwareInvoice(
        { customerId: "cust_declining", paymentSourceId: card.id, hardware: [{ id: "usb-sensor", quantity: 1 }] },
        "declining:hardware",
      ),
    ).rejects.toMatchObject(declined);
    expect(await db.select().from(billingInvoices).where(eq(billingInvoices.customerId, "cust_declining"))).toEqual([]);
    expect((await eventsOf("cust_declining")).map((event) => event.type)).toEqual(["payment_source_added"]);
  });
});

describe("renewals nobody can charge", () => {
  it("follow a dunning schedule the engine is given", async () => {
    const engine = createLocalBilling({ store: db, now: () => clock, dunning: { retryAfterDays: [2] } });
    const good = await customerWithCard("cust_short_dunning");
    const subscription = await engine.createSubscription(
      {
        customerId: "cust_short_dunning",
        planId: "core-monthly",
        planQuantity: 1,
        paymentSourceId: good.id,
        licenseAssignment: "S",
      },
      "short:subscribe",
    );
    const declining = await customerWithCard("cust_short_dunning", "12 / 34", "4000 0000 0000 0341");
    await engine.overrideBillingProfile("cust_short_dunning", subscription.id, {
      paymentSourceId: declining.id,
      autoCollection: true,
    });
    // May 1 the renewal is declined; May 3 the only retry is too, and the engine gives up.
    await engine.advanceClock(32);
    expect(await engine.retrieveSubscription("cust_short_dunning", subscription.id)).toMatchObject({
      status: "cancelled",
      cancelledAt: new Date("2026-05-03T00:00:00Z"),
    });
  });

  it("without automatic collection are left due, untried", async () => {
    const source = await customerWithCard("cust_manual");
    const subscription = await subscribe("cust_manual", source.id, 1);
    await billing.overrideBillingProfile("cust_manual", subscription.id, {
      paymentSourceId: source.id,
      autoCollection: false,
    });
    await billing.advanceClock(40);
    const [renewal] = await billing.listInvoices("cust_manual");
    expect(renewal).toMatchObject({ purpose: "renewal", status: "payment_due", nextRetryAt: null, amountDue: 400 });
    expect((await eventsOf("cust_manual")).map((event) => event.type)).not.toContain("payment_failed");
    expect(await billing.retrieveSubscription("cust_manual", subscription.id)).toMatchObject({
      status: "active",
      totalDues: 400,
      dueSince: MAY,
    });
  });
});

describe("auto-renew off", () => {
  it("moves with the term it ends when the billing period changes", async () => {
    const source = await customerWithCard("cust_off_yearly");
    const subscription = await subscribe("cust_off_yearly", source.id, 2);
    await billing.cancelSubscriptionAtTermEnd("cust_off_yearly", subscription.id, "off-yearly:off");
    clock = new Date("2026-04-16T00:00:00Z");
    const yearly = await billing.updateSubscription(
      "cust_off_yearly",
      subscription.id,
      { planId: "core-yearly", planQuantity: 2 },
      "off-yearly:yearly",
    );
    const yearLater = new Date("2027-04-16T00:00:00Z");
    expect(yearly).toMatchObject({ status: "non_renewing", currentTermEnd: yearLater, cancelledAt: yearLater });
  });
});

describe("invoices", () => {
  it("are numbered one after another across customers, their number their id", async () => {
    const first = await customerWithCard("cust_numbered_1");
    const second = await customerWithCard("cust_numbered_2");
    const a = await subscribe("cust_numbered_1", first.id, 1);
    const b = await subscribe("cust_numbered_2", second.id, 1);
    const [invoiceA] = await billing.listInvoices("cust_numbered_1", { subscriptionId: a.id });
    const [invoiceB] = await billing.listInvoices("cust_numbered_2", { subscriptionId: b.id });
    expect(invoiceA.number).toBe(invoiceA.id);
    expect(Number(invoiceB.number)).toBe(Number(invoiceA.number) + 1);
  });
});
