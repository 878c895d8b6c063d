/**
 * The billing port: every billing call the portal makes (for the store, the license update, the trials and the
 * account's billing pages), typed in the portal's own terms. Adapters (the embedded
 * engine, Chargebee) translate to and from their provider; no vendor type or error crosses this line.
 * Money is integer cents; dates are Dates.
 *
 * Calls that read or change a customer's data take the billing customer id of the signed-in user, and
 * the adapters refuse a subscription or payment source that belongs to someone else: the organization is
 * the boundary. Calls that create something or move money take an idempotency key: a repeated call with
 * the same key returns the first result, so nothing is charged twice.
 */

import type {
  Address,
  Discount,
  InvoiceParty,
  InvoicePurpose,
  InvoiceStatus,
  ItemQuantity,
  LineItem,
  PaymentSourceStatus,
  ProviderEventType,
  ProviderResourceType,
  SubscriptionStatus,
  VatNumberStatus,
} from "~db/billing-values";
import type { PaymentCard } from "../providers/card-gateway.server";

/** The value types the embedded billing engine's tables store as they are (db/billing-values.ts). */
export type {
  Address,
  Discount,
  InvoiceParty,
  InvoicePurpose,
  InvoiceStatus,
  ItemQuantity,
  LineItem,
  PaymentSourceStatus,
  ProviderEventType,
  ProviderResourceType,
  SubscriptionStatus,
  VatNumberStatus,
};

export type BillingPeriod = "month" | "year";
export type PlanTier = "core" | "advanced" | "ultimate";

export interface Plan {
  id: string;
  name: string;
  displayName: string;
  description: string;
  /** Per user and period. */
  price: number;
  period: BillingPeriod;
  tier: PlanTier | null;
}

export type AddonType = "hardware" | "recurring" | "non-recurring" | "shipping";

export interface Addon {
  id: string;
  name: string;
  displayName: string;
  description: string;
  price: number;
  unit: string | null;
  currencyCode: string;
  addonType: AddonType;
  /** The billing period of a recurring add-on; null for one-time charges. */
  period: BillingPeriod | null;
  /**
   * Whether the add-on is charged per unit and takes a quantity (Chargebee's quantity, tiered, volume and
   * stairstep types). An add-on that is not (Chargebee's on_off) is present or absent: it is ordered with
   * quantity 1, and its price may be set for the order (the shipping line's price per order).
   */
  chargedPerUnit: boolean;
}

export interface CustomerProfile {
  firstName: string;
  lastName: string;
  email: string;
  phone: string;
  company: string;
}

export interface Customer extends CustomerProfile {
  id: string;
  billingAddress: Address | null;
  /** The VAT number with its country's prefix (Chargebee's vat_number), and what the register said of it. */
  vatNumber: string | null;
  vatNumberStatus: VatNumberStatus | null;
  primaryPaymentSourceId: string | null;
  /**
   * Credits kept for the customer's next invoices, in cents: everything the provider takes off them before
   * charging the card (Chargebee's refundable and promotional credits and excess payments).
   */
  creditBalance: number;
}

/** A stored card is the card gateway's, which the billing provider reads, as Chargebee reads Stripe. */
export type { PaymentCard };

export interface PaymentSource {
  id: string;
  customerId: string;
  type: "card";
  status: PaymentSourceStatus;
  /** The card gateway's reference, `<gateway customer>/<card or payment method>`. */
  referenceId: string;
  card: PaymentCard | null;
}

export interface Subscription {
  id: string;
  customerId: string;
  planId: string;
  planQuantity: number;
  planUnitPrice: number;
  status: SubscriptionStatus;
  /** Recurring add-ons. */
  addons: ItemQuantity[];
  currentTermStart: Date | null;
  currentTermEnd: Date | null;
  nextBillingAt: Date | null;
  paymentSourceId: string | null;
  autoCollection: boolean;
  shippingAddress: Address | null;
  /** The organization the license is assigned to. */
  licenseAssignment: string | null;
  /**
   * When the subscription was cancelled; for a `non_renewing` one (auto-renew off: its cancellation is scheduled)
   * when that cancellation takes effect, the end of the current term. Null while it renews.
   */
  cancelledAt: Date | null;
  /** What the subscription's unpaid invoices still ask for, in cents (0 when it is paid up). */
  totalDues: number;
  /** The date of its oldest unpaid invoice; null when it is paid up. */
  dueSince: Date | null;
  /** Grows with every change of the subscription (Chargebee's resource_version): of two copies, the larger is newer. */
  resourceVersion: number;
}

