import { randomBytes } from "node:crypto";
import { z } from "zod";
import { startFake, type FakeRequest, type FakeResponse } from "./http";

/**
 * A wire-level fake of the Stripe calls the portal makes: customers; SetupIntents (created by the server,
 * confirmed by Stripe.js in the browser with a test payment method, the bank's 3-D Secure page answered by
 * the test); Checkout Sessions in setup mode (created by the server, completed by the test as the cardholder
 * on Stripe's page); and the legacy token's payment method and its attach. It checks the request shapes and
 * the Idempotency-Key, replays a repeated key, refuses what Stripe refuses (confirming a SetupIntent that
 * succeeded, an object of another key's account), and answers with Stripe's JSON, including its error bodies.
 */

export const FAKE_STRIPE_KEY = "sk_test_fake";
export const FAKE_PUBLISHABLE_KEY = "pk_test_fake";

/**
 * Stripe's test payment methods, as Stripe.js would make them from its test card numbers: saved outright
 * (4242), the bank asks when the card is saved (3184 asks on every payment, 3155 when saved), declined (0002).
 */
export const TEST_PAYMENT_METHODS = {
  pm_card_visa: { brand: "visa", last4: "4242", asks: false, declined: false },
  pm_card_authenticationRequired: { brand: "visa", last4: "3184", asks: true, declined: false },
  pm_card_authenticationRequiredOnSetup: { brand: "visa", last4: "3155", asks: true, declined: false },
  pm_card_chargeDeclined: { brand: "visa", last4: "0002", asks: false, declined: true },
} as const;
export type TestPaymentMethod = keyof typeof TEST_PAYMENT_METHODS;

/** Stripe's test card numbers, as the cardholder types them into Stripe's card field, for their payment methods. */
export const TEST_CARD_NUMBERS: Record<string, TestPaymentMethod> = {
  "4242424242424242": "pm_card_visa",
  "4000002760003184": "pm_card_authenticationRequired",
  "4000002500003155": "pm_card_authenticationRequiredOnSetup",
  "4000000000000002": "pm_card_chargeDeclined",
};

/**
 * Where Stripe's pages for the cardholder are: the bank's 3-D Secure page (hooks) and Checkout. The fake serves
 * them on its own port under the same paths, for a browser whose requests to these origins are routed to it.
 */
export const STRIPE_PAGES = { hooks: "https://hooks.stripe.com", checkout: "https://checkout.stripe.com" } as const;

/** Stripe's words for a number that is no card, on its card field and on Checkout. */
export const INVALID_NUMBER = "Your card number is invalid.";

/** Stripe's words for a failed authentication and a declined card. */
export const AUTHENTICATION_FAILED =
  "We are unable to authenticate your payment method. Please choose a different payment method and try again.";
export const DECLINED = "Your card was declined.";

/** A token the browser's card element would have made; `declined` is refused as Stripe refuses a declined card. */
interface FakeToken {
  brand: string;
  last4: string;
  declined?: boolean;
}

interface PaymentMethod {
  id: string;
  object: "payment_method";
  type: "card";
  card: { brand: string; last4: string; exp_month: number; exp_year: number };
  customer: string | null;
}

interface SetupError {
  type: "card_error";
  code: string;
  decline_code?: string;
  message: string;
}

interface SetupIntent {
  id: string;
  object: "setup_intent";
  client_secret: string;
  customer: string | null;
  usage: string;
  metadata: Record<string, string>;
  status: "requires_payment_method" | "requires_action" | "succeeded";
  payment_method: string | null;
  last_setup_error: SetupError | null;
  next_action:
    | { type: "redirect_to_url"; redirect_to_url: { url: string; return_url: string } }
    | { type: "use_stripe_sdk"; use_stripe_sdk: Record<string, string> }
    | null;
}

interface CheckoutSession {
  id: string;
  object: "checkout.session";
  mode: "setup";
  customer: string;
  status: "open" | "complete" | "expired";
  url: string | null;
  success_url: string;
  cancel_url: string;
  setup_intent: string | null;
  /** What the SetupIntent it makes on completion carries (setup_intent_data[metadata]). */
  setupMetadata: Record<string, string>;
}

