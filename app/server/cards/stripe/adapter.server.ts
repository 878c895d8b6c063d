import type Stripe from "stripe";
import { CARD_ENTRY_NEEDS_JAVASCRIPT } from "~/domain/card-entry";
import type { ErrorKind, ProviderError } from "~/server/platform/provider-errors.server";
import { onFirstUse } from "~/server/platform/on-first-use.server";
import { CardError } from "../errors.server";
import {
  CARD_FIELDS,
  CHECKOUT_SETUP,
  SETUP_RETURN,
  type CardEntryMode,
  type CardEntryRequest,
  type CardOwner,
  type CardProvider,
  type CardSetup,
  type CardSetupRequest,
} from "../port.server";

export interface StripeOptions {
  secretKey: string;
  publishableKey: string;
  /** The portal's public origin: Stripe's pages send the cardholder back to absolute URLs on it. */
  publicUrl: string;
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
function cardErrorOf(sdk: typeof Stripe, operation: string, failure: unknown): ProviderError {
  if (!(failure instanceof sdk.errors.StripeError)) {
    return new CardError(`Stripe ${operation} failed: ${String(failure)}`, { kind: "unknown" });
  }
  const kind: ErrorKind =
    failure instanceof sdk.errors.StripeRateLimitError
      ? "retryable"
      : failure instanceof sdk.errors.StripeConnectionError || failure instanceof sdk.errors.StripeAPIError
        ? "unknown"
        : "final";
  return new CardError(`Stripe ${operation} failed: ${failure.message}`, {
    kind,
    // A connection error's text is the SDK's, not Stripe's.
    providerMessage: failure instanceof sdk.errors.StripeConnectionError ? undefined : failure.message,
    code: failure.code,
    field: failure instanceof sdk.errors.StripeCardError ? "card" : failure.param,
  });
}

/** A refusal shown next to the card field, in these words. */
const cardRefusal = (message: string, code?: string) =>
  new CardError(message, { kind: "final", providerMessage: message, code, field: "card" });

/** The metadata key that ties a SetupIntent to the billing customer it was made for. */
const OWNER_KEY = "billing_customer";

/** What a card page says when the browser posted a setup it never confirmed (Stripe.js failed part-way). */
export const SETUP_NOT_CONFIRMED = "The card was not confirmed with Stripe. Please enter it again.";
/** What a Checkout page that expired before the card was entered comes to. */
export const CHECKOUT_EXPIRED = "The card entry at Stripe expired before a card was saved. Please try again.";

/** Stripe's SDK, loaded on the first call or by the start-up's preload. */
export const stripeSdk = onFirstUse(() => import("stripe").then((module) => module.default));

const idOf = (value: string | { id: string } | null) => (typeof value === "string" ? value : (value?.id ?? null));

/**
 * The card port on Stripe's SetupIntents, made for the organization's Stripe customer and for charges without
 * the cardholder (usage off_session), so the bank is asked once, when the card is saved. With JavaScript the
 * card page holds a SetupIntent's client secret and Stripe.js confirms it (the number never reaches the portal);
 * the form posts the SetupIntent's id. Without JavaScript the cardholder enters the card on a Checkout page in
 * setup mode, which returns with its session's id. A SetupIntent that succeeded has attached its payment method
 * to the customer, which the billing provider then stores as `<customer>/<payment method>`.
 */
class StripeCards implements CardProvider {
  readonly name = "stripe";
  private client: Stripe | undefined;

  constructor(private readonly options: StripeOptions) {}

  private async call<T>(operation: string, run: (stripe: Stripe) => Promise<T>): Promise<T> {
    const sdk = await stripeSdk();
    const { secretKey, maxNetworkRetries, timeoutMs, endpoint } = this.options;
    this.client ??= new sdk(secretKey, { maxNetworkRetries, timeout: timeoutMs, ...endpoint });
    try {
      return await run(this.client);
    } catch (failure) {
      throw cardErrorOf(sdk, operation, failure);
    }
  }

  private absolute(path: string): string {
    return new URL(path, this.options.publicUrl).href;
  }

  /**
   * The Stripe customer the card is set up for: the replaced card's, or a new one for a first card, keyed by the
   * billing customer so the pages of one day's first card share one (Stripe keeps a key for a day).
   */
  private async gatewayCustomerOf(owner: CardOwner): Promise<string> {
    if (owner.gatewayCustomer) return owner.gatewayCustomer;
    const customer = await this.call("customers.create", (stripe) =>
      stripe.customers.create(
        { metadata: { [OWNER_KEY]: owner.billingCustomerId } },
        { idempotencyKey: `${owner.billingCustomerId}:gateway-customer` },
      ),
    );
    return customer.id;
  }

  async entryFor({ owner, returnUrl }: CardEntryRequest, idempotencyKey: string): Promise<CardEntryMode> {
    const whose = await owner();
    const customer = await this.gatewayCustomerOf(whose);
    const intent = await this.call("setup_intents.create", (stripe) =>
      stripe.setupIntents.create(
        {
          customer,
          usage: "off_session",
          allowed_payment_method_types: ["card"],
          metadata: { [OWNER_KEY]: whose.billingCustomerId },
        },
        { idempotencyKey: `${idempotencyKey}:setup-intent` },
      ),
    );
    if (!intent.client_secret)
      throw new CardError("Stripe made a SetupIntent without a client secret.", { kind: "final" });
    return {
      mode: "stripe",
      publishableKey: this.options.publishableKey,
      clientSecret: intent.client_secret,
      returnUrl: this.absolute(returnUrl),
    };
  }

