import Chargebee from "chargebee";
import { tokenOf } from "../support/card-tokens";
import { eq } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { chargebeeKey, createChargebeeBilling, type ChargebeeOptions } from "~/server/billing/chargebee/adapter.server";
import { invoiceOf, invoicePurposeOf, seconds, subscriptionOf } from "~/server/billing/chargebee/mapping.server";
import { clearBillingFaults, injectBillingFault } from "~/server/billing/local/faults.server";
import { createLocalCards } from "~/server/cards/local/provider.server";
import { db } from "~/server/platform/database/db.server";
import { billingInvoices, billingPaymentSources, billingSubscriptions } from "~/server/platform/database/tables.server";
import {
  FAKE_API_KEY,
  FAKE_GATEWAY_ACCOUNT_ID,
  FAKE_SITE,
  IDEMPOTENCY_WINDOW_MS,
  startChargebeeFake,
  type ChargebeeFake,
} from "../fakes/chargebee";
import { GERMAN_ADDRESS, GERMAN_VAT_NUMBER } from "../support/german-business";
import { captureLogs } from "../support/logs";

/**
 * What the Chargebee adapter puts on the wire, and how Chargebee's answers and failures reach the portal,
 * through the fake that refuses what a real Chargebee site refuses. The behaviour itself is the contract
 * suite's (contract-chargebee.test.ts).
 */
let fake: ChargebeeFake;
let options: ChargebeeOptions;
/** Chargebee's clock; a test moves it (the idempotency window, a request read a moment after it was sent). */
let chargebeeNow = () => new Date();

beforeAll(async () => {
  fake = await startChargebeeFake({ store: db, now: () => chargebeeNow() });
  options = {
    site: FAKE_SITE,
    apiKey: FAKE_API_KEY,
    gatewayAccountId: FAKE_GATEWAY_ACCOUNT_ID,
    endpoint: { protocol: "http", hostSuffix: "", port: fake.port },
    timeoutMs: 2_000,
  };
});
afterAll(() => fake.close());
afterEach(async () => {
  await clearBillingFaults(db);
  chargebeeNow = () => new Date();
  fake.refusals.length = 0;
  vi.restoreAllMocks();
});

const billing = () => createChargebeeBilling(options);
const demoCustomer = "cust_demo_customer";
const PROFILE = { firstName: "Dana", lastName: "Whitfield", email: "dana@example.com", phone: "+1", company: "N" };
let customers = 0;

async function cardToken(key: string) {
  const form = new FormData();
  form.set("card_number", "4242424242424242");
  form.set("card_expiry", "12/34");
  form.set("card_cvc", "123");
  return tokenOf(createLocalCards({ store: db }), form, { firstName: "Dana", lastName: "Whitfield" }, key);
}

/** A new customer with a card, through the adapter. */
async function customerWithCard() {
  const id = `cust_wire_${++customers}_${Date.now()}`;
  await billing().ensureCustomer(id, PROFILE, `${id}:create`);
  const tmpToken = await cardToken(`${id}:token`);
  const source = await billing().createPaymentSourceFromTempToken(
    { customerId: id, tmpToken, setAsPrimary: true },
    `${id}:card`,
  );
  return { customerId: id, source };
}

/** A raw SDK client for the fake, to send what the adapter never would. */
const raw = () =>
  new Chargebee({ site: FAKE_SITE, apiKey: FAKE_API_KEY, hostSuffix: "", protocol: "http", port: fake.port });

/** A job's idempotency key as the runner makes them: kind, draft, order digest, step, refusals (119 characters). */
const jobKey = (step: string) =>
  `new-subscription:${crypto.randomUUID()}:${"x".repeat(43)}:${step}:0`.padEnd(119, "0").slice(0, 119);

const requestsTo = (method: string, path: string) =>
  fake.requests.filter((request) => request.method === method && request.path === path).length;

