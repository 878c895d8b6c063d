import { json, type AppLoadContext } from "@remix-run/node";
import { and, eq, gt, isNotNull, isNull } from "drizzle-orm";
import type { ZodError } from "zod";
import { formatCents, formatDate } from "~/domain/format";
import { isPlainName, quotedName } from "~/domain/names";
import {
  acceptanceDetail,
  quoteAcceptSchema,
  QUOTE_LINK_GONE,
  QUOTE_LINK_READER,
  QUOTE_NOT_SENDABLE,
  quoteClosedMessage,
  quoteStatusAt,
  quoteUrls,
} from "~/domain/quotes";
import {
  GATEKEEPER,
  greeting,
  issueOneTimeToken,
  memberActor,
  organizationInMail,
  peekOneTimeToken,
  personInMail,
  recordActivity,
  validateCsrf,
  type Scope,
} from "~/server/accounts/index.server";
import { portalNow } from "~/server/billing/index.server";
import { linkOrigin, queueMail } from "~/server/mail/index.server";
import { db } from "~/server/platform/database/db.server";
import { readForm } from "~/server/platform/forms.server";
import { organizations, quotes, users } from "~/server/platform/database/tables.server";
import {
  clientAddressOf,
  giveBackQuoteLinkTry,
  takeQuoteLinkTry,
  takeQuoteMail,
  waitMessage,
} from "~/server/platform/throttle.server";
import { quotePdfDownload } from "./quote-pdf.server";
import { quoteFacts, recordEvent, requireQuote, type QuoteRecord } from "./quotes.server";

/**
 * A quote's mailed link: 'Send' mails an address a link to /quote/:token, which opens the quote read-only for whoever
 * holds it, without an account, and accepts it once. The token is one of the portal's mailed tokens (accounts'
 * one-time tokens: random, kept only hashed), bound to the quote, valid until the quote is, and deleted when the
 * quote is withdrawn. Holding the link is what lets its reader accept: the maker chose whom to send it to.
 */

const PURPOSE = "quote";

/**
 * Sends the member's organization's open quote to `to`: a new link, the quote's record of where and when it went
 * (an opening is recorded again after it) and whether the end customer it is for may accept it in the portal
 * (chosen again at each sending), the history and the log, then the mail. Why not when it is no longer open, or
 * the seconds to wait when the organization or the address had too many.
 */
export async function sendQuote(
  request: Request,
  member: Scope,
  quoteId: string,
  { to, customerMayAccept }: { to: string; customerMayAccept: boolean },
): Promise<{ refused: string } | { waitSeconds: number } | null> {
  const { quote, makerOrganization } = await requireQuote(member, quoteId);
  if (quote.ownerId !== member.organization.id) throw json({ message: "There is no such quote." }, { status: 404 });
  const waitSeconds = await takeQuoteMail(member.organization.id, to);
  if (waitSeconds > 0) return { waitSeconds };
  const now = await portalNow();
  const actor = memberActor(member.user);
  const link = await db.transaction(async (tx) => {
    // Conditional on being open: a withdrawal that committed first leaves nothing to send (and no link to revoke).
    const sent = await tx
      .update(quotes)
      .set({
        sentTo: to,
        sentAt: now,
        openedAt: null,
        customerMayAccept: quote.customerId !== null && customerMayAccept,
      })
      .where(and(eq(quotes.id, quote.id), eq(quotes.status, "open"), gt(quotes.validUntil, now)))
      .returning({ id: quotes.id });
    if (sent.length === 0) return null;
    // The link dies when the quote would expire; the page reads expiry on the portal's clock besides.
    const issued = await issueOneTimeToken(
      PURPOSE,
      { quoteId: quote.id },
      { expiresAt: quote.validUntil, data: { sentTo: to } },
      tx,
    );
    await recordEvent(tx, quote.id, "sent", actor.name, now, to);
    await recordActivity(tx, {
      organizationId: member.organization.id,
      actor,
      action: "quote.sent",
      summary: `Sent quote ${quote.number} for ${quote.organizationName} to ${to}.`,
    });
    return issued;
  });
  if (!link) return { refused: QUOTE_NOT_SENDABLE };
  await mailQuoteLink(request, { quote, makerOrganization, makerName: actor.name, to, token: link.token });
  return null;
}

/**
 * The link's mail: who sends which quote for whom, what it costs, until when it is valid, and the link. The names
 * are the portal's (members' and organizations'), each through the rules of names in mail.
 */
