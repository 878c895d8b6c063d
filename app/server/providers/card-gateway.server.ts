/**
 * What a billing provider and a card gateway share, as Chargebee reads the cards Stripe keeps: the card as
 * the gateway keeps it, and the reference a payment source holds to it. Neither port imports the other; both
 * take these from here.
 */

/** What the gateway keeps of a card: never its number. */
export interface PaymentCard {
  brand: string;
  last4: string;
  firstName: string;
  lastName: string;
  expiryMonth: number;
  expiryYear: number;
}

/**
 * A payment source's gateway reference `<gateway customer>/<payment method>` in its parts, or null when a
 * part is missing, which the portal reports as 'Invalid customer id'.
 */
export function parseGatewayReference(
  referenceId: string,
): { gatewayCustomer: string; paymentMethodId: string } | null {
  const [gatewayCustomer, paymentMethodId, ...rest] = referenceId.split("/");
  return gatewayCustomer && paymentMethodId && rest.length === 0 ? { gatewayCustomer, paymentMethodId } : null;
}

export const INVALID_CUSTOMER_ID = "Invalid customer id";
