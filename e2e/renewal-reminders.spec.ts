import { and, count, eq } from "drizzle-orm";
import { withDatabase } from "./database";
import { DEMO, expect, test } from "./fixtures";
import { moveClock, ownPortal, type Portal } from "./own-portal";

/**
 * Renewal reminders on the portal's clock, in a portal of the test's own (the time machine moves its clock for
 * everyone on it): 23 days on, the demo distributor's end customer Meridian Law LLP's monthly renewal is less than
 * a week away, and its Owner gets the 7-day reminder once, whichever instance's sweep comes after the move, with
 * the link that turns the license's auto-renew off. The javascript project runs two instances on one database.
 */

const MERIDIAN_LICENSE = "GK-SLR-2026-0102";
const SUBJECT = `License ${MERIDIAN_LICENSE} renews in 7 days`;

/** The messages with the reminder's subject to the distributor's Owner, counted in the outbox's table. */
const remindersKept = (portal: Portal) =>
  withDatabase(portal.databaseUrl, async (db, t) => {
    const [row] = await db
      .select({ n: count() })
      .from(t.outbox)
      .where(and(eq(t.outbox.to, DEMO.distributor), eq(t.outbox.subject, SUBJECT)));
    return row.n;
  });

test("the time machine moves 23 days and the distributor's 7-day renewal reminder is in the outbox once", async ({
  browser,
  javaScriptEnabled,
  databaseEngine,
}) => {
  test.setTimeout(180_000);
  await ownPortal({ browser, javaScriptEnabled, databaseEngine }, async ({ portal, admin, signedIn }) => {
    expect(await remindersKept(portal), "not due before the move").toBe(0);

    const [first, ...others] = portal.instanceURLs;
    await moveClock(admin, 23, first);
    await expect.poll(() => remindersKept(portal), { timeout: 20_000 }).toBe(1);

    // The other instance moves the clock a day more: its sweep finds the reminder sent, and sends none.
    await moveClock(admin, 1, others.at(-1) ?? first);
    await admin.goto("/admin/outbox");
    const reminders = admin.getByRole("region", { name: SUBJECT });
    await expect(reminders).toHaveCount(1);
    const reminder = reminders.first();
    await expect(reminder).toContainText(DEMO.distributor);
    await expect(reminder).toContainText("Hello Ravi,");
    await expect(reminder).toContainText(`License ${MERIDIAN_LICENSE} for Meridian Law LLP`);
    await expect(reminder).toContainText(/charged to Mastercard ending in \d{4}/);
    const link = await reminder
      .getByRole("link", { name: /\/auto-renew$/ })
      .first()
      .getAttribute("href");
    expect(await remindersKept(portal)).toBe(1);

    // The distributor follows the mail's link to turn the license's auto-renew off, and finds the reminder logged.
    const distributor = await signedIn(DEMO.distributor);
    await distributor.goto(new URL(link ?? "", portal.baseURL).pathname);
    await expect(distributor.getByText(MERIDIAN_LICENSE).first()).toBeVisible();
    await expect(distributor.getByRole("button", { name: "Turn off auto-renew" })).toBeVisible();
    await distributor.goto("/account/activity");
    await expect(
      distributor.getByText(`Sent the 7-day renewal reminder of license ${MERIDIAN_LICENSE} for Meridian Law LLP`),
    ).toBeVisible();
  });
});
