/**
 * Shipping for a hardware order: the gatekeeper-shipping charge, quantity 1,
 * 750 cents per box of up to five items, at most 20 boxes; no shipping line when nothing is shipped.
 */
export const SHIPPING_ADDON_ID = "gatekeeper-shipping";
export const SHIPPING_CENTS_PER_BOX = 750;
export const ITEMS_PER_BOX = 5;
export const MAX_BOXES = 20;

export function shippingBoxes(hardwareCount: number): number {
  if (hardwareCount <= 0) return 0;
  return Math.min(MAX_BOXES, Math.ceil(hardwareCount / ITEMS_PER_BOX));
}

/** The shipping line for this many hardware items, or null when there is nothing to ship. */
export function shippingCharge(hardwareCount: number): { id: string; quantity: 1; unitPrice: number } | null {
  const boxes = shippingBoxes(hardwareCount);
  return boxes === 0 ? null : { id: SHIPPING_ADDON_ID, quantity: 1, unitPrice: boxes * SHIPPING_CENTS_PER_BOX };
}
