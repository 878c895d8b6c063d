import type { InvoicePurpose, InvoiceStatus, SubscriptionStatus } from "~db/billing-values";

/**
 * How a recurring license follows its subscription after checkout: the date it stops, whether it renews, what a
 * failed renewal asks for, and the words the pages use for invoices. Pure rules over the portal's copy of the
 * subscription (db `subscriptions`), shared by the consumer of the provider's events and the pages.
 */

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * Days a renewing license stays valid past the term its customer has paid for (decision 186). A paying customer's
 * doors must never lock because a renewal was processed late: a webhook Chargebee retries for three days, a
 * reconciliation an hour away, a card retried by dunning for a week, a new file that still has to reach an
 * on-premise Hub. Fourteen days covers all of them; a customer who stops paying loses the license then.
 */
export const LICENSE_GRACE_DAYS = 14;

/** What the rules read of a subscription: the portal's copy, as the provider last reported it. */
export interface SubscriptionFacts {
  status: SubscriptionStatus;
  currentTermStart: Date | null;
  currentTermEnd: Date | null;
  cancelledAt: Date | null;
  /** What its unpaid invoices still ask for, in cents, and the date of the oldest of them. */
  totalDues: number;
  dueSince: Date | null;
}

const later = (date: Date, days: number) => new Date(date.getTime() + days * DAY_MS);
const earliest = (...dates: (Date | null)[]) =>
  dates.filter((date): date is Date => date !== null).sort((a, b) => a.getTime() - b.getTime())[0] ?? null;

/**
 * The end of what the customer has paid for: the current term's end when nothing is due, else the start of what
 * is unpaid (a declined renewal is dated at the start of the term it bills).
 */
export function paidThrough(subscription: SubscriptionFacts): Date | null {
  if (subscription.totalDues > 0 && subscription.dueSince) return subscription.dueSince;
  return subscription.currentTermEnd;
}

/**
 * The license's valid-to for its subscription (decision 186); null when the provider gave no term.
 * - Renewing (active, future): what is paid for, plus the grace. A renewal not paid yet leaves it where the paid
 *   term put it, so the doors stay open through dunning and no longer.
 * - Auto-renew off (non_renewing): the day the term ends, its last day: the customer chose to stop, and is
 *   charged nothing more.
 * - Cancelled for a renewal never paid: what the paid term gave, grace included ("expires at its valid-to").
 *   Cancelled otherwise (at the term's end, or by support): the day it was cancelled.
 */
export function licenseEndOf(subscription: SubscriptionFacts): Date | null {
  const paid = paidThrough(subscription);
  const graceEnd = paid && later(paid, LICENSE_GRACE_DAYS);
  const unpaid = subscription.totalDues > 0;
  switch (subscription.status) {
    case "non_renewing":
      return unpaid ? earliest(graceEnd, subscription.cancelledAt) : (subscription.cancelledAt ?? paid);
    case "cancelled":
      return unpaid ? graceEnd : (subscription.cancelledAt ?? paid);
    default:
      return graceEnd;
  }
}

/** Where a recurring license stands with its subscription, for the pages. */
export type RenewalState =
  /** Renews at `renewsOn`; auto-renew can be turned off. */
  | { kind: "renewing"; renewsOn: Date | null }
  /** A renewal's payment failed: `amountDue` is asked for; the license stops on `stopsOn` unless it is paid. */
  | { kind: "payment_failed"; amountDue: number; stopsOn: Date }
  /** Auto-renew is off: the license's last day is `lastDay`; it can be turned on again until then. */
  | { kind: "auto_renew_off"; lastDay: Date }
  /** The subscription was cancelled; `unpaid` when that was for a renewal never paid. Renew is a new order. */
  | { kind: "cancelled"; unpaid: boolean; endedOn: Date };