export interface Coupon {
  id: string;
  name: string;
  status: "active" | "expired" | "archived" | "deleted" | "future";
  discountType: "percentage" | "fixed_amount";
  /** Set for percentage coupons, e.g. 10 for 10%. */
  discountPercentage: number | null;
  /** Set for fixed-amount coupons, in cents. */
  discountAmount: number | null;
  metaData: { type?: string; from?: string };
}

export interface InvoiceTotals {
  lineItems: LineItem[];
  discounts: Discount[];
  subTotal: number;
  /** subTotal minus discounts. */
  total: number;
  /**
   * Credits taken off the total: the unused part of the items a change replaces, then the customer's credit
   * balance ('Available credits will automatically be applied to the invoice.').
   */
  creditsApplied: number;
  amountDue: number;
}

/** An invoice's effect on the customer's credits. */
export interface Billed extends InvoiceTotals {
  /** Credits this invoice issues: the unused part of the items a mid-term change replaces. */
  creditsIssued: number;
  /**
   * The customer's credit balance after this invoice: credits (issued now or earlier) that exceeded it, kept
   * and used on the next invoice.
   */
  creditBalance: number;
}

export interface NextBilling {
  at: Date;
  /** What the renewal charges: the recurring items for a full term. */
  amount: number;
  /** What is left to pay at the renewal once the credit balance is used. */
  amountDue: number;
}

export interface Estimate extends Billed {
  /**
   * What a change takes off the subscription's invoices that are still unpaid (Chargebee's adjustment credit
   * notes): the unused part of a term nobody paid for is not the customer's credit, so it is neither in
   * `creditsIssued` nor in the balance; it only lowers what those invoices still ask for.
   */
  adjustments: number;
  /** The next renewal: when it falls and what it will charge ('Amount on next billing cycle (date)'). */
  nextBilling: NextBilling | null;
}

export interface Invoice extends InvoiceTotals {
  id: string;
  customerId: string;
  subscriptionId: string | null;
  status: InvoiceStatus;
  amountPaid: number;
  date: Date;
  /** The invoice number the customer sees (Chargebee's invoice id; the embedded engine numbers 1, 2, 3, ...). */
  number: string;
  /** What the invoice was for (see InvoicePurpose). */
  purpose: InvoicePurpose;
  /** When it was paid in full; null while anything is due. */
  paidAt: Date | null;
  /** The next automatic attempt to collect a failed payment (dunning); null when none is scheduled. */
  nextRetryAt: Date | null;
  /**
   * Why the last attempt to collect it failed, as the provider's code (AUTHENTICATION_REQUIRED: the card's bank
   * asks the cardholder to confirm the payment, which a renewal, charged without them, cannot); null when none
   * failed, when it is paid, or when the provider does not say (Chargebee keeps it on the payment's transaction).
   */
  paymentFailure: string | null;
  /** Grows with every change of the invoice (Chargebee's resource_version): of two copies, the larger is newer. */
  resourceVersion: number;
  /**
   * The buyer as the document names them: fixed when the invoice is issued, changed only by a correction (Chargebee
   * keeps the invoice's billing address and VAT number the same way). Null when the provider gave none.
   */
  billedTo: InvoiceParty | null;
  /** The customer's purchase order number on the document, if any. */
  poNumber: string | null;
}

/**
 * The billing fields of a customer that Chargebee's update_billing_info replaces as a whole: a field a call leaves
 * out is removed, so every call sends them all. The status is the register's answer the portal had; Chargebee
 * checks the number itself and ignores it.
 */
export interface BillingInfo {
  billingAddress: Address;
  vatNumber: string | null;
  vatNumberStatus: VatNumberStatus;
}

/**
 * A correction of an issued invoice's buyer: the company, the billing address (its country cannot change: that
 * changes the tax, and needs a credit note), the VAT number and the purchase order number. The document keeps its
 * number and amounts; the provider issues it anew (a new revision) and tells of it as an invoice event.
 */
export interface InvoiceCorrection {
  company: string;
  billingAddress: Address;
  vatNumber: string | null;
  vatNumberStatus: VatNumberStatus;
  poNumber: string | null;
}

/** An earlier revision of a corrected invoice whose document can still be downloaded. */
export interface InvoiceRevision {
  revision: number;
  issuedAt: Date;
}

