import { createStripeCards } from "~/server/cards/stripe/adapter.server";
import { CARD_ENTRY_NEEDS_JAVASCRIPT } from "~/domain/card-entry";
import { FAKE_STRIPE_KEY, startStripeFake, type StripeFake } from "../fakes/stripe";

/** The Stripe adapter through the real SDK against a wire-level fake of Stripe's API. */
let fake: StripeFake;
const stripe = () =>
  createStripeCards({
    secretKey: FAKE_STRIPE_KEY,
    publishableKey: "pk_test_fake",
    endpoint: { protocol: "http", host: "127.0.0.1", port: fake.port },
    maxNetworkRetries: 0,
  });

beforeAll(async () => {
  fake = await startStripeFake();
  fake.addCustomer("cus_gatekeeper_1");
});
afterAll(() => fake.close());
afterEach(() => {
  expect(fake.shapeErrors).toEqual([]);
});

describe("the Stripe card provider", () => {
  it("hands the browser the publishable key for the card element", () => {
    expect(stripe().entry).toEqual({ mode: "stripe", publishableKey: "pk_test_fake" });
  });

  it("takes the token the card element made and never reads card fields", async () => {
    const form = new FormData();
    form.set("card_token", "tok_from_browser");
    form.set("card_number", "4242424242424242");
    expect(
      await stripe().setUpCard({ form, holder: { firstName: "A", lastName: "B" }, returnUrl: "/r" }, "form-1"),
    ).toEqual({
      status: "succeeded",
      token: "tok_from_browser",
    });
  });

  it("says card entry needs JavaScript when no token came", async () => {
    await expect(
      stripe().setUpCard(
        { form: new FormData(), holder: { firstName: "A", lastName: "B" }, returnUrl: "/r" },
        "form-2",
      ),
    ).rejects.toMatchObject({
      kind: "final",
      field: "card",
      providerMessage: CARD_ENTRY_NEEDS_JAVASCRIPT,
    });
  });

  it("creates a payment method from the token and attaches it, with the caller's idempotency keys", async () => {
    fake.addToken("tok_visa_1", { brand: "visa", last4: "4242" });
    const method = await stripe().createPaymentMethod("tok_visa_1", "replace-9:payment-method");
    expect(method.id).toMatch(/^pm_/);
    expect(fake.requests.at(-1)).toEqual({
      path: "/v1/payment_methods",
      params: { type: "card", card: { token: "tok_visa_1" } },
      idempotencyKey: "replace-9:payment-method",
    });
    // A repeat with the same key is Stripe's replay of the first answer.
    expect(await stripe().createPaymentMethod("tok_visa_1", "replace-9:payment-method")).toEqual(method);

    await stripe().attachPaymentMethod(method.id, "cus_gatekeeper_1", "replace-9:attach");
    expect(fake.requests.at(-1)).toEqual({
      path: `/v1/payment_methods/${method.id}/attach`,
      params: { customer: "cus_gatekeeper_1" },
      idempotencyKey: "replace-9:attach",
    });
  });

  it("reports a declined card on the card field with Stripe's message", async () => {
    fake.addToken("tok_declined", { brand: "visa", last4: "0002", declined: true });
    await expect(stripe().createPaymentMethod("tok_declined", "declined-1")).rejects.toMatchObject({
      name: "CardError",
      kind: "final",
      field: "card",
      code: "card_declined",
      providerMessage: "Your card was declined.",
    });
  });

  it("refuses unknown objects with Stripe's message", async () => {
    await expect(stripe().createPaymentMethod("tok_unknown", "unknown-1")).rejects.toMatchObject({
      kind: "final",
      code: "resource_missing",
      providerMessage: "No such token: 'tok_unknown'",
    });
    await expect(stripe().attachPaymentMethod("pm_unknown", "cus_gatekeeper_1", "unknown-2")).rejects.toMatchObject({
      kind: "final",
      providerMessage: "No such PaymentMethod: 'pm_unknown'",
    });
  });

  it("tells a rate limit (retry later) from a server error (may have happened)", async () => {
    fake.answerNextWith({ status: 429, json: { error: { type: "rate_limit_error", message: "Too many requests." } } });
    await expect(stripe().createPaymentMethod("tok_any", "busy-1")).rejects.toMatchObject({ kind: "retryable" });
    fake.answerNextWith({ status: 500, json: { error: { type: "api_error", message: "Something went wrong." } } });
    await expect(stripe().createPaymentMethod("tok_any", "broken-1")).rejects.toMatchObject({ kind: "unknown" });
  });
});
