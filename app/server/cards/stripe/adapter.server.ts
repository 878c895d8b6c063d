import Stripe from "stripe";
import { CARD_ENTRY_NEEDS_JAVASCRIPT } from "~/domain/card-entry";
import type { ErrorKind, ProviderError } from "~/server/platform/provider-errors.server";
import { CardError } from "../errors.server";
import { CARD_FIELDS, type CardProvider, type CardSetup, type CardSetupRequest } from "../port.server";

export interface StripeOptions {
  secretKey: string;
  publishableKey: string;
  /** Another API host, e.g. a local fake in tests. */
  endpoint?: { protocol: "http" | "https"; host: string; port: number };
  maxNetworkRetries?: number;
  timeoutMs?: number;
}

/**
 * Stripe's failure as a CardError: Stripe refused (card, request, authentication) is final with its
 * message; a rate limit is retryable; a lost connection or Stripe's own error may or may not have
 * taken effect, which the idempotency key makes safe to repeat.
 */
function cardErrorOf(operation: string, failure: unknown): ProviderError {
  if (!(failure instanceof Stripe.errors.StripeError)) {
    return new CardError(`Stripe ${operation} failed: ${String(failure)}`, { kind: "unknown" });
  }
  const kind: ErrorKind =
    failure instanceof Stripe.errors.StripeRateLimitError
      ? "retryable"
      : failure instanceof Stripe.errors.StripeConnectionError || failure instanceof Stripe.errors.StripeAPIError
        ? "unknown"
        : "final";
  return new CardError(`Stripe ${operation} failed: ${failure.message}`, {
    kind,
    // A connection error's text is the SDK's, not Stripe's.
    providerMessage: failure instanceof Stripe.errors.StripeConnectionError ? undefined : failure.message,
    code: failure.code,
    field: failure instanceof Stripe.errors.StripeCardError ? "card" : failure.param,
  });
}

/**
 * The card port on Stripe: Stripe.js in the browser turns the card into a token (the server never sees
 * the number); the server makes a payment method from it and attaches it to the Stripe customer that
 * Chargebee charges.
 */
class StripeCards implements CardProvider {
  readonly name = "stripe";
  readonly entry;
  private readonly stripe: Stripe;

  constructor(options: StripeOptions) {
    this.entry = { mode: "stripe", publishableKey: options.publishableKey } as const;
    this.stripe = new Stripe(options.secretKey, {
      maxNetworkRetries: options.maxNetworkRetries,
      timeout: options.timeoutMs,
      ...options.endpoint,
    });
  }

  async setUpCard({ form }: CardSetupRequest): Promise<CardSetup> {
    const token = form.get(CARD_FIELDS.token);
    // No token means the card element never ran: the page was used without JavaScript.
    if (typeof token !== "string" || !token.startsWith("tok_")) {
      const message = CARD_ENTRY_NEEDS_JAVASCRIPT;
      throw new CardError(message, { kind: "final", providerMessage: message, field: "card" });
    }
    return { status: "succeeded", token };
  }

  /** A card token never waits for the bank (Stripe's SetupIntents, which do, are not used yet): none to read. */
  async setupOutcome(setupId: string): Promise<CardSetup> {
    const message = `No such setupintent: '${setupId}'`;
    throw new CardError(message, { kind: "final", providerMessage: message, code: "resource_missing" });
  }

  async createPaymentMethod(token: string, idempotencyKey: string) {
    try {
      const method = await this.stripe.paymentMethods.create({ type: "card", card: { token } }, { idempotencyKey });
      return { id: method.id };
    } catch (failure) {
      throw cardErrorOf("payment_methods.create", failure);
    }
  }

  async attachPaymentMethod(paymentMethodId: string, gatewayCustomer: string, idempotencyKey: string) {
    try {
      await this.stripe.paymentMethods.attach(paymentMethodId, { customer: gatewayCustomer }, { idempotencyKey });
    } catch (failure) {
      throw cardErrorOf("payment_methods.attach", failure);
    }
  }
}

export function createStripeCards(options: StripeOptions): CardProvider {
  return new StripeCards(options);
}