describe("orders: quantities only for add-ons charged per unit", () => {
  it("creates a subscription with the hosting, service and shipping add-ons present and the hardware counted", async () => {
    const { customerId, source } = await customerWithCard();
    const key = "order-42:create-subscription";
    await billing().createSubscription(
      {
        customerId,
        planId: "advanced-monthly",
        planQuantity: 5,
        addons: [{ id: "gatekeeper-cloud-monthly", quantity: 1 }],
        oneTimeAddons: [{ id: "technical-support", quantity: 1 }],
        hardware: [
          { id: "halberd-rechargeable-token", quantity: 5 },
          { id: "usb-sensor", quantity: 0 },
        ],
        couponIds: ["SAVE50"],
        paymentSourceId: source.id,
        licenseAssignment: "Northwind Clinics North",
      },
      key,
    );
    expect(fake.refusals).toEqual([]);
    const sent = fake.lastRequest("POST", `/api/v2/customers/${customerId}/subscriptions`);
    expect(sent?.idempotencyKey).toBe(chargebeeKey(key));
    const onCreation = { on_event: "subscription_creation", charge_once: "true", charge_on: "on_event" };
    expect(sent?.params).toEqual({
      plan_id: "advanced-monthly",
      plan_quantity: "5",
      auto_collection: "on",
      payment_source_id: source.id,
      coupon_ids: ["SAVE50"],
      addons: [{ id: "gatekeeper-cloud-monthly" }],
      event_based_addons: [
        { id: "technical-support", ...onCreation },
        { id: "halberd-rechargeable-token", quantity: "5", ...onCreation },
        // The shipping line's price is the order's: 5 items ship in one box.
        { id: "gatekeeper-shipping", unit_price: "750", ...onCreation },
      ],
      invoice_immediately: "true",
      meta_data: `{"license_assignment":"Northwind Clinics North","order_key":"${key}"}`,
    });
  });

  it("estimates, changes add-ons and invoices hardware without a quantity for an on_off add-on", async () => {
    const { customerId, source } = await customerWithCard();
    const order = {
      planId: "core-monthly",
      planQuantity: 3,
      addons: [{ id: "gatekeeper-cloud-monthly", quantity: 1 }],
      oneTimeAddons: [{ id: "virtual-installation", quantity: 1 }],
      hardware: [{ id: "usb-sensor", quantity: 2 }],
    };
    await billing().estimateNewSubscription(order);
    await billing().estimateNewSubscription({ ...order, customerId });
    const created = await billing().createSubscription(
      { ...order, customerId, paymentSourceId: source.id, licenseAssignment: "N" },
      `${customerId}:subscribe`,
    );
    const change = { planId: "core-monthly", planQuantity: 3, addons: [{ id: "offsite-access-monthly", quantity: 1 }] };
    await billing().estimateSubscriptionUpdate(customerId, created.id, change);
    await billing().updateSubscription(customerId, created.id, change, `${customerId}:change`);
    await billing().createHardwareInvoice(
      { customerId, paymentSourceId: source.id, hardware: [{ id: "usb-sensor", quantity: 101 }] },
      `${customerId}:hardware`,
    );
    expect(fake.refusals).toEqual([]);
    expect(fake.lastRequest("POST", "/api/v2/estimates/update_subscription")?.params.addons).toEqual([
      { id: "offsite-access-monthly" },
    ]);
    expect(fake.lastRequest("POST", "/api/v2/invoices")?.params).toEqual({
      customer_id: customerId,
      auto_collection: "on",
      payment_source_id: source.id,
      // 101 items need 21 boxes; shipping stops at 20.
      addons: [
        { id: "usb-sensor", quantity: "101" },
        { id: "gatekeeper-shipping", unit_price: "15000" },
      ],
      po_number: chargebeeKey(`${customerId}:hardware`),
    });
  });
});