/** What a new subscription's estimate needs; hardware brings its shipping charge (per box of items) with it. */
export interface NewSubscriptionEstimateRequest {
  /** The customer, when there is one yet: an estimate never creates one (a page's read must not write). */
  customerId?: string;
  planId: string;
  planQuantity: number;
  /** When the subscription starts; a date that is not in the future means now. */
  startDate?: Date;
  /** Recurring add-ons (hosting, offsite access). */
  addons?: ItemQuantity[];
  /** One-time add-ons (installation, training, support). */
  oneTimeAddons?: ItemQuantity[];
  hardware?: ItemQuantity[];
  couponIds?: string[];
  shippingAddress?: Address;
}

export interface NewSubscriptionRequest extends NewSubscriptionEstimateRequest {
  customerId: string;
  paymentSourceId: string;
  licenseAssignment: string;
  /** The customer's purchase order number, printed on the subscription's invoices. */
  poNumber?: string;
  /**
   * The payment intent the cardholder authorized for this charge, when the card's bank asked for it
   * (AUTHENTICATION_REQUIRED): the charge spends it, and a spent one pays nothing again.
   */
  paymentIntentId?: string;
}

/**
 * The code of a charge refused because the card's bank asks the cardholder, who is present, to authenticate it
 * first (3-D Secure), as Stripe declines it: nothing was charged or made. A payment intent for the amount
 * (createPaymentIntent), once authorized, pays the same call.
 */
export const AUTHENTICATION_REQUIRED = "authentication_required";

/** A payment the cardholder is asked to authenticate on their bank's page before it is charged. */
export interface PaymentIntentRequest {
  customerId: string;
  paymentSourceId: string;
  /** What the charge will ask for (the estimate's amount due), in cents. */
  amount: number;
  /** Where the bank's page sends the cardholder back, adding `payment_intent` and `redirect_status`. */
  returnUrl: string;
}

/**
 * The code of a charge refused because the payment intent it names expired before it was charged (an hour after it
 * was made): nothing was charged; a new intent, authorized, pays the same call.
 */
export const PAYMENT_INTENT_EXPIRED = "payment_intent_expired";

/** Why an expired payment intent pays nothing, as the cardholder reads it. */
export const PAYMENT_INTENT_EXPIRED_MESSAGE = "The payment's authentication expired: confirm the payment again.";

/**
 * The code of a charge refused because the payment intent it names cannot pay it: spent already, not authorized,
 * another customer's or card's, or made for another amount. Nothing was charged.
 */
export const PAYMENT_INTENT_INVALID = "payment_intent_invalid";

/**
 * A payment intent, as Chargebee and Stripe keep it: waiting for the cardholder on the bank's page
 * (`requires_action`, at `redirectUrl`), authorized (a charge of its amount to its card may spend it), failed (the
 * cardholder failed or refused the authentication, in the provider's words), consumed by the charge it paid, or
 * expired unconsumed (an hour after it was made, as Chargebee's do), when nothing can spend it any more.
 */
export interface PaymentIntent {
  id: string;
  status: "requires_action" | "authorized" | "failed" | "consumed" | "expired";
  amount: number;
  paymentSourceId: string;
  redirectUrl: string;
  /** Why it failed or expired, in the provider's words; null otherwise. */
  failure: string | null;
  /**
   * The intent as the provider gave it, for its browser library to authenticate on the portal's own page at
   * `redirectUrl` (Chargebee.js's 3DS handler takes Chargebee's payment intent object); null when the provider's
   * bank page at `redirectUrl` needs nothing from the portal (the embedded engine's).
   */
  browserIntent: Record<string, unknown> | null;
}

export interface SubscriptionChange {
  planId: string;
  planQuantity: number;
  /** When given, replaces the subscription's recurring add-ons. */
  addons?: ItemQuantity[];
  couponIds?: string[];
}

export interface SubscriptionUpdate extends SubscriptionChange {
  /** Also becomes the customer's billing address. */
  billingAddress?: Address;
  shippingAddress?: Address;
  /** The customer's purchase order number for this change: printed on its invoice and the subscription's next ones. */
  poNumber?: string;
  /** The payment intent the cardholder authorized for this change's charge (see NewSubscriptionRequest). */
  paymentIntentId?: string;
}

export interface HardwareOrder {
  customerId: string;
  paymentSourceId: string;
  hardware: ItemQuantity[];
  shippingAddress?: Address;
  /** The payment intent the cardholder authorized for this invoice's charge (see NewSubscriptionRequest). */
  paymentIntentId?: string;
}

