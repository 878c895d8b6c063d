import type { Page } from "@playwright/test";
import { DEMO, expect, signInAs, test } from "./fixtures";

/**
 * The outbox: without SMTP_URL the portal keeps its mail, and a GateKeeper administrator reads it at
 * /admin/outbox, newest first, each message whole, its links clickable.
 */

/** Asks for a sign-in link for `email` from the sign-in page's form, as its owner would. */
async function askForLink(page: Page, email: string) {
  await page.goto(`/login/link?email=${encodeURIComponent(email)}`);
  await page.getByRole("button", { name: "Email me a sign-in link" }).click();
  await expect(page.getByRole("status")).toContainText("we have sent it a sign-in link");
}

test("an administrator reads the kept mail newest first, follows its links, and opens its HTML part", async ({
  page,
  browser,
  baseURL,
  javaScriptEnabled,
}) => {
  const visitor = await browser.newContext({ baseURL, javaScriptEnabled });
  await askForLink(await visitor.newPage(), DEMO.distributor);
  await visitor.close();

  await signInAs(page, DEMO.admin);
  await page.goto("/admin");
  await page.getByRole("link", { name: "The outbox: mail the portal kept instead of sending" }).click();
  await expect(page).toHaveURL(/\/admin\/outbox$/);
  const newest = page.getByRole("region").first();
  await expect(newest.getByRole("heading", { name: "Your sign-in link for the GateKeeper Portal" })).toBeVisible();
  await expect(newest).toContainText(DEMO.distributor);
  await expect(newest).toContainText("GateKeeper Portal <portal@localhost>");
  await expect(newest).toContainText(/<[\w-]+@localhost>/);
  await expect(newest).toContainText("The link works once, within 15 minutes.");

  // The text part's link is a link; opening it only asks to confirm, so the administrator spends nothing.
  await newest.getByRole("link", { name: /\/login\/link\// }).click();
  await expect(page.getByText(`Sign in to the GateKeeper Portal as ${DEMO.distributor}.`)).toBeVisible();

  await page.goto("/admin/outbox");
  const htmlPart = await page
    .getByRole("region")
    .first()
    .getByRole("link", { name: "The message's HTML part" })
    .getAttribute("href");
  // Opened in a tab of its own: the part runs nothing (its policy sandboxes it), so Chromium reports each of
  // the test tool's own scripts it blocks there as a console error, which this page's guard would count.
  const part = await page.context().newPage();
  await part.goto(htmlPart ?? "");
  await expect(part.getByText("Hello Ravi,")).toBeVisible();
  await part.getByRole("link", { name: "Sign in to the GateKeeper Portal" }).click();
  await expect(part.getByText(`Sign in to the GateKeeper Portal as ${DEMO.distributor}.`)).toBeVisible();
  await part.close();
});

test.describe("for anyone but an administrator", () => {
  test.use({ expectedHttpErrors: [403] });
  test("the outbox is forbidden", async ({ page }) => {
    await signInAs(page, DEMO.customer);
    const response = await page.goto("/admin/outbox");
    expect(response?.status()).toBe(403);
    await expect(page.getByText("This page is only for GateKeeper administrators.")).toBeVisible();
  });
});