describe("after checkout: what the adapter sends", () => {
  /** A new customer's subscription, made through the adapter. */
  async function subscription() {
    const { customerId, source } = await customerWithCard();
    const created = await billing().createSubscription(
      { customerId, planId: "core-monthly", planQuantity: 2, paymentSourceId: source.id, licenseAssignment: "N" },
      `${customerId}:subscribe`,
    );
    return { customerId, source, created };
  }

  it("turns auto-renew off with cancel end_of_term and on with remove_scheduled_cancellation, each with its key", async () => {
    const { customerId, created } = await subscription();
    const off = jobKey("auto-renew-off");
    await billing().cancelSubscriptionAtTermEnd(customerId, created.id, off);
    const cancel = fake.lastRequest("POST", `/api/v2/subscriptions/${created.id}/cancel`);
    expect(cancel).toMatchObject({ params: { end_of_term: "true" }, idempotencyKey: chargebeeKey(off) });
    // Already scheduled: nothing is sent again.
    await billing().cancelSubscriptionAtTermEnd(customerId, created.id, jobKey("auto-renew-off-again"));
    expect(requestsTo("POST", `/api/v2/subscriptions/${created.id}/cancel`)).toBe(1);

    const on = jobKey("auto-renew-on");
    await billing().removeScheduledCancellation(customerId, created.id, on);
    const remove = fake.lastRequest("POST", `/api/v2/subscriptions/${created.id}/remove_scheduled_cancellation`);
    expect(remove).toMatchObject({ params: {}, idempotencyKey: chargebeeKey(on) });
    await billing().removeScheduledCancellation(customerId, created.id, jobKey("auto-renew-on-again"));
    expect(requestsTo("POST", `/api/v2/subscriptions/${created.id}/remove_scheduled_cancellation`)).toBe(1);
    expect(fake.refusals).toEqual([]);
  });

  it("collects an invoice's payment with the card and the key's digest, and asks for a PDF to download", async () => {
    const { customerId, source, created } = await subscription();
    const [invoice] = await billing().listInvoices(customerId, { subscriptionId: created.id });
    expect(fake.lastRequest("GET", "/api/v2/invoices")?.params).toEqual({
      limit: "100",
      customer_id: { is: customerId },
      subscription_id: { is: created.id },
      sort_by: { desc: "date" },
    });
    // The first invoice left due, as a renewal the card did not pay leaves it.
    await db
      .update(billingInvoices)
      .set({ status: "payment_due", amountDue: invoice.total, amountPaid: 0 })
      .where(eq(billingInvoices.id, invoice.id));
    const key = jobKey("pay-now");
    const paid = await billing().collectPayment(customerId, invoice.id, source.id, key);
    expect(paid).toMatchObject({ status: "paid", amountDue: 0 });
    expect(fake.lastRequest("POST", `/api/v2/invoices/${invoice.id}/collect_payment`)).toMatchObject({
      params: { payment_source_id: source.id },
      idempotencyKey: chargebeeKey(key),
    });

    const pdf = await billing().invoicePdf(customerId, invoice.id);
    expect(fake.lastRequest("POST", `/api/v2/invoices/${invoice.id}/pdf`)?.params).toEqual({
      disposition_type: "attachment",
    });
    expect(pdf).toEqual({
      kind: "url",
      url: `http://127.0.0.1:${fake.port}/downloads/invoices/${invoice.id}.pdf`,
      expiresAt: expect.any(Date),
    });
    expect(fake.refusals).toEqual([]);
  });

  it("lists events after the second before `since`, oldest first, and pages with next_offset", async () => {
    const since = new Date("2026-11-20T10:00:00.500Z");
    await billing().listEvents({ since, limit: 5, pageToken: "7" });
    expect(fake.lastRequest("GET", "/api/v2/events")?.params).toEqual({
      limit: "5",
      offset: "7",
      occurred_at: { after: String(seconds(since) - 1) },
      sort_by: { asc: "occurred_at" },
    });
    expect(fake.refusals).toEqual([]);
  });
});

describe("after checkout: how Chargebee's invoices and subscriptions read", () => {
  const may = Date.UTC(2026, 4, 1) / 1000;
  const june = Date.UTC(2026, 5, 1) / 1000;
  const mid = Date.UTC(2026, 4, 16) / 1000;
  const line = (date_from: number, date_to: number, entity_type = "plan") => ({
    entity_type,
    date_from,
    date_to,
    unit_amount: 400,
    amount: 400,
    description: "Core",
  });
  const invoice = (fields: Record<string, unknown>) =>
    ({
      id: "1042",
      customer_id: "cust_1",
      subscription_id: "sub_1",
      recurring: true,
      status: "paid",
      sub_total: 400,
      date: may,
      line_items: [line(may, june)],
      ...fields,
    }) as unknown as Parameters<typeof invoiceOf>[0];

  it("says what an invoice was for from what Chargebee says of it", () => {
    expect(invoicePurposeOf(invoice({ subscription_id: undefined, recurring: false }))).toBe("one_time");
    expect(invoicePurposeOf(invoice({ first_invoice: true }))).toBe("new_subscription");
    expect(invoicePurposeOf(invoice({}))).toBe("renewal");
    const year = Date.UTC(2027, 4, 1) / 1000;
    expect(invoicePurposeOf(invoice({ line_items: [line(may, year), line(may, year, "addon")] }))).toBe("renewal");
    // Part of a period: a prorated change; a whole new period with the credits of a change: a change too.
    expect(invoicePurposeOf(invoice({ line_items: [line(mid, june, "addon")] }))).toBe("subscription_change");
    expect(
      invoicePurposeOf(
        invoice({
          line_items: [line(mid, Date.UTC(2027, 4, 16) / 1000)],
          applied_credits: [
            { cn_id: "cn_1", applied_amount: 100, applied_at: mid, cn_reason_code: "subscription_change" },
          ],
        }),
      ),
    ).toBe("subscription_change");
  });

  it("reads the invoice's number, payment and dunning, and the subscription's cancellation and dues", () => {
    expect(
      invoiceOf(
        invoice({
          status: "payment_due",
          dunning_status: "in_progress",
          next_retry_at: mid,
          resource_version: 1778000000123,
        }),
      ),
    ).toMatchObject({
      number: "1042",
      nextRetryAt: new Date(mid * 1000),
      paidAt: null,
      resourceVersion: 1778000000123,
    });
    expect(
      invoiceOf(invoice({ status: "not_paid", dunning_status: "exhausted", next_retry_at: mid })).nextRetryAt,
    ).toBe(null);
    expect(invoiceOf(invoice({ paid_at: may })).paidAt).toEqual(new Date(may * 1000));

    const nonRenewing = subscriptionOf({
      id: "sub_1",
      customer_id: "cust_1",
      status: "non_renewing",
      current_term_start: may,
      current_term_end: june,
      cancelled_at: june,
      total_dues: 1500,
      due_since: may,
      resource_version: 1778000000456,
    } as unknown as Parameters<typeof subscriptionOf>[0]);
    expect(nonRenewing).toMatchObject({
      status: "non_renewing",
      cancelledAt: new Date(june * 1000),
      nextBillingAt: null,
      totalDues: 1500,
      dueSince: new Date(may * 1000),
      resourceVersion: 1778000000456,
    });
  });
});

