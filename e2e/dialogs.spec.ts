import type { Locator, Page } from "@playwright/test";
import { armBillingFault, clearBillingFault } from "./database";
import { DEMO, expect, holdScripts, signInAs, test } from "./fixtures";
import { next, planStep } from "./purchase-steps";

/**
 * Route drawers and modals (app/ui/route-dialogs.tsx, decision 101): where they sit, that the page behind stays
 * put, and how they close. Without JavaScript the close button and the overlay are links; with it the dialog is
 * modal: focus moves in, Escape closes one that has somewhere to close to, and a dialog over another is on top.
 */

const WINDOW = { width: 1280, height: 800 };
test.use({ viewport: WINDOW });

async function box(locator: Locator) {
  const found = await locator.boundingBox();
  if (!found) throw new Error("not rendered");
  return found;
}

const pageBehindScrolls = (page: Page) =>
  page.evaluate(() => getComputedStyle(document.documentElement).overflow !== "hidden");

test("a drawer sits on the right at its width (the whole window on a phone), over a page that stays put", async ({
  page,
}) => {
  await signInAs(page, DEMO.customer);
  await page.goto("/account/profile");
  const drawer = page.getByRole("dialog", { name: "Update Billing Profile" });
  await expect(drawer).toBeVisible();
  expect(await box(drawer)).toMatchObject({ x: WINDOW.width - 1100, y: 0, width: 1100, height: WINDOW.height });
  expect(await pageBehindScrolls(page)).toBe(false);

  await page.setViewportSize({ width: 390, height: 800 });
  expect(await box(drawer)).toMatchObject({ x: 0, width: 390 });

  await drawer.getByRole("link", { name: "Close" }).click();
  await expect(page).toHaveURL(/\/account$/);
  await expect(drawer).toBeHidden();
  expect(await pageBehindScrolls(page)).toBe(true);
});

test("a modal is centred at its size, and a click on the overlay closes it", async ({ page }) => {
  await signInAs(page, DEMO.customer);
  await page.goto("/store/subscription");
  const modal = page.getByRole("dialog", { name: "You already have recurring licenses." });
  await expect(modal).toBeVisible();
  const { x, y, width, height } = await box(modal);
  expect(width).toBe(600);
  expect(Math.abs(x + width / 2 - WINDOW.width / 2)).toBeLessThanOrEqual(1);
  expect(Math.abs(y + height / 2 - WINDOW.height / 2)).toBeLessThanOrEqual(1);
  expect(await pageBehindScrolls(page)).toBe(false);

  await page.mouse.click(20, 20);
  await expect(page).toHaveURL(/\/store$/);
  await expect(modal).toBeHidden();
});

