import { createServer, type Server } from "node:http";
import { tokenOf } from "../support/card-tokens";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { parseChargebeeWebhook, webhookAuthorized } from "~/server/billing/chargebee/events.server";
import type { BillingProvider, ProviderEvent } from "~/server/billing/port.server";
import { createLocalCards } from "~/server/cards/local/provider.server";
import { db } from "~/server/platform/database/db.server";
import { billingClock } from "~/server/platform/database/tables.server";
import { chargebeeBillingOf, startChargebeeFake, type ChargebeeFake } from "../fakes/chargebee";

/**
 * Chargebee's webhooks as the portal's route takes them: the basic auth of Chargebee's webhook settings, checked
 * against the configuration, and each body parsed into the port's event. Chargebee's events come from the
 * loopback fake, which posts what its engine recorded, also twice and out of order on demand.
 */
const CREDENTIALS = { username: "chargebee", password: "a-long-webhook-password" };
const basic = (credentials: string) => `Basic ${Buffer.from(credentials).toString("base64")}`;

describe("the webhook's basic auth", () => {
  it("lets in the configured user name and password, and nothing else", () => {
    expect(webhookAuthorized(basic("chargebee:a-long-webhook-password"), CREDENTIALS)).toBe(true);
    // The scheme is case-insensitive (RFC 7617).
    expect(webhookAuthorized(`basic ${btoa("chargebee:a-long-webhook-password")}`, CREDENTIALS)).toBe(true);
    for (const wrong of [
      basic("chargebee:a-long-webhook-passwore"),
      basic("chargebee:a-long-webhook-password "),
      basic("chargebeE:a-long-webhook-password"),
      basic("chargebee"),
      basic(":"),
      `Bearer ${btoa("chargebee:a-long-webhook-password")}`,
      "Basic !!!",
      "Basic",
      "",
    ]) {
      expect(webhookAuthorized(wrong, CREDENTIALS), wrong).toBe(false);
    }
    expect(webhookAuthorized(null, CREDENTIALS)).toBe(false);
    expect(webhookAuthorized(undefined, CREDENTIALS)).toBe(false);
    // No password configured lets nobody in, not even an empty one.
    expect(webhookAuthorized(basic("chargebee:"), { username: "chargebee", password: "" })).toBe(false);
  });
});

describe("a webhook's body", () => {
  const event = (event_type: string, content: Record<string, unknown>) =>
    JSON.stringify({
      id: `ev_${event_type}`,
      occurred_at: 1_780_000_000,
      source: "admin_console",
      object: "event",
      api_version: "v2",
      webhook_status: "scheduled",
      event_type,
      content,
    });
  const subscription = {
    id: "sub_1",
    customer_id: "cust_1",
    plan_id: "core-monthly",
    plan_quantity: 3,
    status: "active",
    current_term_start: 1_780_000_000,
    current_term_end: 1_782_592_000,
    resource_version: 1_780_000_000_123,
  };

  it("becomes the port's event, its type in the portal's terms and Chargebee's kept", () => {
    expect(
      parseChargebeeWebhook(event("subscription_reactivated", { subscription, customer: { id: "cust_1" } })),
    ).toEqual({
      id: "ev_subscription_reactivated",
      occurredAt: new Date(1_780_000_000_000),
      type: "subscription_reactivated",
      providerType: "subscription_reactivated",
      resourceType: "subscription",
      resourceId: "sub_1",
      resourceVersion: 1_780_000_000_123,
      customerId: "cust_1",
      subscription: expect.objectContaining({ id: "sub_1", status: "active", planQuantity: 3 }),
      invoice: null,
      paymentSource: null,
    });
    const started = parseChargebeeWebhook(event("subscription_started", { subscription }));
    expect(started).toMatchObject({ type: "subscription_changed", providerType: "subscription_started" });
    const card = parseChargebeeWebhook(
      event("payment_source_updated", {
        payment_source: {
          id: "pm_1",
          customer_id: "cust_1",
          type: "card",
          status: "expiring",
          reference_id: "cus_1/card_1",
          resource_version: 1_780_000_000_999,
        },
      }),
    );
    expect(card).toMatchObject({
      type: "payment_source_updated",
      resourceType: "payment_source",
      resourceId: "pm_1",
      resourceVersion: 1_780_000_000_999,
      customerId: "cust_1",
      paymentSource: { id: "pm_1", status: "expiring" },
    });
  });

  it("of a type the portal has no use for is kept as other, with its own type and customer", () => {
    expect(parseChargebeeWebhook(event("customer_changed", { customer: { id: "cust_9", email: "x@y.z" } }))).toEqual({
      id: "ev_customer_changed",
      occurredAt: new Date(1_780_000_000_000),
      type: "other",
      providerType: "customer_changed",
      resourceType: "other",
      resourceId: null,
      resourceVersion: null,
      customerId: "cust_9",
      subscription: null,
      invoice: null,
      paymentSource: null,
    });
    expect(parseChargebeeWebhook(event("coupon_created", { coupon: { id: "SPRING" } }))).toMatchObject({
      type: "other",
      providerType: "coupon_created",
      customerId: null,
    });
    // Its content is not read: a shape the portal does not know is no reason to refuse it.
    expect(
      parseChargebeeWebhook(event("subscription_ramp_created", { ramp: { id: "r1" }, subscription: { id: "sub_1" } })),
    ).toMatchObject({ type: "other", providerType: "subscription_ramp_created", subscription: null, customerId: null });
  });

  it("that is not a Chargebee event is refused, as malformed", () => {
    for (const body of [
      "not json",
      "[]",
      JSON.stringify({ occurred_at: 1, event_type: "subscription_created", content: {} }),
      JSON.stringify({ id: "ev_1", occurred_at: "yesterday", event_type: "subscription_created", content: {} }),
      event("subscription_changed", { subscription: { ...subscription, customer_id: undefined } }),
      event("invoice_generated", { invoice: { id: "1", customer_id: "cust_1", status: "paid" } }),
    ]) {
      expect(() => parseChargebeeWebhook(body), body).toThrow(
        expect.objectContaining({ kind: "final", code: "malformed_event" }),
      );
    }
  });
});

