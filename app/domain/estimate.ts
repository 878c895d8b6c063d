import { displayName } from "./subscription";

/** An estimate as the pages show it: integer cents, ISO dates, names as customers read them. */
export interface EstimateView {
  lineItems: { description: string; quantity: number; unitAmount: number; amount: number }[];
  discounts: { description: string; amount: number }[];
  subTotal: number;
  total: number;
  /** Credits taken off the total (e.g. the unused part of a plan on an upgrade). */
  creditsApplied: number;
  amountDue: number;
  nextBilling: { at: string; amount: number } | null;
}

/** The port's estimate for a page: 'for resellers' dropped from every line, dates as ISO strings. */
export function estimateView(
  estimate: Omit<EstimateView, "nextBilling"> & { nextBilling: { at: Date; amount: number } | null },
): EstimateView {
  return {
    lineItems: estimate.lineItems.map(({ description, quantity, unitAmount, amount }) => ({
      description: displayName(description),
      quantity,
      unitAmount,
      amount,
    })),
    discounts: estimate.discounts.map(({ description, amount }) => ({ description: displayName(description), amount })),
    subTotal: estimate.subTotal,
    total: estimate.total,
    creditsApplied: estimate.creditsApplied,
    amountDue: estimate.amountDue,
    nextBilling: estimate.nextBilling
      ? { at: estimate.nextBilling.at.toISOString(), amount: estimate.nextBilling.amount }
      : null,
  };
}