const stripeError = (
  status: number,
  type: string,
  message: string,
  code?: string,
  param?: string,
  extra: Record<string, unknown> = {},
): FakeResponse => ({
  status,
  json: { error: { type, message, code, param, ...extra } },
});

const noSuch = (what: string, id: string, param?: string) =>
  stripeError(404, "invalid_request_error", `No such ${what}: '${id}'`, "resource_missing", param);

const randomId = (prefix: string) => `${prefix}${randomBytes(12).toString("hex")}`;

const metadata = z.record(z.string()).optional();

/** The paths of the bank's page and of a Checkout page, each followed by its SetupIntent's or session's id. */
const bankPath = "/3d_secure_2/authenticate/";
const checkoutPath = "/c/pay/";

/** Stripe.js in the browser: the publishable key in its form (as Stripe.js sends it) or as the bearer. */
const fromBrowser = (request: FakeRequest) =>
  request.params.key === FAKE_PUBLISHABLE_KEY || request.headers.authorization === `Bearer ${FAKE_PUBLISHABLE_KEY}`;

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`);

/** One of Stripe's pages for the cardholder, as plain HTML: a heading, what it says, and its form or links. */
const htmlPage = (title: string, body: string, status = 200): FakeResponse => ({
  status,
  html: `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title></head><body><main><h1>${escapeHtml(title)}</h1>${body}</main></body></html>`,
});

const seeOther = (location: string): FakeResponse => ({ status: 303, html: "", location });

/** A URL with these query parameters added, as Stripe adds its own to a return URL. */
const withQuery = (url: string, params: Record<string, string>) => {
  const target = new URL(url);
  for (const [name, value] of Object.entries(params)) target.searchParams.set(name, value);
  return target.href;
};

/** A card Stripe saved on a customer: a SetupIntent's payment method, once the SetupIntent succeeded. */
export interface SavedCard {
  id: string;
  gatewayCustomer: string;
  brand: string;
  last4: string;
}

/**
 * `onCardSaved` hears of every card a SetupIntent saves, before the request that saved it is answered (the card
 * gateway Chargebee reads cards from, in a test with both fakes).
 */
export async function startStripeFake({ onCardSaved }: { onCardSaved?: (card: SavedCard) => Promise<void> } = {}) {
  const tokens = new Map<string, FakeToken>();
  const customers = new Set<string>();
  const methods = new Map<string, PaymentMethod>();
  const setupIntents = new Map<string, SetupIntent>();
  const sessions = new Map<string, CheckoutSession>();
  const replays = new Map<string, FakeResponse>();
  const requests: { method: string; path: string; params: Record<string, unknown>; idempotencyKey?: string }[] = [];
  const shapeErrors: string[] = [];
  let nextResponse: FakeResponse | undefined;
  let base = "";
  /** What onCardSaved is still doing for the request being served. */
  const hearing: Promise<void>[] = [];

  const createParams = z.object({ type: z.literal("card"), card: z.object({ token: z.string() }).strict() }).strict();
  const attachParams = z.object({ customer: z.string() }).strict();
  const customerParams = z.object({ metadata }).strict();
  const setupIntentParams = z
    .object({
      customer: z.string(),
      usage: z.enum(["off_session", "on_session"]),
      allowed_payment_method_types: z.array(z.literal("card")),
      metadata,
    })
    .strict();
  const confirmParams = z
    .object({
      payment_method: z.string(),
      return_url: z.string().url().optional(),
      client_secret: z.string().optional(),
      // Stripe.js sends its publishable key in the form, not as a header (a header would need CORS's preflight).
      key: z.string().optional(),
    })
    .strict();
  const sessionParams = z
    .object({
      mode: z.literal("setup"),
      customer: z.string(),
      allowed_payment_method_types: z.array(z.literal("card")),
      setup_intent_data: z.object({ metadata }).strict().optional(),
      success_url: z.string().url().includes("{CHECKOUT_SESSION_ID}"),
      cancel_url: z.string().url(),
    })
    .strict();
  const retrieveParams = z.object({ expand: z.array(z.literal("setup_intent")).optional() }).strict();

  const shapeError = (request: FakeRequest, problem: string) => {
    shapeErrors.push(`${request.method} ${request.path}: ${problem}`);
    return stripeError(400, "invalid_request_error", problem, "parameter_unknown");
  };

  const noCustomer = (id: string) =>
    stripeError(400, "invalid_request_error", `No such customer: '${id}'`, "resource_missing", "customer");

  const attachNewMethod = (card: { brand: string; last4: string }, customer: string | null): PaymentMethod => {
    const method: PaymentMethod = {
      id: randomId("pm_"),
      object: "payment_method",
      type: "card",
      card: { brand: card.brand, last4: card.last4, exp_month: 12, exp_year: 2034 },
      customer,
    };
    methods.set(method.id, method);
    return method;
  };

  /**
   * Confirms a SetupIntent with a test payment method, as Stripe does: a card whose bank asks waits on the bank's
   * page (its redirect with a return_url, else Stripe.js's own handling); a declined card leaves it needing another
   * payment method, with the decline; any other is saved and attached to the SetupIntent's customer.
   */
  const confirm = (intent: SetupIntent, paymentMethod: string, returnUrl?: string): FakeResponse => {
    if (intent.status === "succeeded" || intent.status === "requires_action") {
      return stripeError(
        400,
        "invalid_request_error",
        `You cannot confirm this SetupIntent because it has a status of ${intent.status}.`,
        "setup_intent_unexpected_state",
        undefined,
        { setup_intent: intent },
      );
    }
    const card = TEST_PAYMENT_METHODS[paymentMethod as TestPaymentMethod] as
      (typeof TEST_PAYMENT_METHODS)[TestPaymentMethod] | undefined;
    if (!card) return noSuch("PaymentMethod", paymentMethod, "payment_method");
    if (card.declined) {
      intent.last_setup_error = {
        type: "card_error",
        code: "card_declined",
        decline_code: "generic_decline",
        message: DECLINED,
      };
      return stripeError(402, "card_error", DECLINED, "card_declined", undefined, {
        decline_code: "generic_decline",
        setup_intent: intent,
      });
    }
    const method = attachNewMethod(card, null);
    intent.payment_method = method.id;
    intent.last_setup_error = null;
    if (card.asks) {
      intent.status = "requires_action";
      intent.next_action = returnUrl
        ? {
            type: "redirect_to_url",
            redirect_to_url: { url: `${STRIPE_PAGES.hooks}${bankPath}${intent.id}`, return_url: returnUrl },
          }
        : { type: "use_stripe_sdk", use_stripe_sdk: { type: "three_d_secure_redirect" } };
    } else {
      succeed(intent);
    }
    return { status: 200, json: intent };
  };

  const succeed = (intent: SetupIntent) => {
    intent.status = "succeeded";
    intent.next_action = null;
    const method = intent.payment_method ? methods.get(intent.payment_method) : undefined;
    if (!method || !intent.customer) return;
    method.customer = intent.customer;
    const { brand, last4 } = method.card;
    if (onCardSaved) hearing.push(onCardSaved({ id: method.id, gatewayCustomer: intent.customer, brand, last4 }));
  };

  const makeSetupIntent = (customer: string, usage: string, meta: Record<string, string> = {}): SetupIntent => {
    const id = randomId("seti_");
    const intent: SetupIntent = {
      id,
      object: "setup_intent",
      client_secret: `${id}_secret_${randomBytes(8).toString("hex")}`,
      customer,
      usage,
      metadata: meta,
      status: "requires_payment_method",
      payment_method: null,
      last_setup_error: null,
      next_action: null,
    };
    setupIntents.set(id, intent);
    return intent;
  };

  const post = (request: FakeRequest): FakeResponse => {
    if (request.path === "/v1/customers") {
      const parsed = customerParams.safeParse(request.params);
      if (!parsed.success) return shapeError(request, parsed.error.message);
      const id = randomId("cus_");
      customers.add(id);
      return { status: 200, json: { id, object: "customer", metadata: parsed.data.metadata ?? {} } };
    }
    if (request.path === "/v1/setup_intents") {
      const parsed = setupIntentParams.safeParse(request.params);
      if (!parsed.success) return shapeError(request, parsed.error.message);
      if (!customers.has(parsed.data.customer)) return noCustomer(parsed.data.customer);
      return { status: 200, json: makeSetupIntent(parsed.data.customer, parsed.data.usage, parsed.data.metadata) };
    }
    const confirmed = /^\/v1\/setup_intents\/([^/]+)\/confirm$/.exec(request.path);
    if (confirmed) {
      const parsed = confirmParams.safeParse(request.params);
      if (!parsed.success) return shapeError(request, parsed.error.message);
      const intent = setupIntents.get(confirmed[1]);
      if (!intent) return noSuch("setupintent", confirmed[1]);
      // With a publishable key (Stripe.js in the browser) only the client secret opens the SetupIntent.
      if (fromBrowser(request) && parsed.data.client_secret !== intent.client_secret) {
        return noSuch("setupintent", confirmed[1]);
      }
      return confirm(intent, parsed.data.payment_method, parsed.data.return_url);
    }
    if (request.path === "/v1/checkout/sessions") {
      const parsed = sessionParams.safeParse(request.params);
      if (!parsed.success) return shapeError(request, parsed.error.message);
      if (!customers.has(parsed.data.customer)) return noCustomer(parsed.data.customer);
      const id = randomId("cs_test_");
      const session: CheckoutSession = {
        id,
        object: "checkout.session",
        mode: "setup",
        customer: parsed.data.customer,
        status: "open",
        url: `${STRIPE_PAGES.checkout}${checkoutPath}${id}`,
        success_url: parsed.data.success_url,
        cancel_url: parsed.data.cancel_url,
        setup_intent: null,
        setupMetadata: parsed.data.setup_intent_data?.metadata ?? {},
      };
      sessions.set(id, session);
      return { status: 200, json: sessionJson(session, false) };
    }
    if (request.path === "/v1/payment_methods") {
      const parsed = createParams.safeParse(request.params);
      if (!parsed.success) return shapeError(request, parsed.error.message);
      const token = tokens.get(parsed.data.card.token);
      if (!token)
        return stripeError(
          400,
          "invalid_request_error",
          `No such token: '${parsed.data.card.token}'`,
          "resource_missing",
          "card[token]",
        );
      if (token.declined) return stripeError(402, "card_error", DECLINED, "card_declined");
      tokens.delete(parsed.data.card.token);
      return { status: 200, json: attachNewMethod(token, null) };
    }
    const attach = /^\/v1\/payment_methods\/([^/]+)\/attach$/.exec(request.path);
    if (attach) {
      const parsed = attachParams.safeParse(request.params);
      if (!parsed.success) return shapeError(request, parsed.error.message);
      const method = methods.get(attach[1]);
      if (!method) return noSuch("PaymentMethod", attach[1]);
      if (!customers.has(parsed.data.customer)) return noCustomer(parsed.data.customer);
      method.customer = parsed.data.customer;
      return { status: 200, json: method };
    }
    return { status: 404, html: "<html><body>Not Found</body></html>" };
  };

  const sessionJson = (session: CheckoutSession, expand: boolean) => {
    const { setupMetadata: _metadata, ...json } = session;
    const intent = expand && session.setup_intent ? setupIntents.get(session.setup_intent) : undefined;
    return { ...json, setup_intent: intent ?? session.setup_intent };
  };

  const get = (request: FakeRequest): FakeResponse => {
    const parsed = retrieveParams.safeParse(request.params);
    if (!parsed.success) return shapeError(request, parsed.error.message);
    const expand = parsed.data.expand ?? [];
    const intent = /^\/v1\/setup_intents\/([^/]+)$/.exec(request.path);
    if (intent) {
      if (expand.length > 0) return shapeError(request, "a SetupIntent has nothing the portal expands");
      const found = setupIntents.get(intent[1]);
      return found ? { status: 200, json: found } : noSuch("setupintent", intent[1]);
    }
    const session = /^\/v1\/checkout\/sessions\/([^/]+)$/.exec(request.path);
    if (session) {
      const found = sessions.get(session[1]);
      return found
        ? { status: 200, json: sessionJson(found, expand.includes("setup_intent")) }
        : noSuch("checkout.session", session[1]);
    }
    return { status: 404, html: "<html><body>Not Found</body></html>" };
  };

  const server = await startFake(async (request) => {
    const response = await serve(request);
    await Promise.all(hearing.splice(0));
    return response;
  });
  base = `http://127.0.0.1:${server.port}`;

  async function serve(request: FakeRequest): Promise<FakeResponse> {
    const idempotencyKey =
      typeof request.headers["idempotency-key"] === "string" ? request.headers["idempotency-key"] : undefined;
    requests.push({ method: request.method, path: request.path, params: request.params, idempotencyKey });
    const page = cardholderPage(request);
    if (page) return page;
    const browser = fromBrowser(request) && /\/confirm$/.test(request.path);
    if (request.headers.authorization !== `Bearer ${FAKE_STRIPE_KEY}` && !browser) {
      return stripeError(401, "invalid_request_error", "Invalid API Key provided.");
    }
    if (nextResponse) {
      const response = nextResponse;
      nextResponse = undefined;
      return response;
    }
    if (request.method === "GET") return get(request);
    if (request.method !== "POST") return { status: 405, html: "<html><body>Method Not Allowed</body></html>" };
    // Stripe.js sends no idempotency key; the portal's server sends one with every write.
    if (browser) return post(request);
    if (!idempotencyKey) return shapeError(request, "Idempotency-Key header missing");
    const replay = replays.get(idempotencyKey);
    if (replay) return replay;
    const response = post(request);
    if (response.status < 500) replays.set(idempotencyKey, response);
    return response;
  }

  const setupIntentOf = (id: string) => {
    const intent = setupIntents.get(id);
    if (!intent) throw new Error(`The fake has no SetupIntent ${id}`);
    return intent;
  };

  /** The cardholder on the bank's 3-D Secure page: Stripe's test page has 'Complete' and 'Fail' authentication. */
  const answerBank = (setupIntentId: string, answer: "complete" | "fail") => {
    const intent = setupIntentOf(setupIntentId);
    if (intent.status !== "requires_action") return;
    if (answer === "complete") return succeed(intent);
    intent.status = "requires_payment_method";
    intent.next_action = null;
    intent.payment_method = null;
    intent.last_setup_error = {
      type: "card_error",
      code: "setup_intent_authentication_failure",
      message: AUTHENTICATION_FAILED,
    };
  };

  /**
   * The cardholder saves a card on a Checkout page in setup mode (3-D Secure, when the bank asks, answered on
   * the page): the session completes with its SetupIntent, and the browser goes to the success URL, returned.
   */
  const completeCheckout = (sessionId: string, paymentMethod: TestPaymentMethod) => {
    const session = sessions.get(sessionId);
    if (!session || session.status !== "open") throw new Error(`No open Checkout Session ${sessionId}`);
    const intent = makeSetupIntent(session.customer, "off_session", session.setupMetadata);
    const confirmed = confirm(intent, paymentMethod, session.success_url);
    if (confirmed.status !== 200) throw new Error(`Checkout keeps its page open on a declined card`);
    if (intent.status === "requires_action") succeed(intent);
    session.status = "complete";
    session.url = null;
    session.setup_intent = intent.id;
    return session.success_url.replace("{CHECKOUT_SESSION_ID}", session.id);
  };

  /**
   * The bank's 3-D Secure page (Stripe's test page: 'Complete' or 'Fail' authentication, which returns to the
   * SetupIntent's return URL with Stripe's parameters) and a Checkout page in setup mode (a card number, saved or
   * refused as Stripe's test cards are; 'Back' to the cancel URL). Undefined for any other path.
   */
  const cardholderPage = (request: FakeRequest): FakeResponse | undefined => {
    const answer = typeof request.params.answer === "string" ? request.params.answer : undefined;
    if (request.path.startsWith(bankPath)) {
      const intent = setupIntents.get(request.path.slice(bankPath.length));
      if (!intent) return htmlPage("Not found", "<p>No such authentication.</p>", 404);
      const returnUrl =
        intent.next_action?.type === "redirect_to_url" ? intent.next_action.redirect_to_url.return_url : undefined;
      if (intent.status !== "requires_action" || !returnUrl) {
        return htmlPage("3-D Secure authentication", "<p>This authentication was answered already.</p>");
      }
      if (request.method === "POST" && (answer === "complete" || answer === "fail")) {
        answerBank(intent.id, answer);
        return seeOther(
          withQuery(returnUrl, {
            setup_intent: intent.id,
            setup_intent_client_secret: intent.client_secret,
            redirect_status: answer === "complete" ? "succeeded" : "failed",
          }),
        );
      }
      return htmlPage(
        "3-D Secure authentication",
        `<p>Your bank asks you to confirm this card.</p><form method="post">` +
          `<button name="answer" value="complete">Complete authentication</button>` +
          `<button name="answer" value="fail">Fail authentication</button></form>`,
      );
    }
    if (!request.path.startsWith(checkoutPath)) return undefined;
    const session = sessions.get(request.path.slice(checkoutPath.length));
    if (!session) return htmlPage("Not found", "<p>No such Checkout Session.</p>", 404);
    if (session.status !== "open") {
      return htmlPage("This page has expired", "<p>The card entry at this page is no longer possible.</p>");
    }
    let refusal = "";
    if (request.method === "POST") {
      const number =
        typeof request.params.card_number === "string" ? request.params.card_number.replace(/\s/g, "") : "";
      const method = TEST_CARD_NUMBERS[number] as TestPaymentMethod | undefined;
      if (method && !TEST_PAYMENT_METHODS[method].declined) return seeOther(completeCheckout(session.id, method));
      refusal = `<p role="alert">${method ? DECLINED : INVALID_NUMBER}</p>`;
    }
    return htmlPage(
      "Set up a card",
      `${refusal}<form method="post"><label>Card number <input name="card_number" autocomplete="cc-number"></label>` +
        `<button>Save card</button></form><a href="${escapeHtml(session.cancel_url)}">Back</a>`,
    );
  };

  return {
    port: server.port,
    close: server.close,
    requests,
    shapeErrors,
    /** What Stripe.js would have made in the browser for this card. */
    addToken: (id: string, token: FakeToken) => tokens.set(id, token),
    addCustomer: (id: string) => customers.add(id),
    answerNextWith: (response: FakeResponse) => {
      nextResponse = response;
    },
    /**
     * Stripe.js's confirmCardSetup in the browser, over the wire with the publishable key and the client secret
     * (handleActions false, so a bank that asks answers with its page's URL for the return URL given).
     */
    async confirmInBrowser(clientSecret: string, paymentMethod: TestPaymentMethod | string, returnUrl?: string) {
      const id = clientSecret.split("_secret_")[0];
      const body = new URLSearchParams({
        payment_method: paymentMethod,
        client_secret: clientSecret,
        key: FAKE_PUBLISHABLE_KEY,
      });
      if (returnUrl) body.set("return_url", returnUrl);
      const response = await fetch(`${base}/v1/setup_intents/${id}/confirm`, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body,
      });
      return {
        status: response.status,
        body: (await response.json()) as { error?: { code?: string } } & Partial<SetupIntent>,
      };
    },
    answerBank,
    completeCheckout,
    /** A Checkout Session left until it expires (24 hours at Stripe). */
    expireCheckout(sessionId: string) {
      const session = sessions.get(sessionId);
      if (!session) throw new Error(`No Checkout Session ${sessionId}`);
      session.status = "expired";
      session.url = null;
    },
    /** The payment method as Stripe keeps it: whose customer it is attached to. */
    paymentMethod: (id: string) => methods.get(id),
    setupIntent: (id: string) => setupIntents.get(id),
  };
}

export type StripeFake = Awaited<ReturnType<typeof startStripeFake>>;