describe("Chargebee's webhooks from the loopback fake", () => {
  let fake: ChargebeeFake;
  let billing: BillingProvider;
  let endpoint: Server;
  /** What the endpoint received: each post's event, or its refusal. */
  let received: { status: number; event?: ProviderEvent }[] = [];
  let answer = 200;
  const clock = new Date("2026-04-01T00:00:00Z");
  let customers = 0;
  // Each history starts on April 1: the site's time machine at rest.
  beforeEach(async () => {
    await db.delete(billingClock);
  });

  beforeAll(async () => {
    fake = await startChargebeeFake({ store: db, now: () => clock });
    billing = chargebeeBillingOf(fake);
    // The portal's route in miniature: basic auth, then the body as the port's event.
    endpoint = createServer((request, response) => {
      let body = "";
      request.setEncoding("utf8");
      request.on("data", (chunk: string) => (body += chunk));
      request.on("end", () => {
        const status = webhookAuthorized(request.headers.authorization, CREDENTIALS) ? answer : 401;
        received.push({ status, event: status === 200 ? parseChargebeeWebhook(body) : undefined });
        response.writeHead(status).end();
      });
    });
    await new Promise<void>((resolve) => endpoint.listen(0, "127.0.0.1", resolve));
    fake.webhooks.configure({ url: `http://127.0.0.1:${(endpoint.address() as AddressInfo).port}/`, ...CREDENTIALS });
  });
  afterAll(async () => {
    await fake.close();
    await new Promise((resolve) => endpoint.close(resolve));
    expect(fake.refusals).toEqual([]);
  });

  /** A customer's monthly subscription whose card declines from its first renewal on; auto-renew off and on. */
  async function customerHistory() {
    const customerId = `cust_webhook_${++customers}`;
    await billing.ensureCustomer(
      customerId,
      { firstName: "Wes", lastName: "Hook", email: "wes@example.org", phone: "", company: "Hook Co" },
      `${customerId}:create`,
    );
    const cards = createLocalCards({ store: db, now: () => clock });
    const card = async (number: string, key: string) => {
      const form = new FormData();
      form.set("card_number", number);
      form.set("card_expiry", "12 / 34");
      form.set("card_cvc", "123");
      const tmpToken = await tokenOf(cards, form, { firstName: "Wes", lastName: "Hook" }, `${key}:token`);
      return billing.createPaymentSourceFromTempToken({ customerId, tmpToken, setAsPrimary: true }, key);
    };
    const good = await card("4242 4242 4242 4242", `${customerId}:good`);
    const subscription = await billing.createSubscription(
      { customerId, planId: "core-monthly", planQuantity: 3, paymentSourceId: good.id, licenseAssignment: "Hook Co" },
      `${customerId}:subscribe`,
    );
    await billing.cancelSubscriptionAtTermEnd(customerId, subscription.id, `${customerId}:off`);
    await billing.removeScheduledCancellation(customerId, subscription.id, `${customerId}:on`);
    const declining = await card("4000 0000 0000 0341", `${customerId}:declining`);
    await billing.overrideBillingProfile(customerId, subscription.id, {
      paymentSourceId: declining.id,
      autoCollection: true,
    });
    await billing.deleteLocalPaymentSource(customerId, good.id);
    await fake.advanceClock(30);
    return { customerId, subscription };
  }

  /** The events the endpoint took, of this customer, in the order they arrived. */
  const receivedOf = (customerId: string) =>
    received.flatMap(({ event }) => (event && event.customerId === customerId ? [event] : []));

  it("posts each event as it happened, with the basic auth configured; the body is the events list's event", async () => {
    const { customerId } = await customerHistory();
    received = [];
    const posted = await fake.webhooks.deliver();
    expect(posted.every(({ status }) => status === 200)).toBe(true);
    const events = receivedOf(customerId);
    expect(events.map((event) => [event.type, event.providerType])).toEqual([
      ["payment_source_added", "payment_source_added"],
      ["subscription_created", "subscription_created"],
      ["invoice_generated", "invoice_generated"],
      ["invoice_paid", "payment_succeeded"],
      ["subscription_cancellation_scheduled", "subscription_cancellation_scheduled"],
      ["subscription_scheduled_cancellation_removed", "subscription_scheduled_cancellation_removed"],
      ["payment_source_added", "payment_source_added"],
      ["subscription_changed", "subscription_changed"],
      ["payment_source_deleted", "payment_source_locally_deleted"],
      ["subscription_renewed", "subscription_renewed"],
      ["invoice_generated", "invoice_generated"],
      ["payment_failed", "payment_failed"],
    ]);
    // A webhook carries the same event as Chargebee's events list.
    const listed = (await billing.listEvents({ since: new Date("2026-04-01T00:00:00Z") })).events.filter(
      (event) => event.customerId === customerId,
    );
    expect(events).toEqual(listed);
    expect(events.at(-1)).toMatchObject({
      resourceType: "invoice",
      invoice: { purpose: "renewal", status: "payment_due", nextRetryAt: new Date("2026-05-02T00:00:00Z") },
      subscription: { status: "active", totalDues: 3 * 400 },
    });

    // Delivered once, each event is not posted again.
    received = [];
    await fake.webhooks.deliver();
    expect(receivedOf(customerId)).toEqual([]);
  });

  it("posts duplicates and out of order on demand; resource versions tell the newer from the older", async () => {
    const { customerId, subscription } = await customerHistory();
    received = [];
    const posted = await fake.webhooks.deliver({ duplicate: true, reversed: true });
    const events = receivedOf(customerId);
    expect(events).toHaveLength(2 * 12);
    expect(events[0]).toEqual(events[1]);
    expect(posted.filter(({ eventId }) => eventId === events[0].id)).toHaveLength(2);
    expect(events[0].type).toBe("payment_failed");

    // What an endpoint that keeps only the newest version of each subscription ends up with: the newest.
    const newest = new Map<string, ProviderEvent>();
    for (const event of events) {
      if (!event.subscription || event.subscription.id !== subscription.id) continue;
      const held = newest.get(event.subscription.id);
      if (!held?.subscription || event.subscription.resourceVersion > held.subscription.resourceVersion)
        newest.set(event.subscription.id, event);
    }
    expect(newest.get(subscription.id)?.subscription).toEqual(
      await billing.retrieveSubscription(customerId, subscription.id),
    );
  });

  it("is refused without the right credentials, and posted again until the endpoint takes it", async () => {
    const { customerId } = await customerHistory();
    received = [];
    for (const auth of ["wrong", "none"] as const) {
      const posted = await fake.webhooks.deliver({ auth });
      expect(posted.length).toBeGreaterThanOrEqual(12);
      expect(posted.every(({ status }) => status === 401)).toBe(true);
    }
    answer = 503;
    expect((await fake.webhooks.deliver()).every(({ status }) => status === 503)).toBe(true);
    answer = 200;
    expect(receivedOf(customerId)).toEqual([]);
    await fake.webhooks.deliver();
    expect(receivedOf(customerId)).toHaveLength(12);
  });
});
