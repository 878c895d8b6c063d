import type { CardHolder, CardProvider } from "~/server/cards/port.server";

/** The one-time token of a card its bank saves outright (no authentication asked), for tests that need a card. */
export async function tokenOf(cards: CardProvider, form: FormData, holder: CardHolder, key: string): Promise<string> {
  const setup = await cards.setUpCard({ form, holder, returnUrl: "/account/cards/return" }, key);
  if (setup.status !== "succeeded") throw new Error(`The card was not saved outright: ${setup.status}`);
  return setup.token;
}