describe("idempotency keys", () => {
  it("sends Chargebee a 43-character digest of a job's 119-character key and finds the subscription by the full key", async () => {
    const { customerId, source } = await customerWithCard();
    const key = jobKey("create-subscription");
    expect(key).toHaveLength(119);
    const request = {
      customerId,
      planId: "core-monthly",
      planQuantity: 2,
      paymentSourceId: source.id,
      licenseAssignment: "N",
    };
    const made = await billing().createSubscription(request, key);
    expect(fake.refusals).toEqual([]);
    const sent = fake.lastRequest("POST", `/api/v2/customers/${customerId}/subscriptions`);
    expect(sent?.idempotencyKey).toHaveLength(43);
    // A retry within Chargebee's window sends the same request: Chargebee replays the first answer.
    expect((await billing().createSubscription(request, key)).id).toBe(made.id);
    expect((await billing().findSubscriptionByKey(customerId, key))?.id).toBe(made.id);
  });

  it("finds a subscription on a later page of the customer's subscriptions", async () => {
    const { customerId, source } = await customerWithCard();
    const key = `${customerId}:subscribe`;
    const made = await billing().createSubscription(
      { customerId, planId: "core-monthly", planQuantity: 1, paymentSourceId: source.id, licenseAssignment: "N" },
      key,
    );
    const [row] = await db.select().from(billingSubscriptions).where(eq(billingSubscriptions.id, made.id));
    // A hundred older subscriptions of the customer's come first in Chargebee's list.
    await db.insert(billingSubscriptions).values(
      Array.from({ length: 100 }, (_, index) => ({
        ...row,
        id: `sub_older_${customerId}_${index}`,
        createdAt: new Date(row.createdAt.getTime() - 1000 * (index + 1)),
      })),
    );
    expect((await billing().findSubscriptionByKey(customerId, key))?.id).toBe(made.id);
    expect(fake.lastRequest("GET", "/api/v2/subscriptions")?.params.offset).toBe("100");
  });
});

describe("start dates", () => {
  it("sends no start date for a subscription that starts now, which Chargebee would read as backdating", async () => {
    const { customerId, source } = await customerWithCard();
    // Chargebee reads the request a moment after the job stamped its start.
    chargebeeNow = () => new Date(Date.now() + 2_000);
    const now = new Date();
    const request = { customerId, planId: "core-monthly", planQuantity: 2, startDate: now };
    await billing().estimateNewSubscription(request);
    const made = await billing().createSubscription(
      { ...request, paymentSourceId: source.id, licenseAssignment: "N" },
      `${customerId}:now`,
    );
    expect(fake.refusals).toEqual([]);
    expect(made.status).toBe("active");
    expect(fake.lastRequest("POST", `/api/v2/customers/${customerId}/subscriptions`)?.params).not.toHaveProperty(
      "start_date",
    );
  });

  it("sends a start date in the future", async () => {
    const { customerId, source } = await customerWithCard();
    const nextWeek = new Date(Math.floor(Date.now() / 1000) * 1000 + 7 * 24 * 3600_000);
    const made = await billing().createSubscription(
      {
        customerId,
        planId: "core-monthly",
        planQuantity: 2,
        startDate: nextWeek,
        paymentSourceId: source.id,
        licenseAssignment: "N",
      },
      `${customerId}:later`,
    );
    expect(made).toMatchObject({ status: "future", currentTermStart: nextWeek });
    expect(fake.lastRequest("POST", `/api/v2/customers/${customerId}/subscriptions`)?.params.start_date).toBe(
      String(nextWeek.getTime() / 1000),
    );
  });
});

