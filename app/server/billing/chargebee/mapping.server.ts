import type {
  Customer as ChargebeeCustomer,
  Estimate as ChargebeeEstimate,
  Invoice as ChargebeeInvoice,
  PaymentIntent as ChargebeePaymentIntent,
  PaymentSource as ChargebeePaymentSource,
  Subscription as ChargebeeSubscription,
} from "chargebee";
import { addPeriod } from "~/domain/pricing";
import { ProviderError, type ErrorKind } from "~/server/platform/provider-errors.server";
import { BillingError } from "../errors.server";
import { nextBillingOf } from "~/server/billing/one-time-charges.server";
import {
  AUTHENTICATION_REQUIRED,
  PAYMENT_INTENT_EXPIRED_MESSAGE,
  PAYMENT_INTENT_INVALID,
  type Address,
  type Customer,
  type Discount,
  type Estimate,
  type Invoice,
  type InvoiceParty,
  type InvoicePurpose,
  type InvoiceTotals,
  type LineItem,
  type PaymentIntent,
  type PaymentSource,
  type Subscription,
  type VatNumberStatus,
} from "../port.server";

/**
 * Chargebee's shapes to the port's and back. Chargebee speaks snake_case, epoch seconds and cents; the
 * port speaks camelCase, Dates and cents. Nothing of Chargebee's types leaves this folder.
 */

export const seconds = (date: Date) => Math.floor(date.getTime() / 1000);
const dateOf = (epochSeconds: number | undefined) =>
  epochSeconds === undefined ? null : new Date(epochSeconds * 1000);

/** The port's address fields and Chargebee's names for them (its billing and shipping addresses alike). */
const ADDRESS_FIELDS = [
  ["firstName", "first_name"],
  ["lastName", "last_name"],
  ["email", "email"],
  ["company", "company"],
  ["phone", "phone"],
  ["line1", "line1"],
  ["line2", "line2"],
  ["city", "city"],
  ["state", "state"],
  ["stateCode", "state_code"],
  ["zip", "zip"],
  ["country", "country"],
] as const satisfies readonly (readonly [keyof Address, string])[];

export type ChargebeeAddress = Partial<Record<(typeof ADDRESS_FIELDS)[number][1], string>>;

export function toChargebeeAddress(address: Address): ChargebeeAddress {
  return Object.fromEntries(
    ADDRESS_FIELDS.filter(([ours]) => address[ours] !== undefined).map(([ours, theirs]) => [theirs, address[ours]]),
  );
}

/**
 * The part of an address Chargebee's estimate endpoints take (their shipping address has no name, company,
 * email, phone or state name): the lines, city, state code, zip and country, which is all a tax needs.
 */
export function toEstimateAddress(address: Address): ChargebeeEstimate.ShippingAddressCreateSubscriptionInputParam {
  const { line1, line2, city, stateCode: state_code, zip, country } = address;
  return { line1, line2, city, state_code, zip, country };
}

export function addressOf(address: ChargebeeAddress | undefined): Address | null {
  if (!address) return null;
  return Object.fromEntries(
    ADDRESS_FIELDS.filter(([, theirs]) => address[theirs] !== undefined).map(([ours, theirs]) => [
      ours,
      address[theirs],
    ]),
  );
}

export function customerOf(customer: ChargebeeCustomer): Customer {
  return {
    id: customer.id,
    firstName: customer.first_name ?? "",
    lastName: customer.last_name ?? "",
    email: customer.email ?? "",
    phone: customer.phone ?? "",
    company: customer.company ?? "",
    billingAddress: addressOf(customer.billing_address),
    vatNumber: customer.vat_number ?? null,
    vatNumberStatus: customer.vat_number ? vatNumberStatusOf(customer.vat_number_status) : null,
    primaryPaymentSourceId: customer.primary_payment_source_id ?? null,
    // Chargebee takes all three off the next invoices before charging the card: credits left over from earlier
    // invoices (refundable), credits granted by the business (promotional), and money paid beyond an invoice.
    creditBalance:
      (customer.refundable_credits ?? 0) + (customer.promotional_credits ?? 0) + (customer.excess_payments ?? 0),
  };
}

/** Chargebee's own check of the number (when its site validates VAT numbers): not_validated and undetermined are not checked. */
function vatNumberStatusOf(status: ChargebeeCustomer["vat_number_status"]): VatNumberStatus {
  return status === "valid" || status === "invalid" ? status : "unchecked";
}

