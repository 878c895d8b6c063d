import type { CardHolder, CardProvider, CardSetup, CardSetupRequest } from "~/server/cards/port.server";
import { db } from "~/server/platform/database/db.server";
import { answerSetup } from "~/server/providers/card-vault.server";

/** A card form's setup as the account's card drawer asks for it; the embedded tokenizer reads no owner. */
export const setupRequest = (form: FormData, holder: CardHolder): CardSetupRequest => ({
  form,
  holder,
  returnUrl: "/account/cards/return",
  cancelUrl: "/account",
  owner: () => Promise.resolve({ billingCustomerId: "cust_tests", gatewayCustomer: null }),
});

/** The one-time token of a setup that succeeded (the embedded tokenizer's kind of saved card). */
export function savedToken(setup: CardSetup): string {
  if (setup.status !== "succeeded" || !("token" in setup)) throw new Error(`The card was not saved: ${setup.status}`);
  return setup.token;
}

/** The one-time token of a card its bank saves outright (no authentication asked), for tests that need a card. */
export async function tokenOf(cards: CardProvider, form: FormData, holder: CardHolder, key: string): Promise<string> {
  return savedToken(await cards.setUpCard(setupRequest(form, holder), key));
}

/** The one-time token of a card whose bank may ask when it is saved: the cardholder completes the bank's page. */
export async function authenticatedTokenOf(
  cards: CardProvider,
  form: FormData,
  holder: CardHolder,
  key: string,
): Promise<string> {
  const setup = await cards.setUpCard(setupRequest(form, holder), key);
  if (setup.status === "requires_action") await answerSetup(db, setup.setupId, "complete");
  return savedToken(setup.status === "requires_action" ? await cards.setupOutcome(setup.setupId) : setup);
}
