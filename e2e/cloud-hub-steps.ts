import type { Page } from "@playwright/test";
import { expect } from "./fixtures";

/** The cloud Hub wizard's steps as a person walks them (e2e/cloud-hub.spec.ts, e2e/handing-over.spec.ts). */
export const HUB_HOST = "hub.gatekeeper.example";
export const READY = "Your GateKeeper Cloud Hub is ready!";

export async function urlStep(page: Page, subdomain: string) {
  await page.locator('input[name="subdomain"]').fill(subdomain);
  await page.locator('select[name="hubRegion"]').selectOption({ label: "European Union" });
  await page.getByRole("button", { name: "Next: License" }).click();
}

/** From the URL step to the progress page, with the license whose radio is named `license` (its organization). */
export async function walkAndDeploy(page: Page, subdomain: string, license: string) {
  await expect(page).toHaveURL(/\/hubs\/new\/url$/);
  await urlStep(page, subdomain);
  await expect(page).toHaveURL(/\/hubs\/new\/license$/);
  await page.getByRole("radio", { name: new RegExp(license) }).check();
  await page.getByRole("button", { name: "Next: Administration" }).click();
  await expect(page).toHaveURL(/\/hubs\/new\/admin$/);
  await page.locator('input[name="userName"]').fill("ada-admin");
  await page.locator('input[name="firstName"]').fill("Ada");
  await page.locator('input[name="lastName"]').fill("Lovelace");
  await page.locator('input[name="email"]').fill("ada@example.com");
  await page.locator('input[name="password"]').fill("Secret123");
  await page.locator('input[name="confirmPassword"]').fill("Secret123");
  await page.getByRole("button", { name: "Next: Review" }).click();
  await expect(page).toHaveURL(/\/hubs\/new\/review$/);
  const review = page.getByRole("table", { name: "Your new Hub" });
  await expect(review).toContainText(`https://${subdomain}.${HUB_HOST}`);
  await expect(review).toContainText("European Union");
  await expect(review).toContainText(license);
  await expect(review).toContainText("ada-admin");
  await page.getByRole("link", { name: "Submit" }).click();
  const confirm = page.getByRole("dialog", {
    name: "Confirm creation of new GateKeeper Hub cloud deployment?",
  });
  await expect(confirm).toContainText("IRREVERSIBLE");
  await confirm.getByRole("button", { name: "Yes, Deploy" }).click();
  await expect(page).toHaveURL(/\/hubs\/deployments\/[\w-]+$/);
}
