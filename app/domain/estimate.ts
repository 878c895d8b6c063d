import type { EstimateView } from "~db/estimate-values";
import { displayName } from "./subscription";

export type { EstimateView } from "~db/estimate-values";

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
