import { shippingCharge } from "~/domain/shipping";
import { refused } from "./errors.server";
import type { Addon, ItemQuantity, NextBilling } from "./port.server";

/** A one-time charge of an order; `unitPrice` overrides the list price (the shipping line is priced per order). */
export interface OneTimeCharge extends ItemQuantity {
  unitPrice?: number;
}

/** Items the customer actually chose: a zero quantity means "not ordered", which providers reject. */
export function ordered(items: ItemQuantity[] | undefined): ItemQuantity[] {
  return (items ?? []).filter((item) => item.quantity > 0);
}

/**
 * An order's one-time charges, as every adapter sends them: the one-time add-ons, the hardware, and the
 * shipping line the hardware needs (quantity 1, priced per box of items).
 */
export function oneTimeCharges(order: { oneTimeAddons?: ItemQuantity[]; hardware?: ItemQuantity[] }): OneTimeCharge[] {
  const hardware = ordered(order.hardware);
  const shipping = shippingCharge(hardware.reduce((count, item) => count + item.quantity, 0));
  return [...ordered(order.oneTimeAddons), ...hardware, ...(shipping ? [shipping] : [])];
}

/**
 * An add-on that is present or absent (not charged per unit, Chargebee's on_off) is ordered once: quantity 1
 * means "present", and any other quantity is refused by every adapter alike (Chargebee takes no quantity
 * for it at all, so a head count or a second box could never be charged).
 */
export function checkOrderedOnce(addon: Pick<Addon, "id" | "chargedPerUnit">, quantity: number): void {
  if (!addon.chargedPerUnit && quantity !== 1) {
    throw refused(`The add-on ${addon.id} is ordered once; its quantity must be 1.`, "quantity_not_allowed", "addons");
  }
}

/** A hardware order's charges: the items and their shipping; an order of nothing is refused. */
export function hardwareCharges(hardware: ItemQuantity[]): OneTimeCharge[] {
  if (ordered(hardware).length === 0) throw refused("A hardware order needs at least one item.");
  return oneTimeCharges({ hardware });
}

/** The next renewal: its date, its full amount, and what is left to pay once the credit balance is used. */
export function nextBillingOf(at: Date, amount: number, creditBalance: number): NextBilling {
  return { at, amount, amountDue: amount - Math.min(amount, creditBalance) };
}
