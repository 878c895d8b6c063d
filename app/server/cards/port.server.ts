/**
 * The card port: setting up a card with the card provider (Stripe, or the embedded test tokenizer) so the
 * billing provider can store it, asking the cardholder's bank first when the bank wants to be asked (3-D
 * Secure). Raw card numbers reach the server only with the embedded tokenizer, which keeps nothing but brand,
 * last four digits and expiry; with Stripe the browser's card element turns the card into a token and the
 * server sees only that.
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

/** What the card entry needs in the browser: plain fields, or Stripe's element with this key. */
export type CardEntryMode = { mode: "local" } | { mode: "stripe"; publishableKey: string };

/** A posted card form to set up, and where the bank's page sends the cardholder back to when it asks them. */
export interface CardSetupRequest {
  form: FormData;
  holder: CardHolder;
  /** An absolute URL or a path of the portal; the provider adds `setup_intent` and `redirect_status`. */
  returnUrl: string;
}

/**
 * What setting up a card came to, one of three: saved (a one-time token the billing provider turns into a
 * payment source); the bank asks the cardholder to authenticate first (send them to `redirectUrl`; they come
 * back to the return URL with the setup's id); or declined, in the provider's words.
 */
export type CardSetup =
  | { status: "succeeded"; token: string }
  | { status: "requires_action"; setupId: string; redirectUrl: string }
  | { status: "declined"; code: string; message: string };

/** The query parameters a provider's bank page adds to the return URL, as Stripe names them. */
export const SETUP_RETURN = { setup: "setup_intent", status: "redirect_status" } as const;

/** The query parameters a provider's bank page adds to a payment's return URL, as Stripe names them. */
export const PAYMENT_RETURN = { payment: "payment_intent", status: "redirect_status" } as const;

export interface CardProvider {
  readonly name: "local" | "stripe";
  readonly entry: CardEntryMode;
  /**
   * Sets up the card of a posted card form: the embedded tokenizer reads and checks the card fields
   * (card_number, card_expiry, card_cvc); with Stripe the browser already made the token (card_token). A form
   * that cannot reach the provider fails with a CardError whose field is "card". The key makes a double submit
   * of the same form give the same setup.
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
  token: "card_token",
} as const;