describe("estimates", () => {
  const shippingAddress = {
    firstName: "Dana",
    lastName: "Whitfield",
    company: "Northwind",
    phone: "+1 206 555 0100",
    email: "dana@example.com",
    line1: "1 Pier",
    city: "Oakland",
    state: "California",
    stateCode: "CA",
    zip: "94607",
    country: "US",
  };

  it("sends an estimate only the address fields the estimate endpoints take", async () => {
    const request = { planId: "core-yearly", planQuantity: 3, hardware: [{ id: "usb-sensor", quantity: 1 }] };
    await billing().estimateNewSubscription({ ...request, shippingAddress });
    await billing().estimateNewSubscription({ ...request, customerId: demoCustomer, shippingAddress });
    expect(fake.refusals).toEqual([]);
    const estimateAddress = { line1: "1 Pier", city: "Oakland", state_code: "CA", zip: "94607", country: "US" };
    expect(fake.lastRequest("POST", "/api/v2/estimates/create_subscription")?.params.shipping_address).toEqual(
      estimateAddress,
    );
    expect(fake.lastRequest("GET", `/api/v2/customers/${demoCustomer}/create_subscription_estimate`)?.params).toEqual({
      use_existing_balances: "true",
      invoice_immediately: "true",
      subscription: { plan_id: "core-yearly", plan_quantity: "3" },
      event_based_addons: [
        {
          id: "usb-sensor",
          quantity: "1",
          on_event: "subscription_creation",
          charge_once: "true",
          charge_on: "on_event",
        },
        {
          id: "gatekeeper-shipping",
          unit_price: "750",
          on_event: "subscription_creation",
          charge_once: "true",
          charge_on: "on_event",
        },
      ],
      shipping_address: estimateAddress,
    });
  });

  it("takes the next renewal from Chargebee's next-invoice estimate, with no list calls", async () => {
    const { customerId, source } = await customerWithCard();
    const subscription = await billing().createSubscription(
      { customerId, planId: "core-monthly", planQuantity: 4, paymentSourceId: source.id, licenseAssignment: "N" },
      `${customerId}:subscribe`,
    );
    const adapter = billing();
    const [plans, addons] = [requestsTo("GET", "/api/v2/plans"), requestsTo("GET", "/api/v2/addons")];
    // Nothing changes, so nothing is invoiced now: Chargebee estimates the next invoice itself.
    const unchanged = await adapter.estimateSubscriptionUpdate(customerId, subscription.id, {
      planId: "core-monthly",
      planQuantity: 4,
    });
    expect(unchanged.nextBilling).toMatchObject({ amount: 1600 });
    // Chargebee's figure wins over list prices, e.g. with a recurring discount or tax on the site.
    fake.answerNextWith(
      {
        status: 200,
        json: {
          estimate: {
            created_at: 0,
            subscription_estimate: { currency_code: "USD", next_billing_at: 1_900_000_000 },
            next_invoice_estimate: { sub_total: 1600, total: 1440, amount_due: 1440, line_items: [] },
          },
        },
      },
      { method: "POST", path: "/api/v2/estimates/update_subscription" },
    );
    const discounted = await adapter.estimateSubscriptionUpdate(customerId, subscription.id, {
      planId: "core-monthly",
      planQuantity: 4,
    });
    expect(discounted.nextBilling).toEqual({ at: new Date(1_900_000_000_000), amount: 1440, amountDue: 1440 });
    expect([requestsTo("GET", "/api/v2/plans"), requestsTo("GET", "/api/v2/addons")]).toEqual([plans, addons]);
  });

  it("lists the catalogue once for many estimates that invoice now, not twice per estimate", async () => {
    const adapter = billing();
    const before = requestsTo("GET", "/api/v2/plans") + requestsTo("GET", "/api/v2/addons");
    for (const planQuantity of [1, 2, 3]) {
      const estimate = await adapter.estimateNewSubscription({
        planId: "core-monthly",
        planQuantity,
        addons: [{ id: "gatekeeper-cloud-monthly", quantity: 1 }],
      });
      // Invoiced now, so Chargebee gives no next-invoice estimate: the renewal is at list prices.
      expect(estimate.nextBilling?.amount).toBe(planQuantity * 400 + 9900);
    }
    expect(requestsTo("GET", "/api/v2/plans") + requestsTo("GET", "/api/v2/addons") - before).toBe(2);
  });
});