export function paymentSourceOf(source: ChargebeePaymentSource): PaymentSource {
  const { card } = source;
  return {
    id: source.id,
    customerId: source.customer_id,
    type: "card",
    status: source.status,
    referenceId: source.reference_id,
    card: card
      ? {
          brand: card.brand,
          last4: card.last4,
          firstName: card.first_name ?? "",
          lastName: card.last_name ?? "",
          expiryMonth: card.expiry_month,
          expiryYear: card.expiry_year,
        }
      : null,
  };
}

export function subscriptionOf(subscription: ChargebeeSubscription): Subscription {
  const metaData = subscription.meta_data as { license_assignment?: unknown } | undefined;
  return {
    id: subscription.id,
    customerId: subscription.customer_id,
    planId: subscription.plan_id ?? "",
    planQuantity: subscription.plan_quantity ?? 1,
    planUnitPrice: subscription.plan_unit_price ?? 0,
    status: subscription.status,
    addons: (subscription.addons ?? []).map((addon) => ({ id: addon.id, quantity: addon.quantity ?? 1 })),
    currentTermStart: dateOf(subscription.current_term_start),
    currentTermEnd: dateOf(subscription.current_term_end),
    nextBillingAt: dateOf(subscription.next_billing_at),
    paymentSourceId: subscription.payment_source_id ?? null,
    // Without its own setting a subscription follows the customer's, which is on by default.
    autoCollection: subscription.auto_collection !== "off",
    shippingAddress: addressOf(subscription.shipping_address),
    licenseAssignment: typeof metaData?.license_assignment === "string" ? metaData.license_assignment : null,
    // For a non_renewing subscription Chargebee's cancelled_at is when its scheduled cancellation takes effect.
    cancelledAt: dateOf(subscription.cancelled_at),
    totalDues: subscription.total_dues ?? 0,
    dueSince: dateOf(subscription.due_since),
    resourceVersion: subscription.resource_version ?? 0,
  };
}

/** A line item of an invoice or an invoice estimate; both have these fields. */
interface ChargebeeLineItem {
  entity_type: string;
  entity_id?: string;
  description: string;
  quantity?: number;
  unit_amount: number;
  amount?: number;
  date_from: number;
  date_to: number;
}

interface ChargebeeTotals {
  line_items?: ChargebeeLineItem[];
  discounts?: { entity_type: Discount["entityType"]; entity_id?: string; description?: string; amount: number }[];
  sub_total: number;
  total?: number;
  credits_applied?: number;
  amount_due?: number;
}

function lineItemOf(item: ChargebeeLineItem): LineItem {
  const quantity = item.quantity ?? 1;
  return {
    entityType: item.entity_type === "plan" || item.entity_type === "addon" ? item.entity_type : "adhoc",
    entityId: item.entity_id ?? null,
    description: item.description,
    quantity,
    unitAmount: item.unit_amount,
    amount: item.amount ?? item.unit_amount * quantity,
    dateFrom: dateOf(item.date_from),
    dateTo: dateOf(item.date_to),
  };
}

function totalsOf(invoice: ChargebeeTotals | undefined): InvoiceTotals {
  if (!invoice) return { lineItems: [], discounts: [], subTotal: 0, total: 0, creditsApplied: 0, amountDue: 0 };
  const total = invoice.total ?? invoice.sub_total;
  return {
    lineItems: (invoice.line_items ?? []).map(lineItemOf),
    discounts: (invoice.discounts ?? []).map((discount) => ({
      entityType: discount.entity_type,
      entityId: discount.entity_id ?? null,
      description: discount.description ?? "",
      amount: discount.amount,
    })),
    subTotal: invoice.sub_total,
    total,
    creditsApplied: invoice.credits_applied ?? 0,
    amountDue: invoice.amount_due ?? total,
  };
}

/** The total of an estimate's credit notes of one type. */
const creditNotes = (estimate: ChargebeeEstimate, type: "adjustment" | "refundable") =>
  (estimate.credit_note_estimates ?? [])
    .filter((note) => note.type === type)
    .reduce((sum, note) => sum + note.total, 0);

/**
 * An estimate. `renewalAmount` is what the next cycle charges (the caller takes Chargebee's next-invoice
 * estimate when there is one). Credits: the change's refundable credit notes (the unused part of replaced
 * items) and the customer's balance (`creditBalance`, before the change) pay the invoice; what it does not use
 * stays the customer's balance for the next invoice. Adjustment credit notes only lower an unpaid invoice of
 * the subscription: they are no credit of the customer's.
 */
