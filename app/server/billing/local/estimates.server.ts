import { addPeriod, couponDiscount, prorate, type Period } from "~/domain/pricing";
import { nextBillingOf } from "~/server/billing/one-time-charges.server";
import type { Billed, Coupon, Discount, Estimate, InvoiceTotals, LineItem } from "../port.server";

/**
 * The embedded engine's invoice arithmetic, computed the way Chargebee does for Product Catalog 1.0:
 * full-term lines for a new subscription or a renewal; on a mid-term change, each new line charged and each
 * old line credited for the share of the term that is left, rounded once per line (quantity x unit price x
 * share), never per unit; one-time coupons on the invoice amount; then credits. Credits the invoice cannot use
 * stay on the customer's balance for the next invoice. Pure, so the worked numbers are unit-tested.
 */

export interface PricedItem {
  entityType: "plan" | "addon";
  id: string;
  description: string;
  unitPrice: number;
  quantity: number;
}

export const sum = (values: number[]) => values.reduce((total, value) => total + value, 0);

/** The full-period charge of one line. */
const fullAmount = (item: PricedItem) => item.unitPrice * item.quantity;
const DAY_MS = 24 * 60 * 60 * 1000;

/** The full-period charge of recurring items, what every renewal bills. */
export const recurringAmount = (items: PricedItem[]) => sum(items.map(fullAmount));

/** A line for a service period; a prorated one keeps the unit price and charges its share in `amount`. */
function line(item: PricedItem, dateFrom: Date, dateTo: Date, amount = fullAmount(item)): LineItem {
  return {
    entityType: item.entityType,
    entityId: item.id,
    description: item.description,
    quantity: item.quantity,
    unitAmount: item.unitPrice,
    amount,
    dateFrom,
    dateTo,
  };
}

/** Subtotal, coupons applied one after another on what is left, then credits up to what is left, then what is due. */
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

/**
 * An invoice with credits: those this invoice issues (the unused part of replaced items) and the customer's
 * balance from earlier ones. What the invoice cannot use becomes the customer's new balance.
 */
export function billed(
  lineItems: LineItem[],
  coupons: Coupon[],
  credits: { issued?: number; balance: number },
): Billed {
  const issued = credits.issued ?? 0;
  const totals = invoiceTotals(lineItems, coupons, issued + credits.balance);
  return { ...totals, creditsIssued: issued, creditBalance: issued + credits.balance - totals.creditsApplied };
}

export interface NewTerm {
  recurring: PricedItem[];
  oneTime: PricedItem[];
  period: Period;
  coupons: Coupon[];
  start: Date;
  /** The customer's credit balance, used on this invoice first (Chargebee's use_existing_balances). */
  creditBalance: number;
}

/** A new subscription: the first full term of the recurring items, the one-time items, coupons, credits. */
export function creationEstimate({ recurring, oneTime, period, coupons, start, creditBalance }: NewTerm): Estimate {
  const end = addPeriod(start, period);
  const lines = [
    ...recurring.map((item) => line(item, start, end)),
    ...oneTime.map((item) => line(item, start, start)),
  ];
  const invoice = billed(lines, coupons, { balance: creditBalance });
  return {
    ...invoice,
    adjustments: 0,
    nextBilling: nextBillingOf(end, recurringAmount(recurring), invoice.creditBalance),
  };
}

/** A renewal: the next full term of the recurring items, paid from the credit balance first. */
export function renewalInvoice(recurring: PricedItem[], termStart: Date, termEnd: Date, creditBalance: number): Billed {
  return billed(
    recurring.map((item) => line(item, termStart, termEnd)),
    [],
    { balance: creditBalance },
  );
}

/** A one-time invoice (a hardware order): the items on the day, no coupons, credits first. */
export function oneTimeInvoice(items: PricedItem[], date: Date, creditBalance: number): Billed {
  return billed(
    items.map((item) => line(item, date, date)),
    [],
    { balance: creditBalance },
  );
}

export interface TermChange {
  current: { recurring: PricedItem[]; period: Period; termStart: Date; termEnd: Date };
  next: { recurring: PricedItem[]; period: Period };
  coupons: Coupon[];
  now: Date;
  creditBalance: number;
  /** What the subscription's invoices of the current term still ask for (a renewal no card could pay). */
  unpaid?: number;
}

const sameItems = (a: PricedItem[], b: PricedItem[]) =>
  a.length === b.length && a.every((item, i) => item.id === b[i].id && item.quantity === b[i].quantity);

/**
 * A change to a running subscription (its term current: a term that ended is renewed before). Within the
 * same billing period, each new line is charged, and each old line credited, for the share of the term that
 * is left, one rounding per line. A new billing period (monthly to yearly) starts a new term now: the new
 * items are charged in full and the unused old term is credited. Nothing changed, nothing charged.
 * The unused part of a term still unpaid is no credit of the customer's: it first lowers what the term's
 * unpaid invoices ask for (Chargebee's adjustment credit notes), and only the rest is credited.
 */
export function changeEstimate({ current, next, coupons, now, creditBalance, unpaid = 0 }: TermChange): Estimate {
  const termMs = current.termEnd.getTime() - current.termStart.getTime();
  // Whole days, the day of the change counted as left: a confirmed price holds for a day (decision 083).
  const leftMs = Math.ceil((current.termEnd.getTime() - now.getTime()) / DAY_MS) * DAY_MS;
  const remainingShare = (item: PricedItem) => prorate(fullAmount(item), leftMs, termMs);
  const unused = sum(current.recurring.map(remainingShare));
  const adjustments = Math.min(unused, unpaid);
  const issued = unused - adjustments;
  const renewalAmount = recurringAmount(next.recurring);

  if (sameItems(current.recurring, next.recurring)) {
    const nothing = billed([], coupons, { balance: creditBalance });
    return { ...nothing, adjustments: 0, nextBilling: nextBillingOf(current.termEnd, renewalAmount, creditBalance) };
  }
  const newTerm = next.period !== current.period;
  const end = newTerm ? addPeriod(now, next.period) : current.termEnd;
  const lines = next.recurring.map((item) =>
    newTerm ? line(item, now, end) : line(item, now, end, remainingShare(item)),
  );
  const invoice = billed(lines, coupons, { issued, balance: creditBalance });
  return { ...invoice, adjustments, nextBilling: nextBillingOf(end, renewalAmount, invoice.creditBalance) };
}
