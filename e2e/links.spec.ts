import { HUB_TYPE_LABELS } from "~/domain/hubs";
import type { Page } from "@playwright/test";
import { DEMO, expect, signInAs, test } from "./fixtures";

/** With JavaScript, waits until the page navigates its links itself; before that they load as plain links. */
async function linksNavigateInPage(page: Page, javaScriptEnabled: boolean) {
  if (javaScriptEnabled) await page.locator("html[data-link-navigation=on]").waitFor({ state: "attached" });
}

/**
 * The portal's links are plain anchors, and one listener in the root navigates them in the page (decision 131).
 * Without JavaScript they are ordinary links.
 */
test.describe("links within the portal (decision 131)", () => {
  test("a link opens its page in the same document with JavaScript, as a new one without, and Back returns", async ({
    page,
    javaScriptEnabled,
  }) => {
    await signInAs(page, DEMO.customer);
    await linksNavigateInPage(page, javaScriptEnabled);
    const documents: string[] = [];
    page.on("request", (request) => {
      if (request.resourceType() === "document") documents.push(new URL(request.url()).pathname);
    });
    // A mark on this document's window: it survives only a navigation that keeps the document.
    await page.evaluate(() => Object.assign(window, { gkSameDocument: true }));

    await page.getByRole("navigation", { name: "Portal" }).getByRole("link", { name: "Licenses", exact: true }).click();
    await expect(page.getByRole("heading", { level: 1, name: "Licenses" })).toBeVisible();
    await expect(page).toHaveURL(/\/licenses$/);
    const sameDocument = await page.evaluate(() => "gkSameDocument" in window);
    expect(sameDocument).toBe(javaScriptEnabled);
    expect(documents).toEqual(javaScriptEnabled ? [] : ["/licenses"]);

    await page.goBack();
    await expect(page.getByRole("heading", { level: 1, name: "Home" })).toBeVisible();
    await expect(page).toHaveURL(/\/home$/);
  });

  test("a link clicked with a modifier opens in a new tab and leaves the page as it is", async ({
    page,
    context,
    javaScriptEnabled,
  }) => {
    // Without JavaScript no script of the portal's sees the click: the browser opens the tab itself. (Headless
    // Chromium then sometimes leaves the new tab unnavigated, a failure of the test's browser, not the portal.)
    test.skip(!javaScriptEnabled, "without JavaScript the browser alone handles the click");
    await signInAs(page, DEMO.customer);
    // The portal's listener must be the one to see the click: before it is attached, the browser alone handles it,
    // as without JavaScript (and on a busy machine headless Chromium then sometimes opened no tab at all).
    await linksNavigateInPage(page, javaScriptEnabled);
    const newTab = context.waitForEvent("page");
    await page
      .getByRole("navigation", { name: "Portal" })
      .getByRole("link", { name: "Store", exact: true })
      .click({ modifiers: ["ControlOrMeta"] });
    const opened = await newTab;
    await opened.waitForLoadState();
    await expect(opened).toHaveURL(/\/store$/);
    await expect(page).toHaveURL(/\/home$/);
    await expect(page.getByRole("heading", { level: 1, name: "Home" })).toBeVisible();
  });

  test("a link that keeps the scroll position keeps it", async ({ page, javaScriptEnabled }) => {
    test.skip(
      !javaScriptEnabled,
      "Without JavaScript every link loads a new document, which the browser shows from the top.",
    );
    await page.setViewportSize({ width: 1280, height: 360 });
    await signInAs(page, DEMO.customer);
    // From one type to all of them, so that the page does not get shorter than where it is scrolled to.
    await page.goto("/hubs?type=cloud");
    await linksNavigateInPage(page, javaScriptEnabled);
    const filter = page.getByRole("navigation", { name: "Filter by Type" }).getByRole("link", { name: "All" });
    // The link in the middle of the window: at its top edge the sticky header would cover it, and the click
    // would scroll the page first.
    const top = await filter.evaluate((link) => link.getBoundingClientRect().top + window.scrollY);
    await page.evaluate((y) => window.scrollTo(0, y), Math.max(0, top - 180));
    const scrolled = await page.evaluate(() => window.scrollY);
    expect(scrolled, "the page can scroll at this height").toBeGreaterThan(0);

    await filter.click();
    await expect(page).toHaveURL(/\/hubs$/);
    await expect(
      page.getByRole("navigation", { name: "Filter by Type" }).getByRole("link", { name: HUB_TYPE_LABELS.cloud }),
    ).toBeVisible();
    expect(await page.evaluate(() => window.scrollY)).toBe(scrolled);
  });
});