export function estimateOf(estimate: ChargebeeEstimate, renewalAmount: number, creditBalance: number): Estimate {
  const at = dateOf(estimate.subscription_estimate?.next_billing_at);
  const totals = totalsOf(estimate.invoice_estimate);
  const creditsIssued = creditNotes(estimate, "refundable");
  const balance = creditBalance + creditsIssued - totals.creditsApplied;
  return {
    ...totals,
    creditsIssued,
    creditBalance: balance,
    adjustments: creditNotes(estimate, "adjustment"),
    nextBilling: at ? nextBillingOf(at, renewalAmount, balance) : null,
  };
}

/** Whether a line charges one whole billing period (a month or a year) rather than part of one. */
function wholePeriod(line: ChargebeeLineItem): boolean {
  const from = new Date(line.date_from * 1000);
  return (["month", "year"] as const).some((period) => seconds(addPeriod(from, period)) === line.date_to);
}

/**
 * What an invoice was for, which Chargebee does not say: one of no subscription is one-time; the subscription's
 * first invoice is its first term; one that applies the credits of a subscription change, or charges a recurring
 * item for part of a billing period (a prorated change), is a change; any other (each recurring item for a whole
 * period) is a renewal.
 */
export function invoicePurposeOf(invoice: ChargebeeInvoice): InvoicePurpose {
  if (!invoice.subscription_id) return "one_time";
  if (invoice.first_invoice) return "new_subscription";
  const changeCredits = (invoice.applied_credits ?? []).some(
    (credit) => credit.cn_reason_code === "subscription_change",
  );
  const prorated = (invoice.line_items ?? []).some(
    (line) => (line.entity_type === "plan" || line.entity_type === "addon") && !wholePeriod(line),
  );
  return changeCredits || prorated ? "subscription_change" : "renewal";
}

export function invoiceOf(invoice: ChargebeeInvoice): Invoice {
  return {
    ...totalsOf(invoice),
    id: invoice.id,
    customerId: invoice.customer_id,
    subscriptionId: invoice.subscription_id ?? null,
    status: invoice.status,
    amountPaid: invoice.amount_paid ?? 0,
    date: dateOf(invoice.date) ?? new Date(),
    // Chargebee's invoice id is the invoice's number (with the site's prefix, if it has one).
    number: invoice.id,
    purpose: invoicePurposeOf(invoice),
    paidAt: dateOf(invoice.paid_at),
    // Chargebee gives the next retry while dunning is in progress.
    nextRetryAt: invoice.dunning_status === "in_progress" ? dateOf(invoice.next_retry_at) : null,
    // Chargebee tells why on the payment's transaction, not on the invoice.
    paymentFailure: null,
    resourceVersion: invoice.resource_version ?? 0,
    billedTo: billedToOf(invoice),
    poNumber: invoice.po_number && !isOrderKey(invoice) ? invoice.po_number : null,
  };
}

/**
 * The buyer as the invoice names them: Chargebee keeps the invoice's billing address and VAT number as they were
 * when it was made (or last updated with update_details). Whether the number was valid then it does not say on the
 * invoice; its own document decides what to print.
 */
function billedToOf(invoice: ChargebeeInvoice): InvoiceParty | null {
  const address = addressOf(invoice.billing_address);
  if (!address && !invoice.vat_number) return null;
  const contact = [address?.firstName, address?.lastName].filter(Boolean).join(" ");
  return {
    name: address?.company || contact,
    contact,
    email: address?.email ?? "",
    address,
    vatNumber: invoice.vat_number ?? null,
    vatNumberValid: false,
  };
}

/**
 * Whether the PO number is the adapter's own key of a hardware invoice (decision 161: the SHA-256 of the order's
 * key, base64url, on an invoice of no subscription), which is no purchase order of the customer's.
 */
const isOrderKey = (invoice: ChargebeeInvoice) =>
  !invoice.subscription_id && /^[A-Za-z0-9_-]{43}$/.test(invoice.po_number ?? "");

/** What a failed SDK call rejects with: Chargebee's JSON error body, or an Error of the SDK's own. */
interface ChargebeeFailure {
  message?: unknown;
  type?: unknown;
  api_error_code?: unknown;
  http_status_code?: unknown;
  param?: unknown;
  detail?: unknown;
}

/**
 * A Chargebee payment intent as the port's. Chargebee's statuses are its own: `inited` until Chargebee.js starts an
 * attempt, `in_progress` while the bank's challenge is open, then `authorized`, `consumed` by the charge it paid, or
 * `expired` an hour after it was made. Chargebee documents no status for a failed authentication: the intent's
 * active payment attempt is `refused`, with the gateway's words, whatever the intent's status says (decision 226).
 */
