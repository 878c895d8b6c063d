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

/**
 * A party to an invoice as the invoice was issued (or last corrected): the seller (GateKeeper, from the portal's
 * configuration) or the buyer (the customer's billing profile of that day). An issued invoice keeps these and never
 * reads the live customer again.
 */
export interface InvoiceParty {
  /** The legal name: the seller's, or the buyer's company (its contact's name when it has none). */
  name: string;
  /** The buyer's contact; empty for the seller. */
  contact?: string;
  email?: string;
  address: Address | null;
  /** The seller's address as printed, line by line (configuration gives it so). */
  addressLines?: string[];
  vatNumber: string | null;
  /** Whether the tax authority's register found the VAT number valid when the document was made. */
  vatNumberValid: boolean;
}

/** What the billing provider knows of a customer's VAT number: the register's answer, or not checked (yet). */
export type VatNumberStatus = "valid" | "invalid" | "unchecked";

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

/**
 * What an invoice was for: a subscription's first term (a new license), a renewal, a change within the term
 * (a license update), or a one-time invoice of no subscription (hardware; the portal knows which of its trials
 * made one). Chargebee does not say, so its adapter derives it: an invoice of no subscription is one-time, the
 * subscription's first is new, one that applies credits of a subscription change or charges part of a billing
 * period is a change, any other a renewal.
 */
export type InvoicePurpose = "new_subscription" | "renewal" | "subscription_change" | "one_time";

/**
 * What happened at the billing provider, in the portal's terms. The provider's own name of an event is kept in
 * `providerType`; one the portal has no use for is `other`.
 */
export type ProviderEventType =
  | "subscription_created"
  | "subscription_changed"
  | "subscription_renewed"
  | "subscription_cancelled"
  | "subscription_cancellation_scheduled"
  | "subscription_scheduled_cancellation_removed"
  | "subscription_reactivated"
  | "invoice_generated"
  | "invoice_updated"
  | "invoice_paid"
  | "payment_failed"
  | "payment_source_added"
  | "payment_source_updated"
  | "payment_source_deleted"
  | "other";

export type ProviderResourceType = "subscription" | "invoice" | "payment_source" | "other";
