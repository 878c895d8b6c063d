import Chargebee from "chargebee";
import { createChargebeeBilling, type ChargebeeOptions } from "~/server/billing/chargebee/adapter.server";
import { clearBillingFaults, injectBillingFault } from "~/server/billing/local/faults.server";
import { createLocalCards } from "~/server/cards/local/provider.server";
import { db } from "~/server/db.server";
import {
  FAKE_API_KEY,
  FAKE_GATEWAY_ACCOUNT_ID,
  FAKE_SITE,
  startChargebeeFake,
  type ChargebeeFake,
} from "../fakes/chargebee";

/**
 * What the Chargebee adapter puts on the wire, and how Chargebee's failures reach the portal. The
 * behaviour itself is the contract suite's (contract-chargebee.test.ts).
 */
let fake: ChargebeeFake;
let options: ChargebeeOptions;

beforeAll(async () => {
  fake = await startChargebeeFake({ store: db, now: () => new Date() });
  options = {
    site: FAKE_SITE,
    apiKey: FAKE_API_KEY,
    gatewayAccountId: FAKE_GATEWAY_ACCOUNT_ID,
    endpoint: { protocol: "http", hostSuffix: "", port: fake.port },
    timeoutMs: 300,
  };
});
afterAll(() => fake.close());
afterEach(() => {
  clearBillingFaults(db);
  fake.shapeErrors.length = 0;
});

const billing = () => createChargebeeBilling(options);
const demoCustomer = "cust_demo_customer";

async function cardToken(key: string) {
  const form = new FormData();
  form.set("card_number", "4242424242424242");
  form.set("card_expiry", "12/34");
  form.set("card_cvc", "123");
  return createLocalCards({ store: db }).temporaryToken(form, { firstName: "Dana", lastName: "Whitfield" }, key);
}

