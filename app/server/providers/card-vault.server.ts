import { and, eq, isNull } from "drizzle-orm";
import { cardTokens } from "~/server/database/tables.server";
import { parseGatewayReference, type PaymentCard } from "./card-gateway.server";
import { newId, type EmbeddedStore } from "./embedded.server";
import { chargeDeclineMessage } from "~/server/cards/local/test-cards.server";

/**
 * The embedded card gateway's vault, shared by the test tokenizer (which fills it) and the embedded
 * billing engine (which turns its tokens into payment sources), the way Chargebee reads cards from Stripe.
 */

/** A card as the vault keeps it: what the gateway reports, and the decline every charge to it gets (if any). */
type VaultCard = PaymentCard & { chargeDecline?: string | null };

/** Keeps a tokenized card and returns its one-time token. */
export function storeToken(store: EmbeddedStore, card: VaultCard, now: Date): string {
  const id = newId("tok_local");
  store
    .insert(cardTokens)
    .values({ id, kind: "token", ...card, createdAt: now })
    .run();
  return id;
}

/** The card behind an unused one-time token, which is spent by this call; null when there is none. */
function spendToken(store: EmbeddedStore, tokenId: string, now: Date): VaultCard | null {
  const unused = and(eq(cardTokens.id, tokenId), eq(cardTokens.kind, "token"), isNull(cardTokens.usedAt));
  const row = store.select().from(cardTokens).where(unused).get();
  if (!row) return null;
  store.update(cardTokens).set({ usedAt: now }).where(eq(cardTokens.id, tokenId)).run();
  return { ...cardOf(row), chargeDecline: row.chargeDecline };
}

/** A reusable payment method made from a one-time token (spending it), or null when the token is gone. */
export function paymentMethodFromToken(store: EmbeddedStore, tokenId: string, now: Date): string | null {
  return keepFromToken(store, tokenId, now, "pm_local", null)?.id ?? null;
}

/**
 * A card saved on a gateway customer from a one-time token (spending it), as Stripe saves a card when a billing
 * provider creates a payment source from a token; null when the token is gone.
 */
export function cardFromToken(
  store: EmbeddedStore,
  tokenId: string,
  gatewayCustomer: string,
  now: Date,
): { id: string; card: PaymentCard } | null {
  return keepFromToken(store, tokenId, now, "card_local", gatewayCustomer);
}

function keepFromToken(
  store: EmbeddedStore,
  tokenId: string,
  now: Date,
  prefix: string,
  gatewayCustomer: string | null,
): { id: string; card: PaymentCard } | null {
  const spent = spendToken(store, tokenId, now);
  if (!spent) return null;
  const id = newId(prefix);
  store
    .insert(cardTokens)
    .values({ id, kind: "payment_method", ...spent, gatewayCustomer, createdAt: now })
    .run();
  const { chargeDecline: _decline, ...card } = spent;
  return { id, card };
}

/** Attaches a payment method to a gateway customer; false when there is no such payment method. */
export function attachPaymentMethod(store: EmbeddedStore, paymentMethodId: string, gatewayCustomer: string): boolean {
  const result = store
    .update(cardTokens)
    .set({ gatewayCustomer })
    .where(and(eq(cardTokens.id, paymentMethodId), eq(cardTokens.kind, "payment_method")))
    .run();
  return result.changes > 0;
}

/** The payment method, attached to this gateway customer. */
const attachedTo = (paymentMethodId: string, gatewayCustomer: string) =>
  and(
    eq(cardTokens.id, paymentMethodId),
    eq(cardTokens.kind, "payment_method"),
    eq(cardTokens.gatewayCustomer, gatewayCustomer),
  );

/** The card of a payment method attached to this gateway customer, or null. */
export function attachedCard(
  store: EmbeddedStore,
  paymentMethodId: string,
  gatewayCustomer: string,
): PaymentCard | null {
  const row = store.select().from(cardTokens).where(attachedTo(paymentMethodId, gatewayCustomer)).get();
  return row ? cardOf(row) : null;
}

/**
 * Why the gateway declines a charge to the card a payment source references (`<gateway customer>/<card>`), in
 * its own words; null when it takes the charge. A card the vault does not hold (one seeded without a token) is
 * charged as a good test card.
 */
export function chargeDeclineOf(store: EmbeddedStore, referenceId: string): { code: string; message: string } | null {
  const reference = parseGatewayReference(referenceId);
  if (!reference) return null;
  const row = store
    .select({ chargeDecline: cardTokens.chargeDecline })
    .from(cardTokens)
    .where(attachedTo(reference.paymentMethodId, reference.gatewayCustomer))
    .get();
  const code = row?.chargeDecline;
  return code ? { code, message: chargeDeclineMessage(code) } : null;
}

/** The gateway customer that holds a billing customer's cards in the embedded gateway. */
export const gatewayCustomerFor = (billingCustomerId: string) => `cus_local_${billingCustomerId}`;

function cardOf(row: typeof cardTokens.$inferSelect): PaymentCard {
  const { brand, last4, expiryMonth, expiryYear, firstName, lastName } = row;
  return { brand, last4, expiryMonth, expiryYear, firstName, lastName };
}
