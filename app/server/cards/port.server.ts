/**
 * The card port: setting up a card with the card provider (Stripe, or the embedded test tokenizer) so the
 * billing provider can store it, asking the cardholder's bank first when the bank wants to be asked (3-D
 * Secure). Raw card numbers reach the server only with the embedded tokenizer, which keeps nothing but brand,
 * last four digits and expiry; with Stripe the browser confirms a SetupIntent with Stripe.js (or, without
 * JavaScript, the cardholder enters the card on Stripe's Checkout page) and the server sees only its id.
 */

/** The holder and address fields of the card form. */
export interface CardHolder {
  firstName: string;
  lastName: string;
  addressLine1?: string;
  addressLine2?: string;
  city?: string;
  state?: string;
  zip?: string;
  country?: string;
}

/**
 * What the card entry needs in the browser: plain fields; or Stripe's card element with this key, the client
 * secret of the SetupIntent the browser confirms, and the absolute URL the bank's page returns to.
 */
export type CardEntryMode =
  { mode: "local" } | { mode: "stripe"; publishableKey: string; clientSecret: string; returnUrl: string };

/**
 * Whose card is set up: the billing customer, and the card gateway's customer that keeps its cards, when one is
 * known (the replaced card's); null for a first card, for which the gateway makes one.
 */
export interface CardOwner {
  billingCustomerId: string;
  gatewayCustomer: string | null;
}

/** What a card page needs to take a card: whose card, and where the bank's page sends the cardholder back to. */
export interface CardEntryRequest {
  /** Read only by a provider whose entry is made for the customer (Stripe's SetupIntent), so the others make none. */
  owner: () => Promise<CardOwner>;
  returnUrl: string;
}

/** A posted card form to set up, and where the bank's page sends the cardholder back to when it asks them. */
export interface CardSetupRequest {
  form: FormData;
  holder: CardHolder;
  /** An absolute URL or a path of the portal; the provider adds `setup_intent` and `redirect_status`. */
  returnUrl: string;
  /** Where a cardholder who gives up on the provider's own card page goes back to (a path of the portal). */
  cancelUrl: string;
  owner: () => Promise<CardOwner>;
}

/** A card the gateway keeps for its customer, which the billing provider stores as `<customer>/<id>`. */
export interface GatewayPaymentMethod {
  gatewayCustomer: string;
  id: string;
}

/**
 * What setting up a card came to, one of three: saved (a one-time token the billing provider turns into a
 * payment source, or a payment method the gateway already keeps for the customer); the bank asks the
 * cardholder to authenticate first (send them to `redirectUrl`; they come back to the return URL with the
 * setup's id); or declined, in the provider's words.
 */
export type CardSetup =
  | { status: "succeeded"; token: string }
  | { status: "succeeded"; paymentMethod: GatewayPaymentMethod }
  | { status: "requires_action"; setupId: string; redirectUrl: string }
  | { status: "declined"; code: string; message: string };

/**
 * The query parameters a provider's bank page adds to the return URL, as Stripe names them; Stripe's Checkout
 * page returns with its session's id instead (`checkout`), which names the setup until it is done.
 */
export const SETUP_RETURN = { setup: "setup_intent", status: "redirect_status", checkout: "session_id" } as const;

/** The query parameters a provider's bank page adds to a payment's return URL, as Stripe names them. */
export const PAYMENT_RETURN = { payment: "payment_intent", status: "redirect_status" } as const;

export interface CardProvider {
  readonly name: "local" | "stripe";
  /** What a rendered card form needs; the key is the form's, so a reload of the page makes one more at most. */
  entryFor(request: CardEntryRequest, idempotencyKey: string): Promise<CardEntryMode>;
  /**
   * Sets up the card of a posted card form: the embedded tokenizer reads and checks the card fields
   * (card_number, card_expiry, card_cvc); with Stripe the browser confirmed the SetupIntent and posts its id
   * (card_setup), or, without JavaScript, the setup waits on Stripe's Checkout page. A form that cannot reach
   * the provider fails with a CardError whose field is "card". The key makes a double submit of the same form
   * give the same setup.
   */
  setUpCard(request: CardSetupRequest, idempotencyKey: string): Promise<CardSetup>;
  /**
   * A setup the bank asked about, as it is now: succeeded once the cardholder completed the authentication,
   * declined when they failed it, still requires_action when they have not answered.
   */
  setupOutcome(setupId: string): Promise<CardSetup>;
  /** A reusable payment method made from a one-time token. */
  createPaymentMethod(token: string, idempotencyKey: string): Promise<{ id: string }>;
  /** Attaches a payment method to a gateway customer, so the billing provider can charge it. */
  attachPaymentMethod(paymentMethodId: string, gatewayCustomer: string, idempotencyKey: string): Promise<void>;
}

/** The form fields the card entry posts. */
export const CARD_FIELDS = {
  number: "card_number",
  expiry: "card_expiry",
  cvc: "card_cvc",
  /** Stripe's: the id of the SetupIntent the browser confirmed, or CHECKOUT_SETUP without JavaScript. */
  setup: "card_setup",
} as const;

/** The card_setup of a Stripe card form sent without JavaScript: the card is entered on Stripe's Checkout page. */
export const CHECKOUT_SETUP = "checkout";
