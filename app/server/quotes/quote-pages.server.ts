import { json, redirect, type AppLoadContext } from "@remix-run/node";
import { eq } from "drizzle-orm";
import { besidePages, pageStartOf, type RowKey } from "~/domain/row-pages";
import { quoteOrderQuery, subscriptionStepUrl } from "~/domain/subscription-steps";
import {
  acceptanceDetail,
  notAcceptableInPortal,
  quoteClosedMessage,
  quoteOrderRefusal,
  QUOTE_FOR_NEW_CUSTOMER,
  QUOTE_VALIDITY_DAYS,
  QUOTE_VALIDITY_MESSAGE,
  QUOTES_PER_PAGE,
  quotesHref,
  quoteSendSchema,
  quoteUrls,
  validityDays,
} from "~/domain/quotes";
import {
  assertMay,
  mayDo,
  memberActor,
  readMemberForm,
  redirectWithToast,
  requireMember,
  type Scope,
} from "~/server/accounts/index.server";
import { errorMessage, portalNow, ProviderError } from "~/server/billing/index.server";
import { ESTIMATE_FAILED, subscriptionWizardFor } from "~/server/orders/index.server";
import { db } from "~/server/platform/database/db.server";
import { organizations, QUOTE_STATUSES, type QuoteStatus } from "~/server/platform/database/tables.server";
import { waitMessage } from "~/server/platform/throttle.server";
import { customerChoices } from "~/server/resellers/index.server";
import { quotePdfDownload } from "./quote-pdf.server";
import { acceptanceFieldErrors, readAcceptanceForm, recordAcceptance, sendQuote } from "./quote-links.server";
import {
  copyQuote,
  makeQuote,
  quoteFacts,
  quotePage,
  requireQuote,
  withdrawQuote,
  type QuoteRecord,
} from "./quotes.server";

/**
 * The quote pages' loaders and actions: /quotes (every member's), a quote's page and PDF (any member of the
 * organization that made it or the end customer it is for; another's is 404), and the changes, which are the
 * buying roles' (quotes.manage) and checked by each action itself.
 */

const isStatus = (value: string | null): value is QuoteStatus =>
  value !== null && (QUOTE_STATUSES as readonly string[]).includes(value);

/**
 * /quotes: a page of the member's quotes, newest first, filtered by status and (a distributor's) end customer, with
 * the addresses of the pages beside it. A malformed start, or one past every quote of the filter (they were
 * withdrawn meanwhile, or the filter changed), leads to the filter's first page.
 */
export async function quotesListPage(request: Request) {
  const member = await requireMember(request);
  const url = new URL(request.url);
  const asked = url.searchParams.get("status");
  const status = isStatus(asked) ? asked : null;
  const customerId = url.searchParams.get("customer") || null;
  const filter = { status, customerId };
  const start = pageStartOf(url.searchParams);
  if (start === "invalid") throw redirect(quotesHref(filter));
  const [page, choices] = await Promise.all([
    quotePage(member, filter, start, QUOTES_PER_PAGE),
    mayDo(member, "customers.read") ? customerChoices(member.organization.id, null) : null,
  ]);
  if (start !== null && page.rows.length === 0) throw redirect(quotesHref(filter));
  return json({
    status,
    customerId,
    customers: choices?.customers ?? null,
    quotes: page.rows,
    ...besidePages(page, keyOf, (beside) => quotesHref(filter, beside)),
    // Making one starts in the Store's wizard, which is for those who may also buy.
    mayMake: mayDo(member, "quotes.manage") && mayDo(member, "purchase"),
  });
}

const keyOf = (quote: { quotedAt: Date; id: string }): RowKey => ({ at: quote.quotedAt.getTime(), tie: quote.id });

/** Whether the member may change the quote: the buying roles of the organization that made it. */
const mayChange = (member: Scope, quote: { ownerId: string }) =>
  quote.ownerId === member.organization.id && mayDo(member, "quotes.manage");

/**
 * Whether the member may accept the quote in the portal: a Technical contact of the end customer it is for (the
 * access policy's row), where its maker let that customer accept it.
 */
