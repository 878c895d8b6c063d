/** The payment step's rules, shared by every wizard that takes a payment. */
/** The part of an address these rules read. */
export interface AddressLike {
  firstName?: string | null;
  line1?: string | null;
}

const filled = (value: string | null | undefined) => Boolean(value?.trim());

/** A billing address counts once it has a street line; without one the panel asks to update it. */
export const isBillingAddressValid = (billing: AddressLike | null | undefined) => filled(billing?.line1);

/**
 * The billing and shipping pair is valid if billing is valid, or if shipping has a first name and a
 * street line (an empty shipping address means "same as billing").
 */
export const areAddressesValid = (billing: AddressLike | null | undefined, shipping: AddressLike | null | undefined) =>
  isBillingAddressValid(billing) || (filled(shipping?.firstName) && filled(shipping?.line1));

/** A card the wizards may charge: valid, or valid but expiring soon. */
export const isUsableSource = (source: { status: string }) => source.status === "valid" || source.status === "expiring";

/** The card the payment step starts with: the customer's primary one when usable, else the first usable one. */
export function preselectSource<Source extends { id: string; status: string }>(
  sources: Source[],
  primaryId: string | null,
): string | null {
  const usable = sources.filter(isUsableSource);
  return (usable.find((source) => source.id === primaryId) ?? usable[0])?.id ?? null;
}

/** Why the billing step's Add Card is disabled: a customer keeps at most one card. */
export const ONE_CARD_ONLY =
  "Currently only one credit card can be added. Please remove the existing card to use a different credit card.";
/** Next on the billing step with no card chosen. */
export const SELECT_PAYMENT_METHOD = "Please select a payment method.";
export const NO_PAYMENT_METHOD = "Please add and select a valid payment method.";
export const INVALID_ADDRESSES = "Please make sure billing & shipping address are valid.";

/** Why the payment step's Next button is disabled, as the page says it next to the button; empty when it is enabled. */
export function paymentStepBlockers(selectedSourceUsable: boolean, addressesValid: boolean): string[] {
  return [...(selectedSourceUsable ? [] : [NO_PAYMENT_METHOD]), ...(addressesValid ? [] : [INVALID_ADDRESSES])];
}
