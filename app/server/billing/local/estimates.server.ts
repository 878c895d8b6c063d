import { addPeriod, couponDiscount, prorate, type Period } from "~/domain/pricing";
import type { Coupon, Discount, Estimate, InvoiceTotals, LineItem } from "../port.server";

/**
 * The embedded engine's invoice arithmetic, computed the way Chargebee does for Product Catalog 1.0:
 * full-term lines for a new subscription, prorated lines with credits for the unused old items on a
 * mid-term upgrade, one-time coupons on the invoice amount. Pure, so the worked numbers are unit-tested.
 */

export interface PricedItem {
  entityType: "plan" | "addon";
  id: string;
  description: string;
  unitPrice: number;
  quantity: number;
}

const sum = (values: number[]) => values.reduce((total, value) => total + value, 0);

/** The full-period charge of recurring items, what every renewal bills. */
export const recurringAmount = (items: PricedItem[]) => sum(items.map((item) => item.unitPrice * item.quantity));

function line(item: PricedItem, dateFrom: Date, dateTo: Date, unitAmount = item.unitPrice): LineItem {
  return {
    entityType: item.entityType,
    entityId: item.id,
    description: item.description,
    quantity: item.quantity,
    unitAmount,
    amount: unitAmount * item.quantity,
    dateFrom,
    dateTo,
  };
}

/** Subtotal, coupons applied one after another on what is left, then credits, then what is due. */
export function invoiceTotals(lineItems: LineItem[], coupons: Coupon[], credits = 0): InvoiceTotals {
  const subTotal = sum(lineItems.map((item) => item.amount));
  let left = subTotal;
  const discounts: Discount[] = [];
  for (const coupon of coupons) {
    const amount = couponDiscount(coupon, left);
    if (amount === 0) continue;
    left -= amount;
    discounts.push({ entityType: "document_level_coupon", entityId: coupon.id, description: coupon.name, amount });
  }
  const creditsApplied = Math.min(credits, left);
  return { lineItems, discounts, subTotal, total: left, creditsApplied, amountDue: left - creditsApplied };
}

export interface NewTerm {
  recurring: PricedItem[];
  oneTime: PricedItem[];
  period: Period;
  coupons: Coupon[];
  start: Date;
}

/** A new subscription: the first full term of the recurring items, the one-time items, coupons. */
export function creationEstimate({ recurring, oneTime, period, coupons, start }: NewTerm): Estimate {
  const end = addPeriod(start, period);
  const lines = [
    ...recurring.map((item) => line(item, start, end)),
    ...oneTime.map((item) => line(item, start, start)),
  ];
  return { ...invoiceTotals(lines, coupons), nextBilling: { at: end, amount: recurringAmount(recurring) } };
}

/** A one-time invoice (a hardware order): the items on the day, no coupons. */
export function oneTimeInvoice(items: PricedItem[], date: Date): InvoiceTotals {
  return invoiceTotals(
    items.map((item) => line(item, date, date)),
    [],
  );
}

export interface TermChange {
  current: { recurring: PricedItem[]; period: Period; termStart: Date; termEnd: Date };
  next: { recurring: PricedItem[]; period: Period };
  coupons: Coupon[];
  now: Date;
}

const sameItems = (a: PricedItem[], b: PricedItem[]) =>
  a.length === b.length && a.every((item, i) => item.id === b[i].id && item.quantity === b[i].quantity);

/**
 * A change to a running subscription. Within the same billing period, the new items are charged for the
 * rest of the current term and the unused part of the old items is credited (per unit, to the cent).
 * A new billing period (monthly to yearly) starts a new term now: the new items are charged in full and
 * the unused old term is credited. Nothing changed, nothing charged.
 */
export function changeEstimate({ current, next, coupons, now }: TermChange): Estimate {
  const termMs = current.termEnd.getTime() - current.termStart.getTime();
  const leftMs = current.termEnd.getTime() - now.getTime();
  const credit = (items: PricedItem[]) =>
    sum(items.map((item) => prorate(item.unitPrice, leftMs, termMs) * item.quantity));
  const renewal = (at: Date) => ({ at, amount: recurringAmount(next.recurring) });

  if (sameItems(current.recurring, next.recurring)) {
    return { ...invoiceTotals([], coupons), nextBilling: renewal(current.termEnd) };
  }
  if (next.period !== current.period) {
    const end = addPeriod(now, next.period);
    const lines = next.recurring.map((item) => line(item, now, end));
    return { ...invoiceTotals(lines, coupons, credit(current.recurring)), nextBilling: renewal(end) };
  }
  const lines = next.recurring.map((item) => line(item, now, current.termEnd, prorate(item.unitPrice, leftMs, termMs)));
  return { ...invoiceTotals(lines, coupons, credit(current.recurring)), nextBilling: renewal(current.termEnd) };
}
