import { and, eq, like } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { REMINDER_DAYS } from "~/domain/renewal-reminders";
import { sendDueRenewalReminders } from "~/server/subscriptions/renewal-reminders.server";
import { db } from "~/server/platform/database/db.server";
import {
  activity,
  jobs,
  licenses,
  outbox,
  renewalReminders,
  subscriptions,
} from "~/server/platform/database/tables.server";
import { runJobs } from "../support/jobs";
import { createAccount, memberByEmail } from "../support/members";

/**
 * Renewal reminders on the demo data: the distributor's end customers' renewals (Meridian's monthly one, Alpine's
 * yearly one, moved here to chosen dates) and a sweep run at chosen moments of the portal's clock.
 */

const DAY = 24 * 60 * 60 * 1000;
const MERIDIAN = "sub_demo_reseller_meridian";
const ALPINE = "sub_demo_reseller_alpine";
const HARBOR = "sub_demo_reseller_harbor";

const distributor = async () => (await memberByEmail("distributor@example.com")).organization;

async function termEndOf(subscriptionId: string): Promise<Date> {
  const [row] = await db
    .select({ termEnd: subscriptions.currentTermEnd })
    .from(subscriptions)
    .where(eq(subscriptions.id, subscriptionId));
  if (!row?.termEnd) throw new Error(`${subscriptionId} has no term.`);
  return row.termEnd;
}

const setCopy = (subscriptionId: string, change: Partial<typeof subscriptions.$inferInsert>) =>
  db.update(subscriptions).set(change).where(eq(subscriptions.id, subscriptionId));

const remindersOf = (subscriptionId: string) =>
  db
    .select({ kind: renewalReminders.kind, termEnd: renewalReminders.termEnd, jobKey: renewalReminders.jobKey })
    .from(renewalReminders)
    .where(eq(renewalReminders.subscriptionId, subscriptionId));

const reminderJobsOf = (ownerId: string) =>
  db
    .select()
    .from(jobs)
    .where(and(eq(jobs.ownerId, ownerId), eq(jobs.kind, "renewal-reminder")));

const mailsTo = (to: string, subject: string) =>
  db
    .select()
    .from(outbox)
    .where(and(eq(outbox.to, to), like(outbox.subject, `%${subject}%`)));

