import type { CardHolder, CardProvider } from "~/server/cards/port.server";
import { db } from "~/server/platform/database/db.server";
import { answerSetup } from "~/server/providers/card-vault.server";

/** The one-time token of a card its bank saves outright (no authentication asked), for tests that need a card. */
export async function tokenOf(cards: CardProvider, form: FormData, holder: CardHolder, key: string): Promise<string> {
  const setup = await cards.setUpCard({ form, holder, returnUrl: "/account/cards/return" }, key);
  if (setup.status !== "succeeded") throw new Error(`The card was not saved outright: ${setup.status}`);
  return setup.token;
}

/** The one-time token of a card whose bank may ask when it is saved: the cardholder completes the bank's page. */
export async function authenticatedTokenOf(
  cards: CardProvider,
  form: FormData,
  holder: CardHolder,
  key: string,
): Promise<string> {
  const setup = await cards.setUpCard({ form, holder, returnUrl: "/account/cards/return" }, key);
  if (setup.status === "requires_action") await answerSetup(db, setup.setupId, "complete");
  const saved = setup.status === "requires_action" ? await cards.setupOutcome(setup.setupId) : setup;
  if (saved.status !== "succeeded") throw new Error(`The card was not saved: ${saved.status}`);
  return saved.token;
}
