import type { BrowserContext, Page } from "@playwright/test";
import { and, count, eq } from "drizzle-orm";
import { withDatabase } from "./database";
import { DEMO, DEMO_PASSWORD, expect, startPortal, test } from "./fixtures";

/**
 * Renewal reminders on the portal's clock, in a portal of the test's own (the time machine moves its clock for
 * everyone on it): 23 days on, the demo distributor's end customer Meridian Law LLP's monthly renewal is less than
 * a week away, and its Owner gets the 7-day reminder once, whichever instance's sweep comes after the move, with
 * the link that turns the license's auto-renew off. The javascript project runs two instances on one database.
 */

const MERIDIAN_LICENSE = "GK-SLR-2026-0102";
const SUBJECT = `License ${MERIDIAN_LICENSE} renews in 7 days`;

type Portal = Awaited<ReturnType<typeof startPortal>>;

/** The messages with the reminder's subject to the distributor's Owner, counted in the outbox's table. */
const remindersKept = (portal: Portal) =>
  withDatabase(portal.databaseUrl, async (db, t) => {
    const [row] = await db
      .select({ n: count() })
      .from(t.outbox)
      .where(and(eq(t.outbox.to, DEMO.distributor), eq(t.outbox.subject, SUBJECT)));
    return row.n;
  });

/** The administrator moves the engine's clock `days` on, on one instance: its sweep runs after the move. */
async function moveClock(admin: Page, instanceURL: string, days: number) {
  await admin.goto(new URL("/admin/time-machine", instanceURL).href);
  await admin.getByLabel("Days to move forward").fill(String(days));
  await admin.getByRole("button", { name: "Move the clock forward" }).click();
  await expect(admin.getByRole("status")).toContainText(`The engine's clock moved ${days} days`, { timeout: 20_000 });
}

test("the time machine moves 23 days and the distributor's 7-day renewal reminder is in the outbox once", async ({
  browser,
  javaScriptEnabled,
  databaseEngine,
}) => {
  test.setTimeout(180_000);
  const portal = await startPortal({ engine: databaseEngine });
  const contexts: BrowserContext[] = [];
  try {
    const signedIn = async (email: string) => {
      const context = await browser.newContext({ baseURL: portal.baseURL, javaScriptEnabled });
      contexts.push(context);
      const page = await context.newPage();
      await page.goto("/login");
      await page.getByLabel("Email").fill(email);
      await page.getByLabel("Password").fill(DEMO_PASSWORD);
      await page.getByRole("button", { name: "Sign in" }).click();
      await expect(page.getByRole("heading", { level: 1, name: "Home" })).toBeVisible();
      return page;
    };
    const admin = await signedIn(DEMO.admin);
    expect(await remindersKept(portal), "not due before the move").toBe(0);

    const [first, ...others] = portal.instanceURLs;
    await moveClock(admin, first, 23);
    await expect.poll(() => remindersKept(portal), { timeout: 20_000 }).toBe(1);

    // The other instance moves the clock a day more: its sweep finds the reminder sent, and sends none.
    await moveClock(admin, others.at(-1) ?? first, 1);
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
    expect(portal.stderr(), "no errors on the server").toBe("");
  } finally {
    for (const context of contexts) await context.close();
    await portal.stop();
  }
});