export function paymentIntentOf(
  intent: ChargebeePaymentIntent,
  paymentSourceId: string,
  redirectUrl: string,
): PaymentIntent {
  const attempt = intent.active_payment_attempt;
  const status: PaymentIntent["status"] =
    intent.status === "authorized" || intent.status === "consumed" || intent.status === "expired"
      ? intent.status
      : attempt?.status === "refused"
        ? "failed"
        : "requires_action";
  const failure =
    status === "failed"
      ? (attempt?.error_text ?? "The payment's authentication failed.")
      : status === "expired"
        ? PAYMENT_INTENT_EXPIRED_MESSAGE
        : null;
  // Chargebee.js's 3DS handler takes the intent as the API answered it (its gateway and amount among the rest).
  const browserIntent = { ...intent } as Record<string, unknown>;
  return { id: intent.id, status, amount: intent.amount, paymentSourceId, redirectUrl, failure, browserIntent };
}

/** The gateway's code Chargebee quotes in brackets in a payment failure ("... Error message: (card_declined) ..."). */
function gatewayCode(message: string): string | undefined {
  return /Error message\s*:\s*\(([^)]*)\)/.exec(message)?.[1].trim();
}

/**
 * The port's code for Chargebee's: a payment the gateway declined because the bank asks the present cardholder to
 * authenticate it is AUTHENTICATION_REQUIRED (Chargebee quotes the gateway's `authentication_required`); a payment
 * intent Chargebee will not spend, for any reason, PAYMENT_INTENT_INVALID.
 */
function codeOf(details: ChargebeeFailure, chargebeeMessage: string | undefined): string | undefined {
  const code = stringOrUndefined(details.api_error_code);
  if (code === "resource_not_found") return "not_found";
  if (code === "payment_intent_invalid" || code === "payment_intent_invalid_amount") return PAYMENT_INTENT_INVALID;
  if (details.type === "payment" && chargebeeMessage && gatewayCode(chargebeeMessage) === AUTHENTICATION_REQUIRED) {
    return AUTHENTICATION_REQUIRED;
  }
  return code;
}

/**
 * The card gateway's own words in a payment failure, which Chargebee quotes after "Error message:" with the
 * gateway's code in brackets ("... Error message: (card_declined) Your card was declined."), or undefined.
 */
export function declineReason(message: string): string | undefined {
  const reason = /Error message\s*:\s*(?:\([^)]*\)\s*)?(.+)$/s.exec(message)?.[1].trim();
  return reason || undefined;
}

/**
 * Chargebee's failure as a BillingError. A JSON error body is Chargebee speaking: 4xx is final, 429 and 503
 * are retryable. Everything else (timeouts, connection failures, bodies that are not JSON) carries no message
 * of Chargebee's; a read is then safe to retry, while a write may have happened.
 *
 * Chargebee writes its messages for developers ("addons[quantity][0] : This param ..."), not for customers,
 * so the only text that reaches a customer is a card's decline reason as the gateway gave it; any other
 * message stays in the error (and the log) and the page shows its own message for what failed.
 */
export function billingErrorOf(operation: string, writes: boolean, failure: unknown): ProviderError {
  if (failure instanceof ProviderError) return failure;
  const details = (typeof failure === "object" && failure !== null ? failure : {}) as ChargebeeFailure;
  const status = typeof details.http_status_code === "number" ? details.http_status_code : undefined;
  const unsure: ErrorKind = writes ? "unknown" : "retryable";
  const chargebeeMessage =
    !(failure instanceof Error) && typeof details.message === "string" ? details.message : undefined;
  const kind: ErrorKind =
    status === 429 || status === 503
      ? "retryable"
      : chargebeeMessage !== undefined && status !== undefined && status < 500
        ? "final"
        : unsure;
  const providerMessage =
    chargebeeMessage !== undefined && details.type === "payment" ? declineReason(chargebeeMessage) : undefined;
  const code = codeOf(details, chargebeeMessage);
  const summary = chargebeeMessage ?? (failure instanceof Error ? failure.message : "no answer");
  return new BillingError(`Chargebee ${operation} failed: ${summary}`, {
    kind,
    providerMessage,
    code,
    field: stringOrUndefined(details.param),
  });
}

const stringOrUndefined = (value: unknown) => (typeof value === "string" ? value : undefined);