/** The state of a subscription whose license is valid to `validTo`. */
export function renewalStateOf(subscription: SubscriptionFacts, validTo: Date): RenewalState {
  switch (subscription.status) {
    case "cancelled":
      return { kind: "cancelled", unpaid: subscription.totalDues > 0, endedOn: validTo };
    case "non_renewing":
      return { kind: "auto_renew_off", lastDay: validTo };
    default:
      return subscription.totalDues > 0
        ? { kind: "payment_failed", amountDue: subscription.totalDues, stopsOn: validTo }
        : { kind: "renewing", renewsOn: subscription.currentTermEnd };
  }
}

/** What an invoice was for, in the words of the invoices page. */
export type InvoiceFor = "New license" | "Renewal" | "Update" | "Hardware" | "Trial hardware";

export function invoiceForOf(purpose: InvoicePurpose, trialHardware: boolean): InvoiceFor {
  switch (purpose) {
    case "new_subscription":
      return "New license";
    case "renewal":
      return "Renewal";
    case "subscription_change":
      return "Update";
    case "one_time":
      return trialHardware ? "Trial hardware" : "Hardware";
  }
}

/** A subscription's status in the product's words, as an administrator's view of an organization shows it. */
export function subscriptionStatusLabel(status: SubscriptionStatus): string {
  switch (status) {
    case "future":
      return "Starts later";
    case "in_trial":
      return "In trial";
    case "active":
      return "Active";
    case "non_renewing":
      return "Non-renewing";
    case "paused":
      return "Paused";
    case "cancelled":
      return "Cancelled";
    case "transferred":
      return "Transferred";
  }
}

/** An invoice's status in the words of the invoices page. */
export function invoiceStatusLabel(status: InvoiceStatus): "Paid" | "Payment due" | "Not paid" | "Voided" {
  switch (status) {
    case "paid":
      return "Paid";
    case "not_paid":
      return "Not paid";
    case "voided":
      return "Voided";
    default:
      // Chargebee's posted (waiting to be collected) and pending (not closed yet) still ask for their amount.
      return "Payment due";
  }
}

/**
 * Whether the customer can pay an invoice now: a renewal whose payment failed, of a subscription still running.
 * One given up on by dunning (not paid) belongs to a cancelled subscription: paying it would buy back nothing, so
 * the page offers a new license instead.
 */
export const isPayable = (invoice: { status: InvoiceStatus; amountDue: number }) =>
  invoice.status === "payment_due" && invoice.amountDue > 0;

/**
 * Why a renewal was not charged when the card's bank asks the cardholder to confirm every payment: a renewal is
 * charged without them, so the bank refuses it until they pay it themselves, where the bank asks them.
 */
export const BANK_ASKS_TO_CONFIRM =
  "The card's bank asks the cardholder to confirm this payment. Pay now, and confirm it on the bank's page.";

/** A failed renewal or a subscription ended for one, as the home, licenses and invoices pages tell of it. */
export type RenewalNoticeView =
  | {
      kind: "payment_failed";
      licenseName: string;
      externalLicenseId: string;
      amountDue: number;
      stopsOn: string;
      payUrl: string;
      /** The card's bank refused it until the cardholder confirms the payment (BANK_ASKS_TO_CONFIRM). */
      bankAsks: boolean;
    }
  | {
      kind: "cancelled_unpaid";
      licenseName: string;
      externalLicenseId: string;
      stopsOn: string;
      /** Set once the license has stopped: 'Renew' starts a new license like it. */
      renewUrl: string | null;
    };

const segment = encodeURIComponent;

/** The pages after checkout, by what they are for. */
export const afterCheckoutUrls = {
  invoices: "/account/invoices",
  invoicePdf: (invoiceId: string, revision?: number) =>
    `/account/invoices/${segment(invoiceId)}/pdf${revision === undefined ? "" : `?revision=${revision}`}`,
  correctInvoice: (invoiceId: string) => `/account/invoices/${segment(invoiceId)}/correct`,
  payNow: (invoiceId: string) => `/account/invoices/${segment(invoiceId)}/pay`,
  payment: (jobId: string) => `/account/invoices/payments/${segment(jobId)}`,
  autoRenew: (subscriptionId: string) => `/licenses/${segment(subscriptionId)}/auto-renew`,
  renew: (licenseId: string) => `/licenses/${segment(licenseId)}/renew`,
};