  async setUpCard(request: CardSetupRequest, idempotencyKey: string): Promise<CardSetup> {
    const posted = request.form.get(CARD_FIELDS.setup);
    if (posted === CHECKOUT_SETUP) return this.checkout(request, idempotencyKey);
    // Nothing posted means the card element never ran and the form was not Stripe's no-JavaScript one.
    if (typeof posted !== "string" || !posted.startsWith("seti_")) throw cardRefusal(CARD_ENTRY_NEEDS_JAVASCRIPT);
    const { billingCustomerId } = await request.owner();
    const intent = await this.retrieveSetupIntent(posted);
    // An id from a form is never trusted on its own: the SetupIntent must have been made for this customer.
    if (intent.metadata?.[OWNER_KEY] !== billingCustomerId) {
      throw cardRefusal(`No such setupintent: '${posted}'`, "resource_missing");
    }
    return this.outcomeOf(intent);
  }

  /** Without JavaScript: a Checkout page in setup mode, which returns with its session's id. */
  private async checkout(request: CardSetupRequest, idempotencyKey: string): Promise<CardSetup> {
    const whose = await request.owner();
    const customer = await this.gatewayCustomerOf(whose);
    // Stripe fills in {CHECKOUT_SESSION_ID} itself, so it is appended as written, not URL-encoded.
    const back = new URL(this.absolute(request.returnUrl));
    back.searchParams.delete(SETUP_RETURN.checkout);
    const successUrl = `${back.href}${back.search ? "&" : "?"}${SETUP_RETURN.checkout}={CHECKOUT_SESSION_ID}`;
    const session = await this.call("checkout.sessions.create", (stripe) =>
      stripe.checkout.sessions.create(
        {
          mode: "setup",
          customer,
          allowed_payment_method_types: ["card"],
          setup_intent_data: { metadata: { [OWNER_KEY]: whose.billingCustomerId } },
          success_url: successUrl,
          cancel_url: this.absolute(request.cancelUrl),
        },
        { idempotencyKey: `${idempotencyKey}:checkout` },
      ),
    );
    if (!session.url) throw new CardError("Stripe made a Checkout Session without a URL.", { kind: "final" });
    return { status: "requires_action", setupId: session.id, redirectUrl: session.url };
  }

  async setupOutcome(setupId: string): Promise<CardSetup> {
    if (!setupId.startsWith("cs_")) return this.outcomeOf(await this.retrieveSetupIntent(setupId));
    const session = await this.call("checkout.sessions.retrieve", (stripe) =>
      stripe.checkout.sessions.retrieve(setupId, { expand: ["setup_intent"] }),
    );
    if (session.status === "expired") return { status: "declined", code: "expired", message: CHECKOUT_EXPIRED };
    const intent = session.setup_intent;
    if (session.status !== "complete" || !intent) {
      if (!session.url) return { status: "declined", code: "expired", message: CHECKOUT_EXPIRED };
      return { status: "requires_action", setupId, redirectUrl: session.url };
    }
    return this.outcomeOf(typeof intent === "string" ? await this.retrieveSetupIntent(intent) : intent);
  }

  private retrieveSetupIntent(id: string) {
    return this.call("setup_intents.retrieve", (stripe) => stripe.setupIntents.retrieve(id));
  }

  /** A SetupIntent as the port's outcome: its card saved, the bank's page to go to, or the decline in Stripe's words. */
  private outcomeOf(intent: Stripe.SetupIntent): CardSetup {
    const paymentMethod = idOf(intent.payment_method);
    const customer = idOf(intent.customer);
    if (intent.status === "succeeded" && paymentMethod && customer) {
      return { status: "succeeded", paymentMethod: { gatewayCustomer: customer, id: paymentMethod } };
    }
    const redirectUrl = intent.next_action?.redirect_to_url?.url;
    if (intent.status === "requires_action" && redirectUrl) {
      return { status: "requires_action", setupId: intent.id, redirectUrl };
    }
    const error = intent.last_setup_error;
    if (intent.status === "requires_payment_method" && error?.message) {
      return { status: "declined", code: error.code ?? "card_declined", message: error.message };
    }
    throw cardRefusal(SETUP_NOT_CONFIRMED, intent.status);
  }

  async createPaymentMethod(token: string, idempotencyKey: string) {
    const method = await this.call("payment_methods.create", (stripe) =>
      stripe.paymentMethods.create({ type: "card", card: { token } }, { idempotencyKey }),
    );
    return { id: method.id };
  }

  async attachPaymentMethod(paymentMethodId: string, gatewayCustomer: string, idempotencyKey: string) {
    await this.call("payment_methods.attach", (stripe) =>
      stripe.paymentMethods.attach(paymentMethodId, { customer: gatewayCustomer }, { idempotencyKey }),
    );
  }
}

export function createStripeCards(options: StripeOptions): CardProvider {
  return new StripeCards(options);
}
