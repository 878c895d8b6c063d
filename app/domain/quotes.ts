import { z } from "zod";
import type { QuoteEventKind, QuoteStatus } from "~db/schema";
import { requiredEmail } from "./fields";
import { formatCents, formatDate } from "./format";
import { plainName, quotedName } from "./names";
import { poNumberField } from "./purchase-orders";
import { setPageStart, type PageStart } from "./row-pages";
import { MAX_EMAIL_LENGTH } from "./text-limits";

/**
 * Quotes: a priced, dated offer of a new license, numbered Q-<year>-<4 digits>. What is stored never changes but
 * for the status; "expired" is what an open quote is once its valid-until has passed on the portal's clock, read,
 * not written, so no sweep has to run before a page can say it.
 */

export const QUOTE_VALIDITY_DAYS = { default: 30, min: 1, max: 90 } as const;

export const QUOTE_VALIDITY_MESSAGE = `Must be a whole number of days from ${QUOTE_VALIDITY_DAYS.min} to ${QUOTE_VALIDITY_DAYS.max}.`;

/** The days a quote is valid, as posted ("" means the default), or null when they are not a whole number in range. */
export function validityDays(posted: string): number | null {
  const trimmed = posted.trim();
  if (trimmed === "") return QUOTE_VALIDITY_DAYS.default;
  const days = Number(trimmed);
  return Number.isInteger(days) && days >= QUOTE_VALIDITY_DAYS.min && days <= QUOTE_VALIDITY_DAYS.max ? days : null;
}

const DAY_MS = 24 * 60 * 60 * 1000;

/** When a quote made at `quotedAt` stops being valid. */
export const validUntilOf = (quotedAt: Date, days: number) => new Date(quotedAt.getTime() + days * DAY_MS);

/** The quote's number: Q-2026-0001 (more digits once a year has more than 9,999). */
export const quoteNumber = (year: number, sequence: number) => `Q-${year}-${String(sequence).padStart(4, "0")}`;

/** The status a quote has now: an open one past its valid-until has expired. */
export function quoteStatusAt(quote: { status: QuoteStatus; validUntil: Date | string }, now: Date): QuoteStatus {
  return quote.status === "open" && new Date(quote.validUntil).getTime() <= now.getTime() ? "expired" : quote.status;
}

export const QUOTE_STATUS_NAMES: Record<QuoteStatus, string> = {
  open: "Open",
  accepted: "Accepted",
  ordered: "Ordered",
  expired: "Expired",
  withdrawn: "Withdrawn",
};

export const QUOTE_EVENT_NAMES: Record<QuoteEventKind, string> = {
  made: "Made",
  sent: "Sent",
  opened: "Opened",
  accepted: "Accepted",
  ordered: "Ordered",
  withdrawn: "Withdrawn",
};

/** What the printed quote says, so no one pays it as a bill. */
export const NOT_AN_INVOICE = "This is a quote, not an invoice.";

export const QUOTE_NOT_OPEN = "This quote is no longer open, so it cannot be withdrawn.";

export const QUOTE_FOR_NEW_CUSTOMER =
  "A quote is made for a customer you have added. Add the customer first, then make the quote.";

export const QUOTES_PER_PAGE = 20;

/** How many days before a sent, open quote expires its maker is reminded of it. */
export const QUOTE_REMINDER_DAYS = 7;

export const quoteUrls = {
  list: "/quotes",
  page: (quoteId: string) => `/quotes/${quoteId}`,
  pdf: (quoteId: string) => `/quotes/${quoteId}/pdf`,
  /** The mailed link's page, for whoever holds the link, with no account. */
  link: (token: string) => `/quote/${token}`,
  linkPdf: (token: string) => `/quote/${token}/pdf`,
};

/** 'Send': the address the quote's link is mailed to. */
export const quoteSendSchema = z.object({ to: requiredEmail.pipe(z.string().max(MAX_EMAIL_LENGTH).toLowerCase()) });

/** The acceptance form's words, the same on the link's page and on the quote's page in the portal. */
export const QUOTE_ACCEPT_LABELS = {
  name: "Your name",
  poNumber: "PO number (optional)",
  submit: "Accept this quote",
} as const;

/** 'Accept this quote' on the link's page: who accepts (a plain name, required) and an optional PO number. */
export const quoteAcceptSchema = z.object({ name: plainName, poNumber: poNumberField });

/** What a quote for an end customer says of accepting it in the portal, the maker's choice. */
export const customerAcceptanceNote = (quote: { organizationName: string; customerMayAccept: boolean }) =>
  quote.customerMayAccept
    ? `The Technical contacts of ${quote.organizationName} may accept this quote in the portal.`
    : "This quote is accepted through its mailed link only, not in the portal.";

/** The maker's choice on the Review step and the Send form: whether the end customer may accept in the portal. */
export const customerMayAcceptLabel = (organizationName: string) =>
  `Let the Technical contacts of ${organizationName} accept it in the portal`;

/** Why an end customer's Technical contact may not accept a quote its maker did not let it accept in the portal. */
export const notAcceptableInPortal = (makerOrganization: string) =>
  `${makerOrganization} has not let you accept this quote in the portal. Ask them to send you its link.`;

