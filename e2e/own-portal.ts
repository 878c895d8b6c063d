import type { Browser, BrowserContext, Page } from "@playwright/test";
import {
  DEMO,
  expect,
  reportBrowserErrors,
  servesPortal,
  signInAs,
  startPortal,
  type DatabaseEngine,
} from "./fixtures";

/**
 * A portal of a test's own, for what no other test may see (the time machine moves its clock for everyone on it):
 * the demo customer and an administrator signed in, each in a browser of their own, and whoever else the test signs
 * in; no error on the server or in a browser by the end.
 */

export type Portal = Awaited<ReturnType<typeof startPortal>>;

export async function ownPortal(
  {
    browser,
    javaScriptEnabled,
    databaseEngine,
    expectedHttpErrors,
  }: { browser: Browser; javaScriptEnabled: boolean; databaseEngine: DatabaseEngine; expectedHttpErrors?: number[] },
  run: (parts: {
    portal: Portal;
    customer: Page;
    admin: Page;
    signedIn: (email: string) => Promise<Page>;
  }) => Promise<void>,
) {
  const portal = await startPortal({ engine: databaseEngine });
  const problems: string[] = [];
  const contexts: BrowserContext[] = [];
  try {
    const signedIn = async (email: string) => {
      const context = await browser.newContext({ baseURL: portal.baseURL, javaScriptEnabled });
      contexts.push(context);
      const page = await context.newPage();
      reportBrowserErrors(page, problems, expectedHttpErrors);
      servesPortal(context, portal.baseURL);
      await signInAs(page, email);
      return page;
    };
    await run({ portal, customer: await signedIn(DEMO.customer), admin: await signedIn(DEMO.admin), signedIn });
    expect(portal.stderr(), "no errors on the server").toBe("");
    expect(problems, "no errors in the browser").toEqual([]);
  } finally {
    for (const context of contexts) await context.close();
    await portal.stop();
  }
}

/**
 * The administrator moves the engine's clock `days` on at /admin/time-machine: on the portal's own address, or on
 * one of its instances (`instanceURL`), whose request then does what follows the move.
 */
export async function moveClock(admin: Page, days: number, instanceURL?: string) {
  await admin.goto(instanceURL ? new URL("/admin/time-machine", instanceURL).href : "/admin/time-machine");
  await admin.getByLabel("Days to move forward").fill(String(days));
  await admin.getByRole("button", { name: "Move the clock forward" }).click();
  await expect(admin.getByRole("status")).toContainText(`The engine's clock moved ${days} days`, { timeout: 20_000 });
}
