import type { RenewalReminderKind } from "~db/schema";
import { POLICY } from "./access-policy";
import { formatCents, formatDate } from "./format";

/**
 * The mails that tell an organization a renewal is coming: 30 days before a yearly one and 7 days before any, sent
 * to the people who can turn its auto-renew off (the Owner and Billing admins), with what renews, when, for how
 * much and to which card. Pure rules: which reminder is due, and how one payer's reminders of a day make one mail.
 */

export type { RenewalReminderKind };

const DAY_MS = 24 * 60 * 60 * 1000;

/** Days before the renewal each reminder is sent. */
export const REMINDER_DAYS: Record<RenewalReminderKind, number> = { "30_days": 30, "7_days": 7 };

/** Who is mailed: whoever may turn the renewal's auto-renew off, which is what the mail offers. */
export const REMINDED_ROLES = POLICY["licenses.auto_renew"].roles;

/** The renewal as the rules read it. */
export interface UpcomingRenewal {
  /** Whether the subscription renews at its term's end (auto-renew on, not cancelled). */
  renews: boolean;
  period: "month" | "year";
  termEnd: Date;
}

const utcDay = (date: Date) => Math.floor(date.getTime() / DAY_MS);

/** Calendar days (UTC) from now's day to the renewal's: a reminder is for a day, whatever the hour of either. */
export const daysBefore = (now: Date, termEnd: Date) => utcDay(termEnd) - utcDay(now);

/** The renewal's day, as the key of a day's reminders ("2026-12-25"). */
export const renewalDay = (termEnd: Date) => termEnd.toISOString().slice(0, 10);

/** The furthest a reminder is sent before its renewal: what the sweep reads ahead. */
export const REMINDER_HORIZON_DAYS = Math.max(...Object.values(REMINDER_DAYS));

/**
 * The reminder due now for a renewal, or null: the 7-day one within a week of it, the 30-day one (yearly only)
 * within a month and more than a week; none once its day has passed, when it does not renew (auto-renew off), or
 * when that reminder was sent for this term already (`sent`). A clock that jumps past a reminder's day (the portal
 * down, the time machine) sends the one due at the new date, never an earlier one it overtook: a 30-day reminder
 * 5 days before the renewal would say the wrong thing.
 */
export function dueReminder(
  renewal: UpcomingRenewal,
  now: Date,
  sent: readonly RenewalReminderKind[],
): RenewalReminderKind | null {
  if (!renewal.renews || renewal.termEnd <= now) return null;
  const days = daysBefore(now, renewal.termEnd);
  const due: RenewalReminderKind | null =
    days <= REMINDER_DAYS["7_days"]
      ? "7_days"
      : renewal.period === "year" && days <= REMINDER_DAYS["30_days"]
        ? "30_days"
        : null;
  return due && !sent.includes(due) ? due : null;
}

/** One renewal in a reminder mail. */
export interface ReminderLine {
  subscriptionId: string;
  externalLicenseId: string;
  licenseName: string;
  plan: string;
  /** The end customer the license is for, when a reseller pays for it; null for the payer's own. */
  customer: string | null;
  /** The renewal's date (ISO). */
  renewsOn: string;
  /** At list price, in cents; null when the price list lacks one of its items. */
  amount: number | null;
}

/** One payer's reminders of one kind for renewals on one day: one mail. */
export interface ReminderGroup {
  ownerId: string;
  kind: RenewalReminderKind;
  day: string;
  lines: ReminderLine[];
}

/**
 * The due reminders as mails: one per payer, renewal day and kind (a reseller's customers renewing that day are
 * listed in one message), its lines in license order, so the same renewals always make the same mail.
 */
export function groupReminders(due: { ownerId: string; kind: RenewalReminderKind; line: ReminderLine }[]) {
  const groups = new Map<string, ReminderGroup>();
  for (const { ownerId, kind, line } of due) {
    const day = renewalDay(new Date(line.renewsOn));
    const key = `${ownerId}|${day}|${kind}`;
    const group = groups.get(key) ?? { ownerId, kind, day, lines: [] };
    group.lines.push(line);
    groups.set(key, group);
  }
  return [...groups.values()].map((group) => ({
    ...group,
    lines: group.lines.sort((a, b) => a.subscriptionId.localeCompare(b.subscriptionId)),
  }));
}

const amountOf = (amount: number | null) => (amount === null ? "the amount on your next invoice" : formatCents(amount));

/** What one line says: the license and whom it is for (a reseller's customer, else its name), its plan, when, how much. */
export function reminderLineText(line: ReminderLine): string {
  const license = line.customer
    ? `License ${line.externalLicenseId} for ${line.customer}`
    : `License ${line.externalLicenseId} (${line.licenseName})`;
  return `${license}, ${line.plan}, renews on ${formatDate(line.renewsOn)}: ${amountOf(line.amount)}.`;
}

/** The mail's subject: how soon, and what (one license by its id, several by their number). */
export function reminderSubject(group: Pick<ReminderGroup, "kind" | "lines">): string {
  const what =
    group.lines.length === 1 ? `License ${group.lines[0].externalLicenseId}` : `${group.lines.length} licenses`;
  return `${what} ${group.lines.length === 1 ? "renews" : "renew"} in ${REMINDER_DAYS[group.kind]} days`;
}

/** The activity log's words for one reminder sent. */
export function reminderActivity(kind: RenewalReminderKind, line: ReminderLine): string {
  const forWhom = line.customer ? ` for ${line.customer}` : "";
  return (
    `Sent the ${REMINDER_DAYS[kind]}-day renewal reminder of license ${line.externalLicenseId}${forWhom}: ` +
    `it renews on ${formatDate(line.renewsOn)}, ${amountOf(line.amount)}.`
  );
}