const mayAcceptHere = (member: Scope, quote: QuoteRecord) =>
  quote.customerId === member.organization.id && quote.customerMayAccept && mayDo(member, "quotes.accept");

/** Where 'Send' mails a quote unless another address is typed: an end customer's technical contact, if it has one. */
async function contactOf(customerId: string | null): Promise<string> {
  if (!customerId) return "";
  const [customer] = await db
    .select({ contactEmail: organizations.contactEmail })
    .from(organizations)
    .where(eq(organizations.id, customerId));
  return customer?.contactEmail ?? "";
}

/** A quote's page: its lines, dates and history, and what the member may do with it. */
export async function quotePageData(request: Request, quoteId: string) {
  const member = await requireMember(request);
  const [{ quote, makerOrganization, events, status }, now] = await Promise.all([
    requireQuote(member, quoteId),
    portalNow(),
  ]);
  const changeable = mayChange(member, quote);
  const maySend = changeable && status === "open";
  // The address a quote was accepted from is for its maker's buying roles, not the end customer's people.
  const detailOf = (event: (typeof events)[number]) =>
    event.kind === "accepted" && !changeable
      ? acceptanceDetail({ poNumber: quote.poNumber, address: null })
      : event.detail;
  return json({
    quote: {
      ...quoteFacts(quote, makerOrganization, status),
      id: quote.id,
      customerId: quote.customerId,
      sentTo: quote.sentTo,
      acceptedByName: quote.acceptedByName,
      acceptedAt: quote.acceptedAt?.toISOString() ?? null,
    },
    events: events.map((event) => ({
      id: event.id,
      kind: event.kind,
      actorName: event.actorName,
      detail: detailOf(event),
      at: event.at.toISOString(),
    })),
    mayWithdraw: changeable && status === "open",
    // Ordering goes through the new-license wizard's Billing and Order steps, the quote's lines locked.
    orderTo:
      changeable && quoteOrderRefusal(quote, now) === null
        ? subscriptionStepUrl("billing", quoteOrderQuery(quote.id))
        : null,
    orderJobTo: changeable && quote.orderJobId ? `/store/orders/${quote.orderJobId}` : null,
    mayCopy: changeable,
    // The address 'Send' offers: the last one it went to, else the end customer's technical contact.
    sendTo: maySend ? (quote.sentTo ?? (await contactOf(quote.customerId))) : null,
    // 'Accept this quote' for the end customer's Technical contact, the name it offers being the member's own.
    acceptAs: status === "open" && mayAcceptHere(member, quote) ? memberActor(member.user).name : null,
  });
}

/** 'Send': the address checked at its field (what was typed comes back), then the link mailed, then the page. */
async function sendFromPage(request: Request, member: Scope, quoteId: string, formData: FormData) {
  const typed = String(formData.get("to") ?? "");
  const parsed = quoteSendSchema.safeParse({ to: typed });
  if (!parsed.success) {
    return json({ fieldErrors: { to: parsed.error.issues[0]?.message ?? "" }, to: typed }, { status: 422 });
  }
  const outcome = await sendQuote(request, member, quoteId, {
    to: parsed.data.to,
    customerMayAccept: formData.get("customerMayAccept") === "on",
  });
  if (outcome && "refused" in outcome) return json({ formError: outcome.refused, to: typed }, { status: 409 });
  if (outcome) {
    return json(
      { formError: waitMessage("quotes sent", outcome.waitSeconds), to: typed },
      { status: 429, headers: { "Retry-After": String(outcome.waitSeconds) } },
    );
  }
  return redirectWithToast(request, quoteUrls.page(quoteId), {
    kind: "success",
    message: `We sent the quote to ${parsed.data.to}.`,
  });
}

/**
 * 'Accept this quote' in the portal: the right (the access policy's, then the maker's choice on the quote), the
 * name and PO number checked at their fields, then the same acceptance as through the mailed link; a quote that can
 * no longer be accepted says why (409).
 */