describe("credits", () => {
  it("counts promotional credits and excess payments in the balance, as Chargebee uses them", async () => {
    const { customerId } = await customerWithCard();
    await fake.grantCredits(customerId, { promotional: 1500, excess: 500 });
    expect((await billing().retrieveCustomer(customerId)).creditBalance).toBe(2000);
    const estimate = await billing().estimateNewSubscription({ customerId, planId: "core-monthly", planQuantity: 10 });
    expect(estimate).toMatchObject({ total: 4000, creditsApplied: 2000, amountDue: 2000, creditBalance: 0 });
  });
});

describe("lists", () => {
  it("reads every page of a list", async () => {
    const { customerId, source } = await customerWithCard();
    const [row] = await db.select().from(billingPaymentSources).where(eq(billingPaymentSources.id, source.id));
    await db
      .insert(billingPaymentSources)
      .values(Array.from({ length: 119 }, (_, index) => ({ ...row, id: `src_${customerId}_${index}` })));
    expect(await billing().listPaymentSources(customerId)).toHaveLength(120);
    expect(fake.lastRequest("GET", "/api/v2/payment_sources")?.params).toMatchObject({ limit: "100", offset: "100" });
  });
});

describe("hardware invoices after Chargebee's idempotency window", () => {
  it("finds the invoice a key made once Chargebee has forgotten the key", async () => {
    const { customerId, source } = await customerWithCard();
    const order = {
      customerId,
      paymentSourceId: source.id,
      hardware: [{ id: "halberd-rechargeable-token", quantity: 2 }],
    };
    const key = jobKey("purchase-hardware");
    const invoice = await billing().createHardwareInvoice(order, key);
    const later = Date.now() + IDEMPOTENCY_WINDOW_MS + 60_000;
    chargebeeNow = () => new Date(later);
    // The key is too old for a replay: asking again could only charge again, so the job asks what it made.
    await expect(billing().createHardwareInvoice(order, key)).rejects.toMatchObject({ kind: "final" });
    expect(await billing().findInvoiceByKey(customerId, key)).toMatchObject({ id: invoice.id, total: 9750 });
    expect(await billing().findInvoiceByKey(customerId, jobKey("purchase-hardware"))).toBeNull();
  });
});

describe("failures", () => {
  it("shows a card's decline reason as the gateway gave it", async () => {
    // Chargebee's own sample of a payment failure (API error handling page).
    fake.answerNextWith(
      {
        status: 400,
        json: {
          message:
            "Subscription cannot be created as we are not able to collect EUR 10,00 from your card on file. Error message: (card_declined) Your card was declined.",
          type: "payment",
          api_error_code: "payment_processing_failed",
          error_cause_id: "gateway.general.decline",
          http_status_code: 400,
        },
      },
      { method: "POST", path: "/api/v2/invoices" },
    );
    await expect(
      billing().createHardwareInvoice(
        { customerId: demoCustomer, paymentSourceId: "src_demo_visa", hardware: [{ id: "usb-sensor", quantity: 1 }] },
        "declined-order",
      ),
    ).rejects.toMatchObject({
      kind: "final",
      code: "payment_processing_failed",
      providerMessage: "Your card was declined.",
    });
  });

  it("keeps any other Chargebee message from customers, and in the log", async () => {
    const logs = captureLogs();
    const message = "addons[quantity][0] : This param should not be sent for on_off addon type";
    fake.answerNextWith({
      status: 400,
      json: {
        message,
        type: "invalid_request",
        api_error_code: "param_wrong_value",
        param: "addons[quantity][0]",
        http_status_code: 400,
      },
    });
    const error = await billing()
      .listPlans()
      .catch((failure: unknown) => failure);
    expect(error).toMatchObject({ kind: "final", code: "param_wrong_value", providerMessage: undefined });
    expect((error as Error).message).toContain(message);
    logs.restore();
    expect(logs.events("chargebee-refused")).toEqual([
      expect.objectContaining({ operation: "plan.list", code: "param_wrong_value", msg: message }),
    ]);
  });

  it("reports a busy Chargebee as retryable", async () => {
    vi.spyOn(console, "warn").mockImplementation(() => undefined);
    await injectBillingFault(db, "listPlans", { kind: "retryable", message: "Site is busy." });
    await expect(billing().listPlans()).rejects.toMatchObject({ kind: "retryable", providerMessage: undefined });
  });

  it("gives no message for an HTML error page: a read may be retried, a write may have happened", async () => {
    fake.answerNextWith({ status: 404, html: "<html><body>Not Found</body></html>" });
    const read = await billing()
      .listAddons()
      .catch((error: unknown) => error);
    expect(read).toMatchObject({ kind: "retryable", providerMessage: undefined });
    fake.answerNextWith({ status: 502, html: "<html><body>Bad Gateway</body></html>" });
    await expect(billing().updateCustomer(demoCustomer, PROFILE)).rejects.toMatchObject({
      kind: "unknown",
      providerMessage: undefined,
    });
  });

  it("turns a timeout into retryable for reads and unknown for writes", async () => {
    await injectBillingFault(db, "listAddons", { mode: "hang", hangMs: 4_000 });
    await expect(billing().listAddons()).rejects.toMatchObject({ kind: "retryable" });
    await injectBillingFault(db, "updateBillingInfo", { mode: "hang", hangMs: 4_000 });
    await expect(
      billing().updateBillingInfo(demoCustomer, {
        billingAddress: { line1: "1 Main" },
        vatNumber: null,
        vatNumberStatus: "unchecked",
      }),
    ).rejects.toMatchObject({
      kind: "unknown",
    });
  });

  it("refuses a wrong API key without showing Chargebee's words", async () => {
    vi.spyOn(console, "warn").mockImplementation(() => undefined);
    const wrongKey = createChargebeeBilling({ ...options, apiKey: "wrong" });
    await expect(wrongKey.listPlans()).rejects.toMatchObject({
      kind: "final",
      code: "api_authentication_failed",
      providerMessage: undefined,
    });
  });

  it("reports an unreachable Chargebee as retryable", async () => {
    const closed = await startChargebeeFake({ store: db, now: () => new Date() });
    await closed.close();
    const unreachable = createChargebeeBilling({
      ...options,
      endpoint: { protocol: "http", hostSuffix: "", port: closed.port },
    });
    await expect(unreachable.listPlans()).rejects.toMatchObject({ kind: "retryable", providerMessage: undefined });
  });
});

