import { createHash } from "node:crypto";
import { and, eq, gt, inArray, lte } from "drizzle-orm";
import { z } from "zod";
import type { SubscriptionStatus } from "~db/billing-values";
import { renewalsHref, RENEWAL_WINDOWS, renewalAmount } from "~/domain/customers";
import { formatDate } from "~/domain/format";
import { describeCard } from "~/domain/payment-cards";
import {
  dueReminder,
  groupReminders,
  reminderActivity,
  reminderLineText,
  reminderSubject,
  REMINDED_ROLES,
  REMINDER_DAYS,
  REMINDER_HORIZON_DAYS,
  type ReminderGroup,
  type ReminderLine,
  type RenewalReminderKind,
} from "~/domain/renewal-reminders";
import { afterCheckoutUrls } from "~/domain/renewals";
import { renewalCardOf } from "~/server/account-billing/index.server";
import { findOrganization, GATEKEEPER, membersInRoles, recordActivity } from "~/server/accounts/index.server";
import { portalNow } from "~/server/billing/index.server";
import { queueMail, scheduledLinkOrigin, type MailContent } from "~/server/mail/index.server";
import { affectedRows } from "~/server/platform/database/portal-database.server";
import { db, type PortalTransaction } from "~/server/platform/database/db.server";
import {
  licenses,
  organizations,
  RENEWAL_REMINDER_KINDS,
  renewalReminders,
  subscriptions,
} from "~/server/platform/database/tables.server";
import { enqueueJob, type JobKind } from "~/server/platform/jobs/runner.server";
import { errorFields, logger } from "~/server/platform/log/log.server";
import { catalogue } from "./catalogue.server";

/**
 * Renewal reminders (decision 221): a sweep on the portal's clock finds the renewals a reminder is due for
 * (app/domain/renewal-reminders.ts) and queues one durable job per payer, renewal day and reminder, which mails the
 * payer's Owner and Billing admins. Any number of instances may sweep at once, and each runs the sweep every few
 * minutes and after the time machine moves the clock: what keeps a reminder to one mail is the renewal_reminders
 * row of each renewal in the mail, inserted in the transaction that queues the job, whose key refuses a second.
 */

const DAY_MS = 24 * 60 * 60 * 1000;
/** How often each process sweeps: a reminder is for a day, so minutes late is on time. */
const SWEEP_MS = 10 * 60_000;

/** The statuses of a subscription that renews at its term's end (auto-renew on). */
const RENEWING: SubscriptionStatus[] = ["active", "future"];

const reminderLine = z.object({
  subscriptionId: z.string(),
  externalLicenseId: z.string(),
  licenseName: z.string(),
  plan: z.string(),
  customer: z.string().nullable(),
  renewsOn: z.string(),
  amount: z.number().int().nullable(),
});

const reminderInput = z.object({
  kind: z.enum(RENEWAL_REMINDER_KINDS),
  day: z.string(),
  lines: z.array(reminderLine).min(1),
});
type ReminderInput = z.infer<typeof reminderInput>;

/** What a reminder says, to one person: the renewals, the card, and how to turn auto-renew off. */
function reminderContent(
  input: ReminderInput,
  { firstName, payer, card, origin }: { firstName: string; payer: string; card: string | null; origin: string },
): MailContent {
  const [first] = input.lines;
  const one = input.lines.length === 1;
  const when = `in ${REMINDER_DAYS[input.kind]} days, on ${formatDate(first.renewsOn)}`;
  const autoRenewUrl = (line: ReminderLine) => new URL(afterCheckoutUrls.autoRenew(line.subscriptionId), origin).href;
  const forCustomers = input.lines.some((line) => line.customer !== null);
  return {
    paragraphs: [
      `Hello ${firstName},`,
      one
        ? `A license ${payer} pays for renews ${when}:`
        : `${input.lines.length} licenses ${payer} pays for renew ${when}:`,
      ...input.lines.map(reminderLineText),
      card
        ? `${one ? "It" : "They"} will be charged to ${card}. Amounts are at list price, before tax and discounts.`
        : "There is no card on file to charge: add one to your account before then, or the payment will fail.",
      `Nothing needs doing for ${one ? "it" : "them"} to renew. To end a license on its last day instead, turn its ` +
        "auto-renew off.",
    ],
    links: one
      ? []
      : input.lines.map((line) => ({
          label: `Turn off auto-renew of license ${line.externalLicenseId}`,
          url: autoRenewUrl(line),
        })),
    action: one
      ? { label: "Turn off auto-renew", url: autoRenewUrl(first) }
      : forCustomers
        ? { label: "See your customers' renewals", url: new URL(renewalsHref(RENEWAL_WINDOWS[0]), origin).href }
        : { label: "See your licenses", url: new URL("/licenses", origin).href },
  };
}

