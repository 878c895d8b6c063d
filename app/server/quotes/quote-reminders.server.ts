import { and, eq, gt, isNotNull, isNull, lte } from "drizzle-orm";
import { formatDate } from "~/domain/format";
import { QUOTE_REMINDER_DAYS, quoteUrls } from "~/domain/quotes";
import { greeting, organizationInMail } from "~/server/accounts/index.server";
import { portalNow } from "~/server/billing/index.server";
import { queueMail, scheduledLinkOrigin } from "~/server/mail/index.server";
import { db } from "~/server/platform/database/db.server";
import { quotes, users } from "~/server/platform/database/tables.server";
import { errorFields, logger } from "~/server/platform/log/log.server";

/**
 * The reminder to a quote's maker that a quote they sent expires in QUOTE_REMINDER_DAYS days and is still open: a
 * sweep on the portal's clock, run by every instance every few minutes. Each reminder is one mail keyed by its quote
 * (the mail job's key keeps it to one however many sweeps queue it); the quote's reminded_at, set after the mail is
 * queued, takes it out of later sweeps, and a sweep that died in between queues the same keyed mail again.
 */

const DAY_MS = 24 * 60 * 60 * 1000;
/** How often each process sweeps: a reminder is for a day, so minutes late is on time. */
const SWEEP_MS = 10 * 60_000;

/** Queues the reminders due at the portal's `now`; returns how many quotes it reminded of. */
export async function sendDueQuoteReminders(now?: Date): Promise<number> {
  const at = now ?? (await portalNow());
  const due = await db
    .select({ quote: quotes, maker: users })
    .from(quotes)
    .innerJoin(users, eq(users.id, quotes.madeByUserId))
    .where(
      and(
        eq(quotes.status, "open"),
        isNotNull(quotes.sentAt),
        isNull(quotes.remindedAt),
        gt(quotes.validUntil, at),
        lte(quotes.validUntil, new Date(at.getTime() + QUOTE_REMINDER_DAYS * DAY_MS)),
      ),
    );
  for (const { quote, maker } of due) {
    await queueMail({
      accountId: quote.ownerId,
      to: maker.email,
      subject: `Quote ${quote.number} expires on ${formatDate(quote.validUntil)}`,
      key: `quote-reminder:${quote.id}`,
      content: {
        paragraphs: [
          greeting(maker),
          `Quote ${quote.number} for ${organizationInMail(quote.organizationName)}, sent to ${quote.sentTo ?? ""}, has not been accepted yet. It expires on ${formatDate(quote.validUntil)}.`,
          "To give the customer more time, copy it into a new quote (priced at today's prices) and send that.",
        ],
        action: { label: "Open the quote", url: new URL(quoteUrls.page(quote.id), scheduledLinkOrigin()).href },
      },
    });
    await db
      .update(quotes)
      .set({ remindedAt: at })
      .where(and(eq(quotes.id, quote.id), isNull(quotes.remindedAt)));
  }
  return due.length;
}

/** A sweep whose failure is logged, not thrown: what it did not queue, the next sweep of any instance does. */
export async function sweepQuoteReminders(now?: Date): Promise<void> {
  try {
    await sendDueQuoteReminders(now);
  } catch (error) {
    logger.error({ event: "quote-reminders-failed", ...errorFields(error) });
  }
}

let started = false;

/** Sweeps now (a reminder that fell due while the portal was down goes at once) and every SWEEP_MS after. */
export function startQuoteReminders(): void {
  if (started) return;
  started = true;
  const tick = () => void sweepQuoteReminders();
  tick();
  setInterval(tick, SWEEP_MS).unref();
}