async function mailQuoteLink(
  request: Request,
  sending: { quote: QuoteRecord; makerOrganization: string; makerName: string; to: string; token: string },
) {
  const { quote, makerOrganization, makerName, to, token } = sending;
  const recurring = quote.estimate.nextBilling
    ? `, then ${formatCents(quote.estimate.nextBilling.amount)} each billing cycle`
    : "";
  await queueMail({
    accountId: quote.ownerId,
    to,
    subject: `Quote ${quote.number} from ${isPlainName(makerOrganization) ? makerOrganization : "a GateKeeper reseller"}`,
    content: {
      paragraphs: [
        "Hello,",
        `${personInMail(makerName)} of ${organizationInMail(makerOrganization)} sent you quote ${quote.number} for a GateKeeper license for ${organizationInMail(quote.organizationName)}: ${formatCents(quote.estimate.amountDue)} due when it is ordered${recurring}.`,
      ],
      action: { label: "Open the quote", url: new URL(quoteUrls.link(token), linkOrigin(request)).href },
      after: [
        `The quote is valid until ${formatDate(quote.validUntil)}. You can read it, download it as a PDF and accept it there, without an account.`,
        "If you did not expect this, you can ignore this message.",
      ],
    },
  });
}

/** The quote a link opens, counted by the client's throttle; a 429 when it tried too many, null when none. */
async function quoteOfLink(context: AppLoadContext | undefined, token: string) {
  const waitSeconds = await takeQuoteLinkTry(context);
  if (waitSeconds > 0) {
    throw json(
      { message: waitMessage("quote links opened", waitSeconds) },
      { status: 429, headers: { "Retry-After": String(waitSeconds) } },
    );
  }
  const grant = await peekOneTimeToken(PURPOSE, token);
  if (!grant?.quoteId) return null;
  await giveBackQuoteLinkTry(context);
  const [found] = await db
    .select({ quote: quotes, makerOrganization: organizations.name })
    .from(quotes)
    .innerJoin(organizations, eq(organizations.id, quotes.ownerId))
    .where(eq(quotes.id, grant.quoteId));
  if (!found) return null;
  return { ...found, status: quoteStatusAt(found.quote, await portalNow()) };
}

/** What the link's page shows: the quote as quoted, its validity and state, and whether it may still be accepted. */
const linkView = ({ quote, makerOrganization, status }: NonNullable<Awaited<ReturnType<typeof quoteOfLink>>>) => ({
  ...quoteFacts(quote, makerOrganization, status),
  closed: quoteClosedMessage({ ...quote, status }),
});

export type QuoteLinkView = ReturnType<typeof linkView>;

/**
 * The link's page: the quote (null for a link that opens nothing, whatever the reason, as a 404). The first opening
 * since the quote was last sent goes into its history, once, by a conditional update.
 */
export async function openQuoteLink(context: AppLoadContext | undefined, token: string) {
  const found = await quoteOfLink(context, token);
  if (!found) return null;
  const now = await portalNow();
  await db.transaction(async (tx) => {
    const first = await tx
      .update(quotes)
      .set({ openedAt: now })
      .where(and(eq(quotes.id, found.quote.id), isNotNull(quotes.sentAt), isNull(quotes.openedAt)))
      .returning({ id: quotes.id });
    if (first.length > 0) await recordEvent(tx, found.quote.id, "opened", QUOTE_LINK_READER, now);
  });
  return linkView(found);
}

/** The quote's PDF through its link (the page's 'Download PDF'), or a 404 for a link that opens nothing. */
export async function quoteLinkPdfResponse(context: AppLoadContext | undefined, token: string): Promise<Response> {
  const found = await quoteOfLink(context, token);
  if (!found) throw json({ message: QUOTE_LINK_GONE }, { status: 404 });
  return quotePdfDownload(found.quote, found.status, found.makerOrganization);
}

export type Acceptance = { accepted: QuoteLinkView } | { refused: string } | null;

/**
 * Who accepts a quote: whoever holds its mailed link, or a member of the end customer it is for, in the portal,
 * where its maker let that customer accept it.
 */
export type Accepter = "link" | Scope;

/** How the log and the maker's mail say the quote was accepted. */
const acceptedThrough = (by: Accepter) => (by === "link" ? "through its mailed link" : "in the portal");

/**
 * Accepts the quote: one conditional update from open (not expired on the portal's clock, not withdrawn) to
 * accepted, with the accepter's name, PO number, time and address, so of two posts only one accepts; the history
 * and the maker's log record it and its maker is mailed. In the portal the update holds only while the quote is
 * for the member's organization and its maker lets that organization accept it. The quote as accepted, or null
 * when it accepted nothing.
 */
