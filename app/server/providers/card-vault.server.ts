import { and, eq, isNull } from "drizzle-orm";
import { cardTokens } from "~db/schema";
import type { PaymentCard } from "./card-gateway.server";
import { newId, type EmbeddedStore } from "./embedded.server";

/**
 * The embedded card gateway's vault, shared by the test tokenizer (which fills it) and the embedded
 * billing engine (which turns its tokens into payment sources), the way Chargebee reads cards from Stripe.
 */

/** Keeps a tokenized card and returns its one-time token. */
export function storeToken(store: EmbeddedStore, card: PaymentCard, now: Date): string {
  const id = newId("tok_local");
  store
    .insert(cardTokens)
    .values({ id, kind: "token", ...card, createdAt: now })
    .run();
  return id;
}

/** The card behind an unused one-time token, which is spent by this call; null when there is none. */
export function spendToken(store: EmbeddedStore, tokenId: string, now: Date): PaymentCard | null {
  const unused = and(eq(cardTokens.id, tokenId), eq(cardTokens.kind, "token"), isNull(cardTokens.usedAt));
  const row = store.select().from(cardTokens).where(unused).get();
  if (!row) return null;
  store.update(cardTokens).set({ usedAt: now }).where(eq(cardTokens.id, tokenId)).run();
  return cardOf(row);
}

/** A reusable payment method made from a one-time token (spending it), or null when the token is gone. */
export function paymentMethodFromToken(store: EmbeddedStore, tokenId: string, now: Date): string | null {
  const card = spendToken(store, tokenId, now);
  if (!card) return null;
  const id = newId("pm_local");
  store
    .insert(cardTokens)
    .values({ id, kind: "payment_method", ...card, createdAt: now })
    .run();
  return id;
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

/** The card of a payment method attached to this gateway customer, or null. */
export function attachedCard(
  store: EmbeddedStore,
  paymentMethodId: string,
  gatewayCustomer: string,
): PaymentCard | null {
  const row = store
    .select()
    .from(cardTokens)
    .where(
      and(
        eq(cardTokens.id, paymentMethodId),
        eq(cardTokens.kind, "payment_method"),
        eq(cardTokens.gatewayCustomer, gatewayCustomer),
      ),
    )
    .get();
  return row ? cardOf(row) : null;
}

/** The gateway customer that holds a billing customer's cards in the embedded gateway. */
export const gatewayCustomerFor = (billingCustomerId: string) => `cus_local_${billingCustomerId}`;

function cardOf(row: typeof cardTokens.$inferSelect): PaymentCard {
  const { brand, last4, expiryMonth, expiryYear, firstName, lastName } = row;
  return { brand, last4, expiryMonth, expiryYear, firstName, lastName };
}