describe("requests", () => {
  it("sends a new subscription with its one-time charges, shipping line, license and idempotency key", async () => {
    const source = (await billing().listPaymentSources(demoCustomer))[0];
    await billing().createSubscription(
      {
        customerId: demoCustomer,
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
      "order-42:create-subscription",
    );
    const sent = fake.lastRequest("POST", `/api/v2/customers/${demoCustomer}/subscriptions`);
    expect(sent?.idempotencyKey).toBe("order-42:create-subscription");
    expect(sent?.params).toEqual({
      plan_id: "advanced-monthly",
      plan_quantity: "5",
      auto_collection: "on",
      payment_source_id: source.id,
      coupon_ids: ["SAVE50"],
      addons: [{ id: "gatekeeper-cloud-monthly", quantity: "1" }],
      event_based_addons: [
        {
          id: "technical-support",
          quantity: "1",
          on_event: "subscription_creation",
          charge_once: "true",
          charge_on: "on_event",
        },
        {
          id: "halberd-rechargeable-token",
          quantity: "5",
          on_event: "subscription_creation",
          charge_once: "true",
          charge_on: "on_event",
        },
        {
          id: "gatekeeper-shipping",
          quantity: "1",
          unit_price: "750",
          on_event: "subscription_creation",
          charge_once: "true",
          charge_on: "on_event",
        },
      ],
      invoice_immediately: "true",
      meta_data: '{"license_assignment":"Northwind Clinics North","order_key":"order-42:create-subscription"}',
    });
  });

  it("asks for a new subscription's estimate in the query form Chargebee reads", async () => {
    await billing().estimateNewSubscription({
      customerId: demoCustomer,
      planId: "core-yearly",
      planQuantity: 3,
      startDate: new Date("2026-07-01T00:00:00Z"),
      shippingAddress: { firstName: "Dana", line1: "1 Pier", city: "Oakland" },
    });
    expect(fake.lastRequest("GET", `/api/v2/customers/${demoCustomer}/create_subscription_estimate`)?.params).toEqual({
      use_existing_balances: "true",
      invoice_immediately: "true",
      subscription: { plan_id: "core-yearly", plan_quantity: "3", start_date: String(Date.UTC(2026, 6, 1) / 1000) },
      shipping_address: { first_name: "Dana", line1: "1 Pier", city: "Oakland" },
    });
  });

  it("adds cards with the gateway account id and the caller's key", async () => {
    await billing().createPaymentSourceFromTempToken(
      { customerId: demoCustomer, tmpToken: await cardToken("wire-token"), setAsPrimary: false },
      "wire-card",
    );
    const sent = fake.lastRequest("POST", "/api/v2/payment_sources/create_using_temp_token");
    expect(sent?.idempotencyKey).toBe("wire-card");
    expect(sent?.params).toMatchObject({
      customer_id: demoCustomer,
      type: "card",
      gateway_account_id: FAKE_GATEWAY_ACCOUNT_ID,
      replace_primary_payment_source: "false",
    });
  });

  it("invoices hardware with the shipping line priced per box", async () => {
    const source = (await billing().listPaymentSources(demoCustomer))[0];
    await billing().createHardwareInvoice(
      { customerId: demoCustomer, paymentSourceId: source.id, hardware: [{ id: "usb-sensor", quantity: 101 }] },
      "trial-7:hardware",
    );
    expect(fake.lastRequest("POST", "/api/v2/invoices")?.params).toEqual({
      customer_id: demoCustomer,
      auto_collection: "on",
      payment_source_id: source.id,
      // 101 items need 21 boxes; shipping stops at 20.
      addons: [
        { id: "usb-sensor", quantity: "101" },
        { id: "gatekeeper-shipping", quantity: "1", unit_price: "15000" },
      ],
    });
  });

  it("has a fake that refuses what Chargebee would refuse", async () => {
    const chargebee = new Chargebee({
      site: FAKE_SITE,
      apiKey: FAKE_API_KEY,
      hostSuffix: "",
      protocol: "http",
      port: fake.port,
    });
    await expect(
      chargebee.customer.update(demoCustomer, { first_name: "Dana", cf_favourite: "x" }),
    ).rejects.toMatchObject({
      http_status_code: 400,
    });
    expect(fake.shapeErrors).toHaveLength(1);
  });
});

describe("failures", () => {
  it("carries Chargebee's message on a refusal", async () => {
    injectBillingFault(db, "createHardwareInvoice", { message: "Payment failed: card declined by the issuer." });
    const source = (await billing().listPaymentSources(demoCustomer))[0];
    await expect(
      billing().createHardwareInvoice(
        { customerId: demoCustomer, paymentSourceId: source.id, hardware: [{ id: "usb-sensor", quantity: 1 }] },
        "declined-order",
      ),
    ).rejects.toMatchObject({ kind: "final", providerMessage: "Payment failed: card declined by the issuer." });
  });

  it("reports a busy Chargebee as retryable", async () => {
    injectBillingFault(db, "listPlans", { kind: "retryable", message: "Site is busy." });
    await expect(billing().listPlans()).rejects.toMatchObject({ kind: "retryable", providerMessage: "Site is busy." });
  });

  it("gives no message for an HTML error page: a read may be retried, a write may have happened", async () => {
    fake.answerNextWith({ status: 404, html: "<html><body>Not Found</body></html>" });
    const read = await billing()
      .listAddons()
      .catch((error: unknown) => error);
    expect(read).toMatchObject({ kind: "retryable", providerMessage: undefined });
    fake.answerNextWith({ status: 502, html: "<html><body>Bad Gateway</body></html>" });
    const profile = {
      firstName: "Dana",
      lastName: "Whitfield",
      email: "customer@example.com",
      phone: "+1",
      company: "N",
    };
    await expect(billing().updateCustomer(demoCustomer, profile)).rejects.toMatchObject({
      kind: "unknown",
      providerMessage: undefined,
    });
  });

  it("turns a timeout into retryable for reads and unknown for writes", async () => {
    injectBillingFault(db, "listAddons", { mode: "hang", hangMs: 1000 });
    await expect(billing().listAddons()).rejects.toMatchObject({ kind: "retryable" });
    injectBillingFault(db, "updateBillingInfo", { mode: "hang", hangMs: 1000 });
    await expect(billing().updateBillingInfo(demoCustomer, { line1: "1 Main" })).rejects.toMatchObject({
      kind: "unknown",
    });
  });

  it("refuses a wrong API key with Chargebee's message", async () => {
    const wrongKey = createChargebeeBilling({ ...options, apiKey: "wrong" });
    await expect(wrongKey.listPlans()).rejects.toMatchObject({
      kind: "final",
      providerMessage: "Sorry, authentication failed. Invalid api key",
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
