import { describe, expect, it } from "vitest";
import {
  dueReminder,
  groupReminders,
  reminderActivity,
  reminderLineText,
  reminderSubject,
  REMINDED_ROLES,
  type ReminderLine,
  type UpcomingRenewal,
} from "~/domain/renewal-reminders";

const DAY = 24 * 60 * 60 * 1000;
const termEnd = new Date("2027-03-15T09:30:00Z");
/** The clock `days` calendar days before the renewal's day, at an hour of its own. */
const daysBefore = (days: number, hour = "18:00:00") =>
  new Date(new Date(`2027-03-15T${hour}Z`).getTime() - days * DAY);
const yearly: UpcomingRenewal = { renews: true, period: "year", termEnd };
const monthly: UpcomingRenewal = { renews: true, period: "month", termEnd };

describe("which renewal reminder is due", () => {
  it("sends a yearly renewal's 30-day reminder within a month and its 7-day one within a week", () => {
    expect(dueReminder(yearly, daysBefore(31), [])).toBeNull();
    expect(dueReminder(yearly, daysBefore(30), [])).toBe("30_days");
    expect(dueReminder(yearly, daysBefore(8), [])).toBe("30_days");
    expect(dueReminder(yearly, daysBefore(7), [])).toBe("7_days");
    expect(dueReminder(yearly, daysBefore(1), [])).toBe("7_days");
  });

  it("counts calendar days, whatever the hour of the clock and of the renewal", () => {
    expect(dueReminder(yearly, daysBefore(7, "23:59:59"), [])).toBe("7_days");
    expect(dueReminder(yearly, daysBefore(7, "00:00:00"), [])).toBe("7_days");
    expect(dueReminder(yearly, daysBefore(8, "23:59:59"), [])).toBe("30_days");
  });

  it("sends a monthly renewal only the 7-day reminder", () => {
    expect(dueReminder(monthly, daysBefore(30), [])).toBeNull();
    expect(dueReminder(monthly, daysBefore(8), [])).toBeNull();
    expect(dueReminder(monthly, daysBefore(7), [])).toBe("7_days");
  });

  it("sends none when auto-renew is off, nor once the renewal's moment has passed", () => {
    expect(dueReminder({ ...yearly, renews: false }, daysBefore(7), [])).toBeNull();
    expect(dueReminder({ ...yearly, renews: false }, daysBefore(30), [])).toBeNull();
    expect(dueReminder(yearly, termEnd, [])).toBeNull();
    expect(dueReminder(yearly, new Date(termEnd.getTime() + DAY), [])).toBeNull();
  });

  it("sends none twice: a reminder sent for this term is not due again", () => {
    expect(dueReminder(yearly, daysBefore(20), ["30_days"])).toBeNull();
    expect(dueReminder(yearly, daysBefore(5), ["7_days"])).toBeNull();
    // The 30-day one sent, the 7-day one still comes.
    expect(dueReminder(yearly, daysBefore(5), ["30_days"])).toBe("7_days");
  });

  it("sends only the latest reminder when the clock jumped past an earlier one", () => {
    // From 40 days before to 5: the 30-day reminder was overtaken, and would say the wrong thing now.
    expect(dueReminder(yearly, daysBefore(5), [])).toBe("7_days");
  });

  it("mails the Owner and Billing admins: who may turn auto-renew off", () => {
    expect([...REMINDED_ROLES].sort()).toEqual(["billing_admin", "owner"]);
  });
});

const line = (overrides: Partial<ReminderLine>): ReminderLine => ({
  subscriptionId: "sub_a",
  externalLicenseId: "GK-A",
  licenseName: "Acme",
  plan: "Core (monthly)",
  customer: null,
  renewsOn: "2027-03-15T09:30:00.000Z",
  amount: 12_345,
  ...overrides,
});

describe("reminder mails", () => {
  it("makes one mail per payer, renewal day and reminder: a reseller's customers of a day in one", () => {
    const groups = groupReminders([
      { ownerId: "reseller", kind: "7_days", line: line({ subscriptionId: "sub_z", customer: "Zeta" }) },
      { ownerId: "reseller", kind: "7_days", line: line({ subscriptionId: "sub_b", customer: "Beta" }) },
      {
        ownerId: "reseller",
        kind: "7_days",
        line: line({ subscriptionId: "sub_c", renewsOn: "2027-03-16T09:30:00.000Z" }),
      },
      { ownerId: "reseller", kind: "30_days", line: line({ subscriptionId: "sub_d" }) },
      { ownerId: "customer", kind: "7_days", line: line({ subscriptionId: "sub_e" }) },
    ]);
    expect(
      groups.map((group) => [group.ownerId, group.day, group.kind, group.lines.map((l) => l.subscriptionId)]),
    ).toEqual([
      ["reseller", "2027-03-15", "7_days", ["sub_b", "sub_z"]],
      ["reseller", "2027-03-16", "7_days", ["sub_c"]],
      ["reseller", "2027-03-15", "30_days", ["sub_d"]],
      ["customer", "2027-03-15", "7_days", ["sub_e"]],
    ]);
  });

  it("says what renews, for whom, when and for how much", () => {
    expect(reminderLineText(line({ customer: "Meridian Law LLP" }))).toBe(
      "License GK-A for Meridian Law LLP, Core (monthly), renews on 03/15/2027: $123.45.",
    );
    expect(reminderLineText(line({ amount: null }))).toBe(
      "License GK-A (Acme), Core (monthly), renews on 03/15/2027: the amount on your next invoice.",
    );
    expect(reminderSubject({ kind: "7_days", lines: [line({})] })).toBe("License GK-A renews in 7 days");
    expect(reminderSubject({ kind: "30_days", lines: [line({}), line({})] })).toBe("2 licenses renew in 30 days");
    expect(reminderActivity("7_days", line({ customer: "Beta" }))).toBe(
      "Sent the 7-day renewal reminder of license GK-A for Beta: it renews on 03/15/2027, $123.45.",
    );
  });
});