describe("the fake refuses what Chargebee refuses", () => {
  const refused = (code: string) => expect.objectContaining({ http_status_code: 400, api_error_code: code });

  it("a quantity for an on_off add-on, and none for a quantity add-on", async () => {
    await expect(
      raw().estimate.createSubscription({
        subscription: { plan_id: "core-monthly", plan_quantity: 1 },
        addons: [{ id: "gatekeeper-cloud-monthly", quantity: 1 }],
        invoice_immediately: true,
      }),
    ).rejects.toEqual(refused("param_wrong_value"));
    await expect(
      raw().estimate.createSubscription({
        subscription: { plan_id: "core-monthly", plan_quantity: 1 },
        event_based_addons: [
          { id: "usb-sensor", on_event: "subscription_creation", charge_once: true, charge_on: "on_event" },
        ],
        invoice_immediately: true,
      }),
    ).rejects.toEqual(refused("param_wrong_value"));
    expect(fake.refusals).toEqual([
      "POST /api/v2/estimates/create_subscription: addons[quantity][0] : This param should not be sent for on_off addon type",
      "POST /api/v2/estimates/create_subscription: event_based_addons[quantity][0] : cannot be blank",
    ]);
  });

  it("an idempotency key over 100 characters, or used again with other parameters or after 30 minutes", async () => {
    const profile = { first_name: "Dana", last_name: "W", email: "d@example.com", phone: "", company: "" };
    const id = `cust_keys_${Date.now()}`;
    const create = (key: string, fields = profile) =>
      raw().customer.create({ id, ...fields }, { "chargebee-idempotency-key": key });
    await expect(create("k".repeat(101))).rejects.toEqual(refused("invalid_request"));
    const first = await create("key-1");
    expect((await create("key-1")).customer).toEqual(first.customer);
    await expect(create("key-1", { ...profile, first_name: "Other" })).rejects.toEqual(refused("invalid_request"));
    chargebeeNow = () => new Date(Date.now() + IDEMPOTENCY_WINDOW_MS + 1_000);
    await expect(create("key-1")).rejects.toEqual(refused("invalid_request"));
    expect(fake.refusals).toHaveLength(3);
  });

  it("an existing customer id, a past start date and a parameter an endpoint does not have", async () => {
    const profile = { first_name: "Dana", last_name: "W", email: "d@example.com", phone: "", company: "" };
    await expect(
      raw().customer.create({ id: demoCustomer, ...profile }, { "chargebee-idempotency-key": "dup" }),
    ).rejects.toEqual(refused("duplicate_entry"));
    await expect(
      raw().estimate.createSubscription({
        subscription: { plan_id: "core-monthly", plan_quantity: 1, start_date: Math.floor(Date.now() / 1000) - 3600 },
      }),
    ).rejects.toEqual(refused("param_wrong_value"));
    await expect(raw().customer.update(demoCustomer, { first_name: "Dana", cf_favourite: "x" })).rejects.toEqual(
      refused("param_wrong_value"),
    );
    expect(fake.refusals).toHaveLength(3);
  });

  it("pages lists at 100 with next_offset", async () => {
    const addons = await raw().addon.list({ limit: 10, status: { is: "active" } });
    expect(addons.list).toHaveLength(10);
    expect(addons.next_offset).toBe("10");
    const rest = await raw().addon.list({ limit: 100, offset: addons.next_offset, status: { is: "active" } });
    expect(rest.list).toHaveLength(21);
    expect(rest.next_offset).toBeUndefined();
    await expect(raw().addon.list({ limit: 101, status: { is: "active" } })).rejects.toEqual(
      refused("param_wrong_value"),
    );
  });
});

