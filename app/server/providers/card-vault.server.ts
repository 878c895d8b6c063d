import { and, eq, gt, isNull, ne, notExists } from "drizzle-orm";
import { affectedRows } from "~/server/platform/database/portal-database.server";
import { cardSetups, cardTokens } from "~/server/platform/database/tables.server";
import { parseGatewayReference, type PaymentCard } from "./card-gateway.server";
import { newId, type EmbeddedStore } from "./embedded.server";
import { CARD_MESSAGES, chargeDeclineMessage, type CardAuthentication } from "./test-cards.server";

/**
 * The embedded card gateway's vault, shared by the test tokenizer (which fills it) and the embedded
 * billing engine (which turns its tokens into payment sources), the way Chargebee reads cards from Stripe.
 */

/**
 * A card as the vault keeps it: what the gateway reports, the decline every charge to it gets (if any), and when
 * its bank asks the cardholder to authenticate (if ever).
 */
type VaultCard = PaymentCard & { chargeDecline?: string | null; authentication?: CardAuthentication | null };

/** Keeps a tokenized card and returns its one-time token. */
export async function storeToken(store: EmbeddedStore, card: VaultCard, now: Date): Promise<string> {
  const id = newId("tok_local");
  await store.insert(cardTokens).values({ id, kind: "token", ...card, createdAt: now });
  return id;
}

/** A card setup the bank asked about, as the gateway keeps it. */
export type VaultSetup = typeof cardSetups.$inferSelect;

/** The embedded gateway's bank page, where the cardholder completes or fails an authentication. */
export const bankPageUrl = (attemptId: string) => `/cards/authenticate/${encodeURIComponent(attemptId)}`;

/** How a setup's id starts (a token's starts otherwise), as Stripe's SetupIntents' start with `seti_`. */
export const SETUP_ID_PREFIX = "seti_local";

/** Keeps a setup of a stored token waiting for the cardholder on the bank page; its id. */
export async function startSetup(store: EmbeddedStore, tokenId: string, returnUrl: string, now: Date): Promise<string> {
  const id = newId(SETUP_ID_PREFIX);
  await store.insert(cardSetups).values({ id, tokenId, status: "requires_action", returnUrl, createdAt: now });
  return id;
}

export async function setupOf(store: EmbeddedStore, setupId: string): Promise<VaultSetup | null> {
  const [row] = await store.select().from(cardSetups).where(eq(cardSetups.id, setupId));
  return row ?? null;
}

/**
 * The bank page's answer to a setup: completed or failed. Only a setup still waiting takes it, in one statement,
 * so a reload of the page or a second tab answers nothing twice; the setup as it is afterwards (null when there
 * is none).
 */
export async function answerSetup(
  store: EmbeddedStore,
  setupId: string,
  outcome: "complete" | "fail",
): Promise<VaultSetup | null> {
  await store
    .update(cardSetups)
    .set({ status: outcome === "complete" ? "succeeded" : "failed" })
    .where(and(eq(cardSetups.id, setupId), eq(cardSetups.status, "requires_action")));
  return setupOf(store, setupId);
}

/** What the gateway says of a setup the cardholder failed to authenticate, as Stripe says it. */
export const SETUP_AUTHENTICATION_FAILED = {
  code: "setup_intent_authentication_failure",
  message: CARD_MESSAGES.authenticationFailed,
} as const;

/**
 * The card behind an unused one-time token, which is spent by this call; null when there is none. One statement
 * finds and spends it, so of two requests with one token only one gets the card. A token whose bank asked for
 * authentication is spent only once the cardholder completed it: no card is saved around the bank.
 */
async function spendToken(store: EmbeddedStore, tokenId: string, now: Date): Promise<VaultCard | null> {
  const unauthenticated = store
    .select({ id: cardSetups.id })
    .from(cardSetups)
    .where(and(eq(cardSetups.tokenId, tokenId), ne(cardSetups.status, "succeeded")));
  const unused = and(
    eq(cardTokens.id, tokenId),
    eq(cardTokens.kind, "token"),
    isNull(cardTokens.usedAt),
    notExists(unauthenticated),
  );
  const [row] = await store.update(cardTokens).set({ usedAt: now }).where(unused).returning();
  return row ? { ...cardOf(row), chargeDecline: row.chargeDecline, authentication: row.authentication } : null;
}

/** A reusable payment method made from a one-time token (spending it), or null when the token is gone. */
export async function paymentMethodFromToken(store: EmbeddedStore, tokenId: string, now: Date): Promise<string | null> {
  return (await keepFromToken(store, tokenId, now, "pm_local", null))?.id ?? null;
}

/**
 * A card saved on a gateway customer from a one-time token (spending it), as Stripe saves a card when a billing
 * provider creates a payment source from a token; null when the token is gone.
 */
export async function cardFromToken(
  store: EmbeddedStore,
  tokenId: string,
  gatewayCustomer: string,
  now: Date,
): Promise<{ id: string; card: PaymentCard } | null> {
  return keepFromToken(store, tokenId, now, "card_local", gatewayCustomer);
}

async function keepFromToken(
  store: EmbeddedStore,
  tokenId: string,
  now: Date,
  prefix: string,
  gatewayCustomer: string | null,
): Promise<{ id: string; card: PaymentCard } | null> {
  const spent = await spendToken(store, tokenId, now);
  if (!spent) return null;
  const id = newId(prefix);
  await store.insert(cardTokens).values({ id, kind: "payment_method", ...spent, gatewayCustomer, createdAt: now });
  const { chargeDecline: _decline, authentication: _authentication, ...card } = spent;
  return { id, card };
}

