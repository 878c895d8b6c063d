import { createStripeCards, CHECKOUT_EXPIRED } from "~/server/cards/stripe/adapter.server";
import { CARD_ENTRY_NEEDS_JAVASCRIPT } from "~/domain/card-entry";
import type { CardOwner, CardSetup } from "~/server/cards/port.server";
import { setupRequest } from "../support/card-tokens";
import { FAKE_PUBLISHABLE_KEY, FAKE_STRIPE_KEY, startStripeFake, type StripeFake } from "../fakes/stripe";

/** The Stripe adapter through the real SDK against a wire-level fake of Stripe's API. */
let fake: StripeFake;
const stripe = () =>
  createStripeCards({
    secretKey: FAKE_STRIPE_KEY,
    publishableKey: FAKE_PUBLISHABLE_KEY,
    publicUrl: "https://portal.example.com",
    endpoint: { protocol: "http", host: "127.0.0.1", port: fake.port },
    maxNetworkRetries: 0,
  });

const holder = { firstName: "A", lastName: "B" };
const firstCard: CardOwner = { billingCustomerId: "cust_first", gatewayCustomer: null };
const returnUrl = "/account/cards/return";

/** A card form as posted: card_setup, for this owner. */
function posted(setup: string | null, owner: CardOwner = firstCard) {
  const form = new FormData();
  if (setup !== null) form.set("card_setup", setup);
  return { ...setupRequest(form, holder), owner: () => Promise.resolve(owner) };
}

/** A card page for `owner`, rendered: its SetupIntent's client secret and id. */
async function cardPage(owner: CardOwner, key: string) {
  const entry = await stripe().entryFor({ owner: () => Promise.resolve(owner), returnUrl }, key);
  if (entry.mode !== "stripe") throw new Error("Stripe's entry is its element");
  return { ...entry, setupIntent: entry.clientSecret.split("_secret_")[0] };
}

function waiting(setup: CardSetup) {
  if (setup.status !== "requires_action") throw new Error(`not waiting: ${JSON.stringify(setup)}`);
  return setup;
}

beforeAll(async () => {
  fake = await startStripeFake();
  fake.addCustomer("cus_gatekeeper_1");
});
afterAll(() => fake.close());
afterEach(() => {
  expect(fake.shapeErrors).toEqual([]);
});

