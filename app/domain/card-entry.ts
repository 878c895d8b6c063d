/** What card entry says where it cannot work: Stripe's card element needs JavaScript. */
export const CARD_ENTRY_NEEDS_JAVASCRIPT = "Card entry needs JavaScript. Turn JavaScript on to add a card.";

/** What Stripe's card entry says without JavaScript: the card is entered on Stripe's own page instead. */
export const CARD_ENTRY_AT_STRIPE = "You will enter the card on Stripe's secure page when you save.";