/**
 * Mailing one reminder, as a durable job of the payer: each of its Owner and Billing admins as they are when it
 * runs, with the card the renewal will be charged to then. A message per person, each queued once by its key, so a
 * rerun after a failure mails nobody twice.
 */
export const renewalReminder: JobKind<ReminderInput, { mail: { recipients: number } }> = {
  name: "renewal-reminder",
  input: reminderInput,
  steps: [
    {
      name: "mail",
      async run({ id, ownerId, input }) {
        const organization = await findOrganization(ownerId);
        if (!organization) return { recipients: 0 };
        const [people, card] = await Promise.all([
          membersInRoles(ownerId, REMINDED_ROLES),
          renewalCardOf({ organization }),
        ]);
        const subject = reminderSubject(input);
        const origin = scheduledLinkOrigin();
        for (const person of people) {
          await queueMail({
            accountId: ownerId,
            to: person.email,
            subject,
            content: reminderContent(input, {
              firstName: person.firstName,
              payer: organization.name,
              card: card && describeCard(card),
              origin,
            }),
            key: `renewal-reminder:${id}:${person.userId}`,
          });
        }
        return { recipients: people.length };
      },
    },
  ],
  failure: (step) => ({
    step,
    title: "Renewal reminder not sent",
    message: "The renewal reminder could not be mailed.",
  }),
};

/** Another sweep took one of the group's renewals first: this group is not queued (the next sweep regroups). */
class ReminderTaken extends Error {
  override name = "ReminderTaken";
}

/**
 * The group's key: its payer, day, kind and renewals (each with its term), so the same reminders always make the
 * same job, and two sweeps that found the same ones queue it once.
 */
function reminderKey(group: ReminderGroup): string {
  const renewals = group.lines.map((line) => `${line.subscriptionId}@${line.renewsOn}`).join(",");
  const digest = createHash("sha256").update(renewals).digest("hex").slice(0, 24);
  return `renewal-reminder:${group.ownerId}:${group.day}:${group.kind}:${digest}`;
}

/**
 * The group's renewals marked reminded and logged, in the transaction that queues its job: in license order, so
 * two sweeps racing for overlapping groups wait on each other rather than deadlock, and the second finds a row
 * taken and queues nothing.
 */
async function claimReminders(tx: PortalTransaction, group: ReminderGroup, jobKey: string) {
  for (const line of group.lines) {
    const claimed = await tx
      .insert(renewalReminders)
      .values({
        subscriptionId: line.subscriptionId,
        termEnd: new Date(line.renewsOn),
        kind: group.kind,
        ownerId: group.ownerId,
        jobKey,
      })
      .onConflictDoNothing();
    if (affectedRows(claimed) === 0) throw new ReminderTaken(`${line.subscriptionId} was reminded already.`);
    await recordActivity(tx, {
      organizationId: group.ownerId,
      actor: GATEKEEPER,
      action: "subscription.renewal_reminded",
      summary: reminderActivity(group.kind, line),
    });
  }
}

/**
 * Renewals within the reminders' reach: each with its license, the end customer it is for (a reseller's), and the
 * reminders already sent for its term (joined, one row per reminder sent: at most two).
 */