test.describe("with JavaScript", () => {
  test.skip(
    ({ javaScriptEnabled }) => !javaScriptEnabled,
    "focus, Escape and the top layer are the browser's modal dialog",
  );

  test("focus moves into a drawer, Escape closes it, and focus goes back to what opened it", async ({ page }) => {
    await signInAs(page, DEMO.customer);
    await page.goto("/account");
    // Hydrated first: a click before then loads the drawer's page as a new document, with nothing to give focus
    // back to (and, on a busy machine, Escape then interrupts the router's first navigation).
    await expect(page.locator("html")).toHaveAttribute("data-link-navigation", "on");
    const opener = page.getByRole("link", { name: "Update billing profile", exact: true });
    await opener.click();
    const drawer = page.getByRole("dialog", { name: "Update Billing Profile" });
    // Loaded first: this is about the drawer's form; Escape while it loads is the next test's.
    await expect(drawer.getByLabel("City")).toBeVisible();
    await expect(drawer.getByRole("link", { name: "Close" })).toBeFocused();
    await page.keyboard.press("Escape");
    await expect(page).toHaveURL(/\/account$/);
    await expect(drawer).toBeHidden();
    await expect(opener).toBeFocused();
  });

  test("Escape while a drawer loads leaves the page as it was, with no error, and the drawer opens again", async ({
    page,
    portal,
  }) => {
    await signInAs(page, DEMO.customer);
    await page.goto("/account");
    await expect(page.locator("html")).toHaveAttribute("data-link-navigation", "on");
    // The billing provider takes its time once, so that Escape lands on 'Loading Billing Profile...'.
    await armBillingFault(portal.databaseUrl, "retrieveCustomer", { message: "slow", mode: "hang" });
    try {
      const opener = page.getByRole("link", { name: "Update billing profile", exact: true });
      await opener.click();
      const drawer = page.getByRole("dialog", { name: "Update Billing Profile" });
      await expect(drawer.getByText("Loading Billing Profile...")).toBeVisible();
      await page.keyboard.press("Escape");
      await expect(drawer).toBeHidden();
      await expect(page).toHaveURL(/\/account$/);
      // The abandoned load's answer arrives meanwhile and changes nothing (the fixture fails the test on an
      // error in the console, such as an aborted data request left rejected).
      await page.waitForTimeout(2_000);
      await expect(drawer).toBeHidden();
      await expect(page).toHaveURL(/\/account$/);
      await opener.click();
      await expect(drawer.getByLabel("City")).toBeVisible();
    } finally {
      await clearBillingFault(portal.databaseUrl, "retrieveCustomer");
    }
  });

  test("a drawer over a wizard's drawer is on top, Escape closes only it, and the wizard stays open", async ({
    page,
  }) => {
    test.setTimeout(60_000);
    await signInAs(page, DEMO.customer);
    await page.goto("/store/subscribe/plan");
    await planStep(page, "Dialog Layers Inc", "3");
    for (const label of ["Next: Hardware", "Next: Support", "Next: Review", "Next: Billing"]) await next(page, label);
    const wizard = page.getByRole("dialog", { name: "New Recurring License" });
    const drawer = page.getByRole("dialog", { name: "Update Billing Profile" });
    const expectOnTop = async () => {
      await expect(drawer.getByRole("link", { name: "Close" })).toBeFocused();
      // A click lands on the upper drawer's field, not on the wizard under it.
      await drawer.getByLabel("City").click();
      await expect(drawer.getByLabel("City")).toBeFocused();
    };
    await wizard.getByRole("link", { name: "Update Billing Profile" }).click();
    await expectOnTop();
    // Loaded at once, both dialogs go modal as the page hydrates, the inner one last; neither closes meanwhile.
    await page.reload();
    await expectOnTop();
    await page.waitForLoadState("networkidle");
    await expect(page).toHaveURL(/\/store\/subscribe\/billing\/profile$/);

    await page.keyboard.press("Escape");
    await expect(page).toHaveURL(/\/store\/subscribe\/billing$/);
    await expect(drawer).toBeHidden();
    await expect(wizard).toBeVisible();
    // The wizard closes only through its Close button (which clears the draft): Escape leaves it open.
    await page.keyboard.press("Escape");
    await page.keyboard.press("Escape");
    await expect(wizard).toBeVisible();
    await expect(page).toHaveURL(/\/store\/subscribe\/billing$/);
  });

  test("a field typed into before the page hydrated keeps focus when the dialog goes modal", async ({ page }) => {
    await signInAs(page, DEMO.customer);
    const hydrate = await holdScripts(page);
    await page.goto("/store/subscribe/plan", { waitUntil: "commit" });
    const organization = page.getByLabel("Organization name the license is for");
    await organization.fill("Half typ");
    hydrate();
    const wizard = page.getByRole("dialog", { name: "New Recurring License" });
    await expect.poll(() => wizard.evaluate((dialog) => dialog.matches(":modal")), { timeout: 15_000 }).toBe(true);
    await expect(organization).toBeFocused();
    await expect(organization).toHaveValue("Half typ");
  });
});
