/** What card entry says where it cannot work: Stripe's card element needs JavaScript. */
export const CARD_ENTRY_NEEDS_JAVASCRIPT = "Card entry needs JavaScript. Turn JavaScript on to add a card.";