async function upcomingRenewals(now: Date) {
  const rows = await db
    .select({
      subscription: {
        id: subscriptions.id,
        ownerId: subscriptions.ownerId,
        planId: subscriptions.planId,
        planQuantity: subscriptions.planQuantity,
        addons: subscriptions.addons,
        termEnd: subscriptions.currentTermEnd,
      },
      license: { externalLicenseId: licenses.externalLicenseId, name: licenses.name },
      customer: organizations.name,
      sent: renewalReminders.kind,
    })
    .from(subscriptions)
    .innerJoin(
      licenses,
      and(eq(licenses.subscriptionId, subscriptions.id), eq(licenses.ownerId, subscriptions.ownerId)),
    )
    .leftJoin(
      organizations,
      and(eq(organizations.id, licenses.licenseeId), eq(organizations.managedBy, subscriptions.ownerId)),
    )
    .leftJoin(
      renewalReminders,
      and(
        eq(renewalReminders.subscriptionId, subscriptions.id),
        eq(renewalReminders.termEnd, subscriptions.currentTermEnd),
      ),
    )
    .where(
      and(
        inArray(subscriptions.status, RENEWING),
        gt(subscriptions.currentTermEnd, now),
        lte(subscriptions.currentTermEnd, new Date(now.getTime() + (REMINDER_HORIZON_DAYS + 1) * DAY_MS)),
      ),
    );
  const renewals = new Map<
    string,
    {
      subscription: (typeof rows)[number]["subscription"] & { termEnd: Date };
      license: (typeof rows)[number]["license"];
      customer: string | null;
      sent: RenewalReminderKind[];
    }
  >();
  for (const { subscription, license, customer, sent } of rows) {
    const { termEnd } = subscription;
    if (!termEnd) continue;
    const renewal = renewals.get(subscription.id) ?? {
      subscription: { ...subscription, termEnd },
      license,
      customer,
      sent: [],
    };
    if (sent) renewal.sent.push(sent);
    renewals.set(subscription.id, renewal);
  }
  return [...renewals.values()];
}

/**
 * Queues the reminders due at the portal's `now` (its clock, which the time machine moves): one job per payer,
 * renewal day and kind, whose renewals are marked reminded with it. Safe to run any number of times, in any number
 * of processes at once: each reminder is queued once. Returns how many jobs this call queued.
 */
export async function sendDueRenewalReminders(now?: Date): Promise<number> {
  const at = now ?? (await portalNow());
  const renewals = await upcomingRenewals(at);
  // Whether anything may be due before the plans are read: a provider call, which most sweeps need not make.
  const open = renewals.filter(
    ({ subscription, sent }) => dueReminder({ renews: true, period: "year", ...subscription }, at, sent) !== null,
  );
  if (open.length === 0) return 0;
  const { prices, planNames, planPeriods } = await catalogue();
  const due = open.flatMap(({ subscription, license, customer, sent }) => {
    const period = planPeriods.get(subscription.planId) ?? "month";
    const kind = dueReminder({ renews: true, period, termEnd: subscription.termEnd }, at, sent);
    if (!kind) return [];
    const line: ReminderLine = {
      subscriptionId: subscription.id,
      externalLicenseId: license.externalLicenseId,
      licenseName: license.name,
      plan: planNames.get(subscription.planId) ?? subscription.planId,
      customer,
      renewsOn: subscription.termEnd.toISOString(),
      amount: renewalAmount(subscription, prices),
    };
    return [{ ownerId: subscription.ownerId, kind, line }];
  });
  let queued = 0;
  for (const group of groupReminders(due)) {
    const idempotencyKey = reminderKey(group);
    try {
      await enqueueJob(renewalReminder, {
        ownerId: group.ownerId,
        idempotencyKey,
        input: { kind: group.kind, day: group.day, lines: group.lines },
        alongside: async (tx) => {
          await claimReminders(tx, group, idempotencyKey);
          queued += 1;
        },
      });
    } catch (error) {
      if (!(error instanceof ReminderTaken)) throw error;
    }
  }
  return queued;
}

/**
 * A sweep whose failure (the database or the provider's price list unreachable) is logged, not thrown: what it
 * did not queue, the next sweep of any instance does.
 */
export async function sweepRenewalReminders(now?: Date): Promise<void> {
  try {
    await sendDueRenewalReminders(now);
  } catch (error) {
    logger.error({ event: "renewal-reminders-failed", ...errorFields(error) });
  }
}

let started = false;

/** Sweeps now (a reminder that fell due while the portal was down goes at once) and every SWEEP_MS after. */
export function startRenewalReminders(): void {
  if (started) return;
  started = true;
  const tick = () => void sweepRenewalReminders();
  tick();
  setInterval(tick, SWEEP_MS).unref();
}