describe("renewal reminders", { timeout: 60_000 }, () => {
  it("mails a reseller's Owner and Billing admins one 7-day reminder listing its customers' renewals of that day", async () => {
    const reseller = await distributor();
    const { passwordHash } = (await memberByEmail("distributor@example.com")).user;
    await createAccount("billing@secureline.example", passwordHash, {
      role: "billing_admin",
      organizationId: reseller.id,
    });
    await createAccount("tech@secureline.example", passwordHash, {
      role: "technical_contact",
      organizationId: reseller.id,
    });
    // Alpine's yearly renewal moved to the start of Meridian's day (UTC, as reminders group them; an hour later
    // would be the next day when the test runs late in the evening): two of the reseller's customers renew that day.
    const renewsOn = await termEndOf(MERIDIAN);
    const dayStart = Date.UTC(renewsOn.getUTCFullYear(), renewsOn.getUTCMonth(), renewsOn.getUTCDate());
    await setCopy(ALPINE, { currentTermEnd: new Date(dayStart) });
    const now = new Date(renewsOn.getTime() - 5 * DAY);

    // Several sweeps at once (instances of the portal), and another after: one job, each renewal reminded once.
    const queued = await Promise.all([
      sendDueRenewalReminders(now),
      sendDueRenewalReminders(now),
      sendDueRenewalReminders(now),
    ]);
    expect(queued.reduce((sum, n) => sum + n, 0)).toBeGreaterThanOrEqual(1);
    expect(await sendDueRenewalReminders(now)).toBe(0);
    expect(await sendDueRenewalReminders(new Date(now.getTime() + 2 * DAY))).toBe(0);
    const reminderJobs = await reminderJobsOf(reseller.id);
    expect(reminderJobs).toHaveLength(1);
    expect((await remindersOf(MERIDIAN)).map((row) => row.kind)).toEqual(["7_days"]);
    expect((await remindersOf(ALPINE)).map((row) => row.kind)).toEqual(["7_days"]);
    expect((await remindersOf(HARBOR)).length).toBe(0);

    await runJobs();
    const subject = "2 licenses renew in 7 days";
    const [toOwner] = await mailsTo("distributor@example.com", subject);
    expect(await mailsTo("billing@secureline.example", subject)).toHaveLength(1);
    expect(await mailsTo("tech@secureline.example", subject)).toHaveLength(0);
    expect(toOwner.text).toContain("Hello Ravi,");
    expect(toOwner.text).toContain("for Meridian Law LLP, Core (Monthly Billing) for resellers, renews on");
    expect(toOwner.text).toContain("for Alpine Logistics AG, Ultimate (Annual Billing) for resellers, renews on");
    // 8 users of reseller-core-monthly (300 cents) and the reseller on-premise install (2,320 cents).
    expect(toOwner.text).toContain("$47.20.");
    expect(toOwner.text).toMatch(/They will be charged to Mastercard ending in \d{4}\./);
    for (const subscriptionId of [MERIDIAN, ALPINE]) {
      expect(toOwner.text).toMatch(
        new RegExp(`Turn off auto-renew of license [\\w-]+:\\nhttp.*/licenses/${subscriptionId}/auto-renew`),
      );
      expect(toOwner.html).toContain(`/licenses/${subscriptionId}/auto-renew">`);
    }
    expect(toOwner.text).toContain("/customers/renewals");

    // Running the job again (a lost answer) mails nobody twice.
    await db
      .update(jobs)
      .set({ status: "queued", steps: {}, nextRunAt: new Date(0) })
      .where(eq(jobs.id, reminderJobs[0].id));
    await runJobs();
    expect(await mailsTo("distributor@example.com", subject)).toHaveLength(1);

    const logged = await db
      .select({ summary: activity.summary, actorName: activity.actorName })
      .from(activity)
      .where(and(eq(activity.organizationId, reseller.id), eq(activity.action, "subscription.renewal_reminded")));
    expect(logged.map((entry) => entry.summary).sort()).toEqual([
      expect.stringMatching(/^Sent the 7-day renewal reminder of license .* for Alpine Logistics AG: it renews on/),
      expect.stringMatching(/^Sent the 7-day renewal reminder of license .* for Meridian Law LLP: it renews on/),
    ]);
    expect(logged.every((entry) => entry.actorName === "GateKeeper")).toBe(true);
  });

  it("reminds of a yearly renewal 30 days before and again 7 days before; a monthly one only 7 days before", async () => {
    const renewsOn = new Date(Date.now() + 200 * DAY);
    await setCopy(HARBOR, { currentTermEnd: renewsOn });
    const month = new Date(renewsOn.getTime() - REMINDER_DAYS["30_days"] * DAY);
    await sendDueRenewalReminders(month);
    expect((await remindersOf(HARBOR)).map((row) => row.kind)).toEqual(["30_days"]);
    await sendDueRenewalReminders(new Date(month.getTime() + DAY));
    expect(await remindersOf(HARBOR)).toHaveLength(1);
    await sendDueRenewalReminders(new Date(renewsOn.getTime() - 7 * DAY));
    expect((await remindersOf(HARBOR)).map((row) => row.kind).sort()).toEqual(["30_days", "7_days"]);

    // A monthly subscription renewing that day gets nothing 30 days before.
    const monthlyRenewal = new Date(renewsOn.getTime() + 30 * DAY);
    await setCopy(MERIDIAN, { currentTermEnd: monthlyRenewal });
    await sendDueRenewalReminders(new Date(monthlyRenewal.getTime() - 20 * DAY));
    expect((await remindersOf(MERIDIAN)).filter((row) => row.termEnd.getTime() === monthlyRenewal.getTime())).toEqual(
      [],
    );
  });

  it("reminds of nothing whose auto-renew is off, and of a renewal the clock already passed", async () => {
    const renewsOn = new Date(Date.now() + 400 * DAY);
    await setCopy(HARBOR, { currentTermEnd: renewsOn, status: "non_renewing" });
    await sendDueRenewalReminders(new Date(renewsOn.getTime() - 5 * DAY));
    await setCopy(HARBOR, { status: "active" });
    await sendDueRenewalReminders(new Date(renewsOn.getTime() + DAY));
    expect((await remindersOf(HARBOR)).filter((row) => row.termEnd.getTime() === renewsOn.getTime())).toEqual([]);
  });

  it("mails a customer's own renewal to its Owner, with its card, and its link to turn auto-renew off", async () => {
    const owner = await memberByEmail("customer@example.com");
    const [own] = await db
      .select({ id: subscriptions.id, externalLicenseId: licenses.externalLicenseId })
      .from(subscriptions)
      .innerJoin(licenses, eq(licenses.subscriptionId, subscriptions.id))
      .where(and(eq(subscriptions.ownerId, owner.organization.id), eq(subscriptions.id, "sub_demo_ultimate_yearly")));
    const renewsOn = new Date(Date.now() + 600 * DAY);
    await setCopy(own.id, { currentTermEnd: renewsOn });
    expect(await sendDueRenewalReminders(new Date(renewsOn.getTime() - 25 * DAY))).toBeGreaterThanOrEqual(1);
    await runJobs();
    const [mail] = await mailsTo("customer@example.com", `License ${own.externalLicenseId} renews in 30 days`);
    expect(mail.text).toContain("Hello Dana,");
    expect(mail.text).toMatch(/It will be charged to Visa ending in \d{4}\./);
    expect(mail.text).toContain(`Turn off auto-renew:\nhttp`);
    expect(mail.text).toContain(`/licenses/${own.id}/auto-renew`);
    expect(mail.text).not.toContain(" for Northwind");
    // Jordan, its Technical contact, is not mailed.
    expect(await mailsTo("technical@example.com", "renews in")).toHaveLength(0);
  });
});
