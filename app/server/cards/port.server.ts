/**
 * The card port: capturing a card with the card provider (Stripe, or the embedded test tokenizer) so the
 * billing provider can store it. Raw card numbers reach the server only with the embedded tokenizer,
 * which keeps nothing but brand, last four digits and expiry; with Stripe the browser's card element
 * turns the card into a token and the server sees only that.
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

export interface CardProvider {
  readonly name: "local" | "stripe";
  readonly entry: CardEntryMode;
  /**
   * The one-time card token from a posted card form: the embedded tokenizer reads and checks the card
   * fields (card_number, card_expiry, card_cvc); with Stripe the browser already made the token
   * (card_token). Fails with a CardError whose field is "card" and whose message is the provider's.
   * The key makes a double submit of the same form give the same token.
   */
  temporaryToken(form: FormData, holder: CardHolder, idempotencyKey: string): Promise<string>;
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
