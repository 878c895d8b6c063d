/**
 * The billing port's value types that the embedded billing engine's tables store as they are (JSON and enum
 * columns of db/billing-schema.ts), so that its rows come out in the port's terms without mapping. A leaf
 * module: the port (app/server/billing/port.server.ts) re-exports these, and db/ imports nothing from app/.
 * Money is integer cents; dates are Dates.
 */

export interface Address {
  firstName?: string;
  lastName?: string;
  email?: string;
  company?: string;
  phone?: string;
  line1?: string;
  line2?: string;
  city?: string;
  state?: string;
  stateCode?: string;
  zip?: string;
  country?: string;
}

export type PaymentSourceStatus = "valid" | "expiring" | "expired" | "invalid" | "pending_verification";

export interface ItemQuantity {
  id: string;
  quantity: number;
}

export type SubscriptionStatus =
  "future" | "in_trial" | "active" | "non_renewing" | "paused" | "cancelled" | "transferred";

export interface LineItem {
  entityType: "plan" | "addon" | "adhoc";
  entityId: string | null;
  description: string;
  quantity: number;
  unitAmount: number;
  amount: number;
  /** The service period charged; shorter than a term for a prorated charge. */
  dateFrom: Date | null;
  dateTo: Date | null;
}

export interface Discount {
  entityType:
    | "document_level_coupon"
    | "item_level_coupon"
    | "promotional_credits"
    | "prorated_credits"
    | "item_level_discount"
    | "document_level_discount";
  entityId: string | null;
  description: string;
  amount: number;
}

export type InvoiceStatus = "paid" | "posted" | "payment_due" | "not_paid" | "voided" | "pending";
