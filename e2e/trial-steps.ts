import type { Page } from "@playwright/test";

/** The trial wizards' address step, filled with one address in the United States. */
export async function fillTrialAddress(page: Page) {
  await page.locator('input[name="street"]').fill("1 Main Street");
  await page.locator('input[name="city"]').fill("Springfield");
  await page.locator('input[name="state"]').fill("IL");
  await page.locator('input[name="zipcode"]').fill("62701");
  await page.locator('select[name="country"]').selectOption("US");
}