export interface NewPaymentSource {
  customerId: string;
  setAsPrimary: boolean;
}

export interface BillingProvider {
  readonly name: "local" | "chargebee";

  listPlans(): Promise<Plan[]>;
  listAddons(): Promise<Addon[]>;
  /** Fails with code not_found for an unknown code. */
  retrieveCoupon(code: string): Promise<Coupon>;

  /** The customer with this id, created with the profile when it does not exist yet. */
  ensureCustomer(customerId: string, profile: CustomerProfile, idempotencyKey: string): Promise<Customer>;
  retrieveCustomer(customerId: string): Promise<Customer>;
  updateCustomer(customerId: string, profile: CustomerProfile): Promise<Customer>;
  /** Replaces the customer's billing fields, all of them (see BillingInfo). */
  updateBillingInfo(customerId: string, info: BillingInfo): Promise<Customer>;

  listPaymentSources(customerId: string): Promise<PaymentSource[]>;
  /** A card from a card provider's one-time token. */
  createPaymentSourceFromTempToken(
    source: NewPaymentSource & { tmpToken: string },
    idempotencyKey: string,
  ): Promise<PaymentSource>;
  /** A card from a payment method already attached to the gateway customer (`referenceId`). */
  createPaymentSourceFromPermanentToken(
    source: NewPaymentSource & { referenceId: string },
    idempotencyKey: string,
  ): Promise<PaymentSource>;
  /** Removes the card from the billing provider only; the card gateway keeps it. */
  deleteLocalPaymentSource(customerId: string, paymentSourceId: string): Promise<void>;

  retrieveSubscription(customerId: string, subscriptionId: string): Promise<Subscription>;
  estimateNewSubscription(request: NewSubscriptionEstimateRequest): Promise<Estimate>;
  /** Charges the first term and one-time items now, to the given payment source. */
  createSubscription(request: NewSubscriptionRequest, idempotencyKey: string): Promise<Subscription>;
  /** A payment intent for a charge the card's bank asks the cardholder to authenticate (AUTHENTICATION_REQUIRED). */
  createPaymentIntent(request: PaymentIntentRequest, idempotencyKey: string): Promise<PaymentIntent>;
  /** The customer's payment intent as it is now; fails with code not_found for another customer's. */
  retrievePaymentIntent(customerId: string, paymentIntentId: string): Promise<PaymentIntent>;
  /**
   * The subscription an earlier createSubscription with this key made, or null when it made none: what a
   * job asks after a call whose outcome is unknown, before it may charge again.
   */
  findSubscriptionByKey(customerId: string, idempotencyKey: string): Promise<Subscription | null>;
  /** What the change costs now (prorated for the rest of the term) and at the next renewal. */
  estimateSubscriptionUpdate(customerId: string, subscriptionId: string, change: SubscriptionChange): Promise<Estimate>;
  updateSubscription(
    customerId: string,
    subscriptionId: string,
    update: SubscriptionUpdate,
    idempotencyKey: string,
  ): Promise<Subscription>;
  overrideBillingProfile(
    customerId: string,
    subscriptionId: string,
    profile: { paymentSourceId: string; autoCollection: boolean },
  ): Promise<Subscription>;

  /** A one-time invoice for hardware plus its shipping line, charged now. */
  createHardwareInvoice(order: HardwareOrder, idempotencyKey: string): Promise<Invoice>;
  /**
   * The invoice an earlier createHardwareInvoice with this key made for this customer, or null when it made
   * none: what a job asks after a call whose outcome is unknown, before it may charge again (a provider
   * forgets idempotency keys after a while, so a late retry could otherwise invoice twice).
   */
  findInvoiceByKey(customerId: string, idempotencyKey: string): Promise<Invoice | null>;