/** Attaches a payment method to a gateway customer; false when there is no such payment method. */
export async function attachPaymentMethod(
  store: EmbeddedStore,
  paymentMethodId: string,
  gatewayCustomer: string,
): Promise<boolean> {
  const result = await store
    .update(cardTokens)
    .set({ gatewayCustomer })
    .where(and(eq(cardTokens.id, paymentMethodId), eq(cardTokens.kind, "payment_method")));
  return affectedRows(result) > 0;
}

/** The payment method, attached to this gateway customer. */
const attachedTo = (paymentMethodId: string, gatewayCustomer: string) =>
  and(
    eq(cardTokens.id, paymentMethodId),
    eq(cardTokens.kind, "payment_method"),
    eq(cardTokens.gatewayCustomer, gatewayCustomer),
  );

/** The card of a payment method attached to this gateway customer, or null. */
export async function attachedCard(
  store: EmbeddedStore,
  paymentMethodId: string,
  gatewayCustomer: string,
): Promise<PaymentCard | null> {
  const [row] = await store.select().from(cardTokens).where(attachedTo(paymentMethodId, gatewayCustomer));
  return row ? cardOf(row) : null;
}

/**
 * Why the gateway declines a charge to the card a payment source references (`<gateway customer>/<card>`), in
 * its own words; null when it takes the charge. A card the vault does not hold (one seeded without a token) is
 * charged as a good test card.
 */
export async function chargeDeclineOf(
  store: EmbeddedStore,
  referenceId: string,
): Promise<{ code: string; message: string } | null> {
  const reference = parseGatewayReference(referenceId);
  if (!reference) return null;
  const [row] = await store
    .select({ chargeDecline: cardTokens.chargeDecline })
    .from(cardTokens)
    .where(attachedTo(reference.paymentMethodId, reference.gatewayCustomer));
  const code = row?.chargeDecline;
  return code ? { code, message: chargeDeclineMessage(code) } : null;
}

/** How a payment authentication's id starts, as Stripe's PaymentIntents' start with `pi_`. */
export const PAYMENT_ID_PREFIX = "pi_local";

/**
 * Whether a charge to the card a payment source references, made while the cardholder is present, needs their
 * authentication first: the bank of a card that asks on every payment asks then (one that asked only when the
 * card was saved lets it pass).
 */
export async function asksOnPayment(store: EmbeddedStore, referenceId: string): Promise<boolean> {
  const reference = parseGatewayReference(referenceId);
  if (!reference) return false;
  const [row] = await store
    .select({ authentication: cardTokens.authentication })
    .from(cardTokens)
    .where(attachedTo(reference.paymentMethodId, reference.gatewayCustomer));
  return row?.authentication === "always";
}

/**
 * Keeps a payment of `amount` to the card a payment source references waiting for the cardholder on the bank page,
 * like a PaymentIntent in `requires_action`; its id.
 */
export async function startPaymentAuthentication(
  store: EmbeddedStore,
  payment: { referenceId: string; amount: number; currency: string; returnUrl: string },
  now: Date,
): Promise<string> {
  const id = newId(PAYMENT_ID_PREFIX);
  await store.insert(cardSetups).values({
    id,
    tokenId: payment.referenceId,
    status: "requires_action",
    returnUrl: payment.returnUrl,
    amount: payment.amount,
    currency: payment.currency,
    createdAt: now,
  });
  return id;
}

/** How long a payment authentication lives, as Chargebee's payment intents do: an hour after it was made. */
export const PAYMENT_AUTHENTICATION_LIFETIME_MS = 60 * 60 * 1000;

/** The earliest making time of a payment authentication still alive at `now` (the engine's clock). */
const aliveSince = (now: Date) => new Date(now.getTime() - PAYMENT_AUTHENTICATION_LIFETIME_MS);

/**
 * Whether a payment authentication not yet charged has expired by `now`, the portal's clock that made it: then
 * the bank page answers nothing and no charge spends it. A card's setup does not expire.
 */
export const paymentExpired = (setup: VaultSetup, now: Date) =>
  setup.id.startsWith(PAYMENT_ID_PREFIX) && !setup.usedAt && setup.createdAt <= aliveSince(now);

/**
 * Spends an authorized payment on the charge it authorized (that card, that amount), not expired by `now`, in one
 * statement: true for the one charge that does, so an authorization pays one charge, never two.
 */
export async function spendPaymentAuthentication(
  store: EmbeddedStore,
  paymentId: string,
  charge: { referenceId: string; amount: number },
  now: Date,
): Promise<boolean> {
  const result = await store
    .update(cardSetups)
    .set({ usedAt: now })
    .where(
      and(
        eq(cardSetups.id, paymentId),
        eq(cardSetups.status, "succeeded"),
        eq(cardSetups.tokenId, charge.referenceId),
        eq(cardSetups.amount, charge.amount),
        isNull(cardSetups.usedAt),
        gt(cardSetups.createdAt, aliveSince(now)),
      ),
    );
  return affectedRows(result) > 0;
}

/** The gateway customer that holds a billing customer's cards in the embedded gateway. */
export const gatewayCustomerFor = (billingCustomerId: string) => `cus_local_${billingCustomerId}`;

function cardOf(row: typeof cardTokens.$inferSelect): PaymentCard {
  const { brand, last4, expiryMonth, expiryYear, firstName, lastName } = row;
  return { brand, last4, expiryMonth, expiryYear, firstName, lastName };
}