describe("the billing fields and the VAT number", () => {
  it("are sent whole on every save: Chargebee removes what update_billing_info leaves out", async () => {
    const { customerId } = await customerWithCard();
    await billing().updateBillingInfo(customerId, {
      billingAddress: GERMAN_ADDRESS,
      vatNumber: GERMAN_VAT_NUMBER,
      vatNumberStatus: "valid",
    });
    expect(fake.lastRequest("POST", `/api/v2/customers/${customerId}/update_billing_info`)?.params).toEqual({
      billing_address: {
        first_name: "Jonas",
        last_name: "Becker",
        line1: "Hauptstraße 5",
        city: "Köln",
        zip: "50667",
        country: "DE",
      },
      vat_number: GERMAN_VAT_NUMBER,
    });
    // Chargebee checks the number itself (the fake with the embedded register).
    expect(await billing().retrieveCustomer(customerId)).toMatchObject({
      vatNumber: GERMAN_VAT_NUMBER,
      vatNumberStatus: "valid",
    });

    // The specification's call sends only the address: on a strict site the number is gone.
    await raw().customer.updateBillingInfo(customerId, { billing_address: { line1: "Ringstraße 9", country: "DE" } });
    expect(await billing().retrieveCustomer(customerId)).toMatchObject({
      vatNumber: null,
      billingAddress: { line1: "Ringstraße 9", country: "DE" },
    });
    expect((await billing().retrieveCustomer(customerId)).billingAddress?.city).toBeUndefined();
  });

  it("corrects an invoice with update_details, every field sent, and a refusal means a credit note", async () => {
    const { customerId, source } = await customerWithCard();
    await billing().updateBillingInfo(customerId, {
      billingAddress: GERMAN_ADDRESS,
      vatNumber: null,
      vatNumberStatus: "unchecked",
    });
    await billing().createSubscription(
      { customerId, planId: "core-monthly", planQuantity: 2, paymentSourceId: source.id, licenseAssignment: "Becker" },
      `${customerId}:subscribe`,
    );
    const [invoice] = await billing().listInvoices(customerId);
    const correction = {
      company: "Becker Praxis GmbH",
      billingAddress: { ...GERMAN_ADDRESS, line1: "Domplatz 1" },
      vatNumber: GERMAN_VAT_NUMBER,
      vatNumberStatus: "valid" as const,
      poNumber: "PO-9",
    };
    await billing().correctInvoice(customerId, invoice.id, correction, `${invoice.id}:correct`);
    expect(fake.lastRequest("POST", `/api/v2/invoices/${invoice.id}/update_details`)?.params).toEqual({
      billing_address: {
        first_name: "Jonas",
        last_name: "Becker",
        company: "Becker Praxis GmbH",
        line1: "Domplatz 1",
        city: "Köln",
        zip: "50667",
        country: "DE",
      },
      vat_number: GERMAN_VAT_NUMBER,
      po_number: "PO-9",
    });
    expect(await billing().listInvoiceRevisions(customerId, invoice.id)).toEqual([]);
    await expect(billing().invoicePdf(customerId, invoice.id, 1)).rejects.toMatchObject({ code: "not_found" });

    vi.spyOn(console, "warn").mockImplementation(() => undefined);
    fake.answerNextWith(
      {
        status: 400,
        json: {
          message: "Invoice details cannot be updated as the change affects the tax.",
          type: "invalid_request",
          api_error_code: "invalid_request",
          http_status_code: 400,
        },
      },
      { method: "POST", path: `/api/v2/invoices/${invoice.id}/update_details` },
    );
    await expect(
      billing().correctInvoice(customerId, invoice.id, { ...correction, poNumber: "PO-10" }, `${invoice.id}:again`),
    ).rejects.toMatchObject({ kind: "final", code: "credit_note_required" });
  });
});