export const QUOTE_NOT_SENDABLE = "This quote is no longer open, so it cannot be sent.";

/** What the link's page says of a link that opens nothing: the same whatever the reason, so it tells no prober which. */
export const QUOTE_LINK_GONE =
  "This quote link cannot be used: it may be mistyped, or the quote was withdrawn or has expired. Ask whoever sent it for a new one.";

/** Who the history names for an opening of the mailed link: whoever holds it, as the portal cannot know. */
export const QUOTE_LINK_READER = "Someone with the link";

/**
 * A quote's acceptance as the history's detail and the pages say it: the accepter's words quoted, as data, and the
 * address it came from (null for readers who are not shown it).
 */
export function acceptanceDetail(acceptance: { poNumber: string | null; address: string | null }): string {
  const po = acceptance.poNumber ? `PO number ${quotedName(acceptance.poNumber)}` : "";
  return [po, acceptance.address === null ? "" : `from ${acceptance.address}`].filter(Boolean).join(", ");
}

/**
 * Why a quote's link accepts nothing (null while it may be accepted): it expired, was withdrawn, or was accepted
 * already (by whom and when, the accepter's name quoted as data).
 */
export function quoteClosedMessage(quote: {
  status: QuoteStatus;
  validUntil: Date | string;
  acceptedByName: string | null;
  acceptedAt: Date | string | null;
}): string | null {
  switch (quote.status) {
    case "open":
      return null;
    case "expired":
      return `This quote expired on ${formatDate(quote.validUntil)} and can no longer be accepted.`;
    case "withdrawn":
      return "This quote was withdrawn and can no longer be accepted.";
    case "accepted":
    case "ordered": {
      const by = quote.acceptedByName ? ` by ${quotedName(quote.acceptedByName)}` : "";
      const on = quote.acceptedAt ? ` on ${formatDate(quote.acceptedAt)}` : "";
      return `This quote has already been accepted${by}${on}.`;
    }
  }
}

/**
 * The /quotes URL of a filter and where its page starts (the list pages by its rows, app/domain/row-pages): plain
 * links and a GET form, so it works without JavaScript.
 */
export function quotesHref(filter: { status: string | null; customerId: string | null }, start: PageStart = null) {
  const query = new URLSearchParams();
  if (filter.status) query.set("status", filter.status);
  if (filter.customerId) query.set("customer", filter.customerId);
  const search = setPageStart(query, start).toString();
  return search ? `${quoteUrls.list}?${search}` : quoteUrls.list;
}

/**
 * What ordering a quote compares: the price of today's invoice, what recurs after, and the price list it was priced
 * on. Today's price is the invoice's total before the customer's credits: credits pay part of it (the card is charged
 * less), they do not change what was quoted; anything that raises the total (a price, a coupon ended, a tax) does.
 */
export interface QuotedPrice {
  total: number;
  recurring: number | null;
  priceListVersion: string;
}

const amountText = (cents: number | null) => (cents === null ? "none" : formatCents(cents));

/**
 * What changed between the quote's price and the order's fresh one, in words (old and new amounts), or null when
 * nothing did: only then may the quote be ordered, so the customer pays what it says (less the account's credits).
 */
export function quotePriceChange(quoted: QuotedPrice, fresh: QuotedPrice): string | null {
  const changes: string[] = [];
  if (quoted.total !== fresh.total) {
    changes.push(`the total due today was ${amountText(quoted.total)} and is now ${amountText(fresh.total)}`);
  }
  if (quoted.recurring !== fresh.recurring) {
    changes.push(`the recurring amount was ${amountText(quoted.recurring)} and is now ${amountText(fresh.recurring)}`);
  }
  if (changes.length === 0 && quoted.priceListVersion !== fresh.priceListVersion) {
    changes.push("its prices or discounts are no longer those of today's price list");
  }
  return changes.length === 0
    ? null
    : `This quote's prices changed since it was made, so nothing was charged: ${changes.join("; ")}. Copy it into a new quote to order it at today's prices.`;
}

/**
 * Why the quote cannot be ordered at `now`; null for an accepted one still valid (an accepted quote past its
 * valid-until has expired for ordering too: its prices were offered until then).
 */
export function quoteOrderRefusal(quote: { status: QuoteStatus; validUntil: Date | string }, now: Date): string | null {
  const expired = new Date(quote.validUntil).getTime() <= now.getTime();
  switch (quote.status === "accepted" && expired ? "expired" : quoteStatusAt(quote, now)) {
    case "accepted":
      return null;
    case "open":
      return "This quote has not been accepted yet: it can be ordered once the customer accepts it.";
    case "expired":
      return "This quote has expired and can no longer be ordered. Copy it into a new quote at today's prices.";
    case "withdrawn":
      return "This quote was withdrawn and can no longer be ordered.";
    case "ordered":
      return QUOTE_ALREADY_ORDERED;
  }
}

export const QUOTE_ALREADY_ORDERED = "This quote was already ordered.";

/** What a coupon's post on a quote's order gets: the quote's coupon, if any, is the only one its price has. */
export const QUOTE_KEEPS_ITS_COUPON =
  "A quote's order keeps the quote's own coupon: no other can be applied or removed.";