export async function recordAcceptance(
  context: AppLoadContext | undefined,
  request: Request,
  quote: QuoteRecord,
  { name, poNumber }: { name: string; poNumber: string | null },
  by: Accepter,
): Promise<QuoteRecord | null> {
  const now = await portalNow();
  const address = clientAddressOf(context);
  const accepted = await db.transaction(async (tx) => {
    const [row] = await tx
      .update(quotes)
      .set({ status: "accepted", acceptedByName: name, poNumber, acceptedAt: now, acceptedFrom: address })
      .where(
        and(
          eq(quotes.id, quote.id),
          eq(quotes.status, "open"),
          gt(quotes.validUntil, now),
          by === "link"
            ? undefined
            : and(eq(quotes.customerId, by.organization.id), eq(quotes.customerMayAccept, true)),
        ),
      )
      .returning();
    if (!row) return null;
    await recordEvent(tx, quote.id, "accepted", name, now, acceptanceDetail({ poNumber, address }));
    await recordActivity(tx, {
      organizationId: quote.ownerId,
      actor: by === "link" ? GATEKEEPER : memberActor(by.user),
      action: "quote.accepted",
      summary: `Quote ${quote.number} for ${quote.organizationName} was accepted ${acceptedThrough(by)} by ${quotedName(name)}${poNumber ? ` with PO number ${quotedName(poNumber)}` : ""}.`,
    });
    return row;
  });
  if (accepted) await mailAcceptance(request, accepted, by);
  return accepted;
}

/**
 * 'Accept this quote' through its link. Null for a link that opens nothing, else the quote as accepted, or why it
 * accepts nothing.
 */
export async function acceptQuote(
  context: AppLoadContext | undefined,
  request: Request,
  token: string,
  acceptance: { name: string; poNumber: string | null },
): Promise<Acceptance> {
  const found = await quoteOfLink(context, token);
  if (!found) return null;
  const accepted = await recordAcceptance(context, request, found.quote, acceptance, "link");
  if (!accepted) {
    // Someone else's post (a second tab) accepted it first, or it was withdrawn or expired meanwhile.
    const again = await quoteOfLink(context, token);
    return again ? { refused: quoteClosedMessage({ ...again.quote, status: again.status }) ?? QUOTE_LINK_GONE } : null;
  }
  return { accepted: linkView({ ...found, quote: accepted, status: "accepted" }) };
}

/**
 * Tells the quote's maker it was accepted: the accepter's name and PO number are a stranger's words, so the mail
 * quotes them as data. Nobody is mailed when the maker's account is gone (the history and the log keep it).
 */
async function mailAcceptance(request: Request, quote: QuoteRecord, by: Accepter) {
  if (!quote.madeByUserId) return;
  const [maker] = await db.select().from(users).where(eq(users.id, quote.madeByUserId));
  if (!maker) return;
  const po = quote.poNumber ? ` and the PO number ${quotedName(quote.poNumber)}` : "";
  await queueMail({
    accountId: quote.ownerId,
    to: maker.email,
    subject: `Quote ${quote.number} was accepted`,
    // Once per quote, however often this is reached.
    key: `quote-accepted:${quote.id}`,
    content: {
      paragraphs: [
        greeting(maker),
        `Quote ${quote.number} for ${organizationInMail(quote.organizationName)} was accepted ${acceptedThrough(by)} on ${formatDate(quote.acceptedAt ?? quote.quotedAt)}, by someone who gave the name ${quotedName(quote.acceptedByName ?? "")}${po}.`,
      ],
      action: { label: "Open the quote", url: new URL(quoteUrls.page(quote.id), linkOrigin(request)).href },
    },
  });
}

/** 'Accept this quote''s form, as typed and as checked (the same form on the link's page and in the portal). */
export function readAcceptanceForm(formData: FormData) {
  const typed = { name: String(formData.get("name") ?? ""), poNumber: String(formData.get("poNumber") ?? "") };
  return { typed, parsed: quoteAcceptSchema.safeParse(typed) };
}

/** The acceptance form's answer when a field is wrong: each field's message, and what was typed. */
export function acceptanceFieldErrors(typed: { name: string; poNumber: string }, error: ZodError) {
  const fieldErrors = Object.fromEntries(error.issues.map((issue) => [String(issue.path[0]), issue.message]));
  return json({ fieldErrors, typed }, { status: 422 });
}

/** The link page's loader: the quote, or a 404 that says the same for every link that opens nothing. */
export async function quoteLinkPageData(context: AppLoadContext | undefined, token: string) {
  const quote = await openQuoteLink(context, token);
  return json({ pageScript: null, quote }, quote ? undefined : { status: 404 });
}

/**
 * 'Accept this quote': CSRF, the name and PO number checked at their fields (what was typed comes back), then the
 * acceptance; a quote that can no longer be accepted says why (409), a link that opens nothing is a 404.
 */
export async function quoteLinkAction(request: Request, context: AppLoadContext | undefined, token: string) {
  const formData = await readForm(request);
  await validateCsrf(formData, request);
  const { typed, parsed } = readAcceptanceForm(formData);
  if (!parsed.success) return acceptanceFieldErrors(typed, parsed.error);
  const outcome = await acceptQuote(context, request, token, parsed.data);
  if (!outcome) return json({ formError: QUOTE_LINK_GONE, typed }, { status: 404 });
  if ("refused" in outcome) return json({ formError: outcome.refused, typed }, { status: 409 });
  return json({ accepted: true as const });
}
