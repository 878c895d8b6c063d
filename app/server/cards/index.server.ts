import { db } from "~/server/platform/database/db.server";
import { env } from "~/server/platform/config/env.server";
import { createLocalCards } from "./local/provider.server";
import type { CardProvider } from "./port.server";
import { observedCalls } from "~/server/platform/provider-calls.server";
import { createStripeCards, stripeSdk } from "./stripe/adapter.server";

export * from "./port.server";

let provider: CardProvider | undefined;

/** The configured card provider (CARD_PROVIDER): the embedded test tokenizer unless Stripe is chosen. */
export function getCards(): CardProvider {
  provider ??= cardsAtStripe()
    ? observedCalls("stripe", createStripeCards(stripeOptions()), { embedded: false })
    : observedCalls("embedded-cards", createLocalCards({ store: db }), { embedded: true });
  return provider;
}

/** Starts loading the configured provider's SDK in the background (the embedded tokenizer has none). */
export function preloadCardsSdk(): void {
  if (cardsAtStripe()) stripeSdk.preload();
}

/** Whether cards are entered with Stripe.js (CARD_PROVIDER=stripe). */
export const cardsAtStripe = () => env.CARD_PROVIDER === "stripe";

function stripeOptions() {
  const { STRIPE_SECRET_KEY: secretKey, STRIPE_PUBLISHABLE_KEY: publishableKey, PUBLIC_URL: publicUrl } = env;
  // env.server refuses to start without them when CARD_PROVIDER=stripe; this only satisfies the types.
  if (!secretKey || !publishableKey || !publicUrl) throw new Error("Stripe is not configured.");
  return { secretKey, publishableKey, publicUrl, endpoint: env.STRIPE_API_URL };
}
