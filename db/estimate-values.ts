/**
 * An estimate as the pages show it and a quote stores it: integer cents, ISO dates, names as customers read them.
 * A leaf module so that db/ can type the quote's JSON column without importing app/; app/domain/estimate.ts
 * re-exports it.
 */
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