describe("the Stripe card provider", () => {
  it("makes the card page a SetupIntent for off-session charges, for a new Stripe customer of a first card", async () => {
    const page = await cardPage(firstCard, "page-1");
    expect(page).toMatchObject({
      mode: "stripe",
      publishableKey: FAKE_PUBLISHABLE_KEY,
      returnUrl: "https://portal.example.com/account/cards/return",
    });
    const intent = fake.setupIntent(page.setupIntent);
    expect(intent).toMatchObject({
      usage: "off_session",
      status: "requires_payment_method",
      metadata: { billing_customer: "cust_first" },
    });
    expect(intent?.customer).toMatch(/^cus_/);
    // A reload of the same page makes nothing new; the customer's next page uses the same Stripe customer.
    expect((await cardPage(firstCard, "page-1")).setupIntent).toBe(page.setupIntent);
    const next = await cardPage(firstCard, "page-2");
    expect(fake.setupIntent(next.setupIntent)?.customer).toBe(intent?.customer);
  });

  it("sets a replacing card up for the Stripe customer that keeps the replaced one", async () => {
    const customersMade = () => fake.requests.filter((request) => request.path === "/v1/customers").length;
    const before = customersMade();
    const page = await cardPage({ billingCustomerId: "cust_1", gatewayCustomer: "cus_gatekeeper_1" }, "page-3");
    expect(fake.setupIntent(page.setupIntent)?.customer).toBe("cus_gatekeeper_1");
    expect(customersMade()).toBe(before);
  });

  it("saves the card of a SetupIntent Stripe.js confirmed, as the payment method attached to the customer", async () => {
    const page = await cardPage(firstCard, "page-4");
    await fake.confirmInBrowser(page.clientSecret, "pm_card_visa", page.returnUrl);
    const setup = await stripe().setUpCard(posted(page.setupIntent), "form-4");
    const customer = fake.setupIntent(page.setupIntent)?.customer;
    expect(setup).toEqual({
      status: "succeeded",
      paymentMethod: { gatewayCustomer: customer, id: expect.stringMatching(/^pm_/) as string },
    });
    expect(fake.requests.at(-1)).toMatchObject({ method: "GET", path: `/v1/setup_intents/${page.setupIntent}` });
  });

  it("sends the cardholder to the bank's page Stripe names, which returns to the portal's return URL", async () => {
    const page = await cardPage(firstCard, "page-5");
    await fake.confirmInBrowser(page.clientSecret, "pm_card_authenticationRequiredOnSetup", page.returnUrl);
    const setup = waiting(await stripe().setUpCard(posted(page.setupIntent), "form-5"));
    expect(setup.setupId).toBe(page.setupIntent);
    expect(fake.setupIntent(page.setupIntent)?.next_action).toEqual({
      type: "redirect_to_url",
      redirect_to_url: { url: setup.redirectUrl, return_url: "https://portal.example.com/account/cards/return" },
    });
  });

  it("refuses a SetupIntent made for another customer, as if it did not exist", async () => {
    const page = await cardPage({ billingCustomerId: "cust_other", gatewayCustomer: null }, "page-6");
    await fake.confirmInBrowser(page.clientSecret, "pm_card_visa", page.returnUrl);
    await expect(stripe().setUpCard(posted(page.setupIntent), "form-6")).rejects.toMatchObject({
      kind: "final",
      field: "card",
      code: "resource_missing",
    });
  });

  it("refuses a SetupIntent the browser never confirmed", async () => {
    const page = await cardPage(firstCard, "page-7");
    await expect(stripe().setUpCard(posted(page.setupIntent), "form-7")).rejects.toMatchObject({
      kind: "final",
      field: "card",
      code: "requires_payment_method",
    });
  });

  it("is refused by Stripe when a SetupIntent that succeeded is confirmed again", async () => {
    const page = await cardPage(firstCard, "page-8");
    expect((await fake.confirmInBrowser(page.clientSecret, "pm_card_visa")).status).toBe(200);
    const again = await fake.confirmInBrowser(page.clientSecret, "pm_card_visa");
    expect(again).toMatchObject({ status: 400, body: { error: { code: "setup_intent_unexpected_state" } } });
    // Stripe.js needs the SetupIntent's own client secret.
    const forged = await fake.confirmInBrowser(`${page.setupIntent}_secret_guessed`, "pm_card_visa");
    expect(forged.status).toBe(404);
  });

  it("without JavaScript, sends the cardholder to a Checkout page in setup mode and saves its card on the return", async () => {
    const setup = waiting(await stripe().setUpCard(posted("checkout"), "form-9"));
    expect(setup.setupId).toMatch(/^cs_test_/);
    expect(fake.requests.at(-1)).toMatchObject({
      path: "/v1/checkout/sessions",
      params: {
        mode: "setup",
        allowed_payment_method_types: ["card"],
        setup_intent_data: { metadata: { billing_customer: "cust_first" } },
        success_url: "https://portal.example.com/account/cards/return?session_id={CHECKOUT_SESSION_ID}",
        cancel_url: "https://portal.example.com/account",
      },
      idempotencyKey: "form-9:checkout",
    });
    // A double submit of the form is the same page; back before entering a card, the page again.
    expect(await stripe().setUpCard(posted("checkout"), "form-9")).toEqual(setup);
    expect(await stripe().setupOutcome(setup.setupId)).toEqual(setup);

    const back = new URL(fake.completeCheckout(setup.setupId, "pm_card_authenticationRequired"));
    expect(back.pathname).toBe("/account/cards/return");
    expect(back.searchParams.get("session_id")).toBe(setup.setupId);
    const done = await stripe().setupOutcome(setup.setupId);
    if (done.status !== "succeeded" || !("paymentMethod" in done)) throw new Error("not saved");
    expect(fake.paymentMethod(done.paymentMethod.id)).toMatchObject({
      customer: done.paymentMethod.gatewayCustomer,
      card: { last4: "3184" },
    });
  });

  it("declines a Checkout page that expired before a card was entered", async () => {
    const setup = waiting(await stripe().setUpCard(posted("checkout"), "form-10"));
    fake.expireCheckout(setup.setupId);
    expect(await stripe().setupOutcome(setup.setupId)).toEqual({
      status: "declined",
      code: "expired",
      message: CHECKOUT_EXPIRED,
    });
  });

  it("says card entry needs JavaScript when the form carries no setup", async () => {
    await expect(stripe().setUpCard(posted(null), "form-11")).rejects.toMatchObject({
      kind: "final",
      field: "card",
      providerMessage: CARD_ENTRY_NEEDS_JAVASCRIPT,
    });
  });

  it("creates a payment method from the token and attaches it, with the caller's idempotency keys", async () => {
    fake.addToken("tok_visa_1", { brand: "visa", last4: "4242" });
    const method = await stripe().createPaymentMethod("tok_visa_1", "replace-9:payment-method");
    expect(method.id).toMatch(/^pm_/);
    expect(fake.requests.at(-1)).toMatchObject({
      path: "/v1/payment_methods",
      params: { type: "card", card: { token: "tok_visa_1" } },
      idempotencyKey: "replace-9:payment-method",
    });
    // A repeat with the same key is Stripe's replay of the first answer.
    expect(await stripe().createPaymentMethod("tok_visa_1", "replace-9:payment-method")).toEqual(method);

    await stripe().attachPaymentMethod(method.id, "cus_gatekeeper_1", "replace-9:attach");
    expect(fake.requests.at(-1)).toMatchObject({
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