  /** Every invoice of the customer (of one subscription, when given), newest first: what reconciliation reads. */
  listInvoices(customerId: string, filter?: { subscriptionId?: string }): Promise<Invoice[]>;
  /** Fails with code not_found for an invoice of another customer. */
  retrieveInvoice(customerId: string, invoiceId: string): Promise<Invoice>;
  /**
   * The invoice as a PDF: the document, or where to download it for a while (see InvoicePdf). With `revision`, an
   * earlier revision's document (one listInvoiceRevisions lists); another fails with code not_found.
   */
  invoicePdf(customerId: string, invoiceId: string, revision?: number): Promise<InvoicePdf>;
  /**
   * Issues the invoice anew with the corrected buyer, under the same number: the corrected invoice. A change of
   * the billing address's country, or one the provider says changes the tax, is refused with code
   * `credit_note_required` (the invoice must be credited and issued again instead).
   */
  correctInvoice(
    customerId: string,
    invoiceId: string,
    correction: InvoiceCorrection,
    idempotencyKey: string,
  ): Promise<Invoice>;
  /**
   * The earlier revisions of a corrected invoice whose documents can still be downloaded, oldest first. The
   * embedded engine keeps every one; Chargebee keeps only the current document, so it lists none.
   */
  listInvoiceRevisions(customerId: string, invoiceId: string): Promise<InvoiceRevision[]>;
  /**
   * Charges what the invoice still asks for (a renewal whose payment failed) to the customer's payment source,
   * once per key: the paid invoice. A declined card fails with kind final, code `payment_processing_failed` and
   * the gateway's words as providerMessage; an invoice with nothing to pay is refused with code
   * `invalid_state_for_request`. `paymentIntentId`: the payment intent the cardholder authorized for it, when the
   * card's bank asked (AUTHENTICATION_REQUIRED).
   */
  collectPayment(
    customerId: string,
    invoiceId: string,
    paymentSourceId: string,
    idempotencyKey: string,
    paymentIntentId?: string,
  ): Promise<Invoice>;
  /**
   * The invoice once it is paid; null while it is still due: what a job asks after a collectPayment whose outcome
   * is unknown, before it may collect again. An invoice is paid at most once, so this answers for every key a
   * collect was sent with (Chargebee keeps no key on a payment, and forgets its keys after 30 minutes).
   */
  findInvoicePayment(customerId: string, invoiceId: string): Promise<Invoice | null>;

  /**
   * Auto-renew off: the subscription is cancelled at the end of its current term (status `non_renewing`,
   * `cancelledAt` the term end) and charged nothing more. One already non_renewing is returned as it is.
   */
  cancelSubscriptionAtTermEnd(
    customerId: string,
    subscriptionId: string,
    idempotencyKey: string,
  ): Promise<Subscription>;
  /**
   * Auto-renew on again before the term ends: the scheduled cancellation is removed (status `active`), nothing is
   * charged now. One with no scheduled cancellation is returned as it is; a cancelled one is refused.
   */
  removeScheduledCancellation(
    customerId: string,
    subscriptionId: string,
    idempotencyKey: string,
  ): Promise<Subscription>;

  /**
   * The provider's events that occurred at or after `since` (to the second), oldest first, a page at a time:
   * what reconciliation replays. The embedded engine lists the events it recorded, Chargebee its events API
   * (which keeps 90 days).
   */
  listEvents(query: EventQuery): Promise<EventPage>;
}

/** The names of the provider's calls, e.g. for fault injection. */
export type BillingCall = Exclude<keyof BillingProvider, "name">;

// --- after checkout: invoices and the provider's events ------------------------------------------------------

/**
 * An invoice's PDF. The embedded engine renders the document itself (`document`); Chargebee gives a download
 * address that works for a while (`url`, until `expiresAt`), to redirect to or stream from.
 */
export type InvoicePdf =
  { kind: "document"; fileName: string; bytes: Uint8Array } | { kind: "url"; url: string; expiresAt: Date };

export interface ProviderEvent {
  /** Unique per event: a delivery seen twice has the same id. */
  id: string;
  occurredAt: Date;
  type: ProviderEventType;
  /** The provider's name of the event (Chargebee's event_type), kept whatever `type` is. */
  providerType: string;
  /** The resource the event is about: a subscription's events carry it, an invoice's or a payment's the invoice. */
  resourceType: ProviderResourceType;
  resourceId: string | null;
  /**
   * The resource's version after the change (its resourceVersion); null when the provider gives none. An event
   * whose version is not above the one the portal holds for the resource is older news.
   */
  resourceVersion: number | null;
  /** The billing customer the resource belongs to; null for events of no customer (the provider's catalogue). */
  customerId: string | null;
  /** The resources after the change, as the event carries them (each with its own resourceVersion). */
  subscription: Subscription | null;
  invoice: Invoice | null;
  paymentSource: PaymentSource | null;
}

export interface EventQuery {
  since: Date;
  /** At most 100 a page (the default). */
  limit?: number;
  /** Where the next page starts: the previous page's nextPageToken. */
  pageToken?: string;
}

export interface EventPage {
  events: ProviderEvent[];
  /** Null on the last page. */
  nextPageToken: string | null;
}
