import type { PaymentSourceView } from "./billing-views";

/** How the portal names a card: its brand as people write it, and which card a control or a row is about. */

/** The brands with a logo in public/card-brands, by their display name. */
export const CARD_BRANDS: Record<string, string> = {
  american_express: "American Express",
  cirrus: "Cirrus",
  diners_club: "Diners Club",
  discover: "Discover",
  maestro: "Maestro",
  mastercard: "Mastercard",
  paypal: "PayPal",
  visa: "Visa",
  western_union: "Western Union",
};

export const capitalise = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

export const brandName = (brand: string) => CARD_BRANDS[brand] ?? capitalise(brand.replace(/_/g, " "));

/** "Visa ending in 4242", for labels that must say which card a control is about. */
export const describeCard = (source: PaymentSourceView) =>
  source.card ? `${brandName(source.card.brand)} ending in ${source.card.last4}` : capitalise(source.type);