async function acceptFromPage(
  request: Request,
  context: AppLoadContext | undefined,
  member: Scope,
  quoteId: string,
  formData: FormData,
) {
  assertMay(member, "quotes.accept");
  const { quote, makerOrganization } = await requireQuote(member, quoteId);
  if (!mayAcceptHere(member, quote)) {
    throw json({ message: notAcceptableInPortal(makerOrganization) }, { status: 403 });
  }
  const { typed, parsed } = readAcceptanceForm(formData);
  if (!parsed.success) return acceptanceFieldErrors(typed, parsed.error);
  const accepted = await recordAcceptance(context, request, quote, parsed.data, member);
  if (!accepted) {
    // Another post accepted it first, or it was withdrawn or expired meanwhile.
    const again = await requireQuote(member, quoteId);
    const closed = quoteClosedMessage({ ...again.quote, status: again.status });
    return json({ formError: closed ?? notAcceptableInPortal(makerOrganization), typed }, { status: 409 });
  }
  return redirectWithToast(request, quoteUrls.page(quoteId), {
    kind: "success",
    message: `You accepted quote ${quote.number}.`,
  });
}

/**
 * A quote's page's forms: Accept (an end customer's, with its own right), and the maker's Send, Withdraw and Copy
 * into a new quote (priced today, valid the default days).
 */
export async function quotePageAction(request: Request, context: AppLoadContext | undefined, quoteId: string) {
  const { member, intent, formData } = await readMemberForm(request);
  if (intent === "accept") return acceptFromPage(request, context, member, quoteId, formData);
  assertMay(member, "quotes.manage");
  if (intent === "send") return sendFromPage(request, member, quoteId, formData);
  if (intent === "withdraw") {
    const refused = await withdrawQuote(member, quoteId);
    return refused ? json({ formError: refused }, { status: 409 }) : redirect(quoteUrls.page(quoteId));
  }
  if (intent === "copy") {
    try {
      const copy = await copyQuote(member, quoteId, QUOTE_VALIDITY_DAYS.default);
      return redirect(quoteUrls.page(copy.id));
    } catch (error) {
      if (!(error instanceof ProviderError)) throw error;
      return json({ formError: errorMessage(error, ESTIMATE_FAILED) }, { status: 503 });
    }
  }
  return json({ formError: "Unknown action." }, { status: 400 });
}

/** A quote as a PDF attachment, for any member who reads it. */
export async function quotePdfResponse(request: Request, quoteId: string): Promise<Response> {
  const member = await requireMember(request);
  const { quote, makerOrganization, status } = await requireQuote(member, quoteId);
  return quotePdfDownload(quote, status, makerOrganization);
}

/**
 * The Review step's 'Save as quote': the wizard's order (of the request's `?customer=`) made into a quote valid the
 * days asked, then its page. The draft stays, so the order can go on to billing too.
 */
export async function saveReviewAsQuote(member: Scope, request: Request, formData: FormData) {
  assertMay(member, "quotes.manage");
  const typed = String(formData.get("validDays") ?? "");
  const days = validityDays(typed);
  if (days === null) {
    return json(
      { fieldErrors: { validDays: QUOTE_VALIDITY_MESSAGE }, formError: null, validDays: typed },
      { status: 400 },
    );
  }
  const { wizard, customer } = await subscriptionWizardFor(member, new URL(request.url).searchParams.get("customer"));
  const { data } = await wizard.load(member, "review");
  if (customer.kind === "new") return json({ fieldErrors: {}, formError: QUOTE_FOR_NEW_CUSTOMER }, { status: 400 });
  try {
    const quote = await makeQuote(member, {
      customer,
      draft: data,
      validDays: days,
      customerMayAccept: formData.get("customerMayAccept") === "on",
    });
    return redirect(quoteUrls.page(quote.id));
  } catch (error) {
    if (!(error instanceof ProviderError)) throw error;
    return json({ fieldErrors: {}, formError: errorMessage(error, ESTIMATE_FAILED) }, { status: 503 });
  }
}
