import type { Page } from "@playwright/test";
import { billingCustomerOf, expect, withDatabase } from "./fixtures";

/** The user's subscriptions at the embedded billing engine, counted in the portal's database. */
export const subscriptionsOf = (file: string, email: string) =>
  withDatabase(
    file,
    (db) =>
      (
        db
          .prepare(`select count(*) as n from billing_subscriptions s where s.customer_id = ${billingCustomerOf("?")}`)
          .get(email) as { n: number }
      ).n,
  );

export const licensesNamed = (file: string, name: string) =>
  withDatabase(
    file,
    (db) => (db.prepare("select count(*) as n from licenses where name = ?").get(name) as { n: number }).n,
  );

/** The account has no card and no billing address on file (another test of this worker's portal may have added them). */
export const clearPaymentDetails = (file: string, email: string) =>
  withDatabase(file, (db) => {
    const customer = billingCustomerOf("@email");
    db.prepare(
      `update billing_customers set primary_payment_source_id = null, billing_address = null where id = ${customer}`,
    ).run({ email });
    db.prepare(`delete from billing_payment_sources where customer_id = ${customer}`).run({ email });
  });

export const next = (page: Page, label: string) => page.getByRole("button", { name: label }).click();

/** From the Plan step to the Order step with the defaults after the plan (cloud Hub, nothing else, the card on file). */
export async function walkToOrder(page: Page, organization: string, users: string, baseURL = "") {
  await page.goto(`${baseURL}/store/subscribe/plan`);
  await planStep(page, organization, users);
  for (const label of ["Next: Hardware", "Next: Support", "Next: Review", "Next: Billing", "Next: Order"])
    await next(page, label);
  await expect(page.getByRole("heading", { name: "Review Order" })).toBeVisible();
}

export async function planStep(page: Page, organization: string, users: string) {
  await expect(page.getByRole("heading", { name: "Choose your plan" })).toBeVisible();
  await page.getByLabel("Organization name the license is for").fill(organization);
  await page.getByLabel("Number of users").fill(users);
  await next(page, "Next: Hosting");
  await expect(page.getByRole("heading", { name: "Select Your Preferred GateKeeper Hub Deployment" })).toBeVisible();
}

/** The open confirmation's hidden fields, to post it as a double click or a second process would. */
export async function confirmationForm(page: Page) {
  const dialog = page.getByRole("dialog", { name: "Place your order." });
  return {
    csrf: await dialog.locator('input[name="csrf"]').inputValue(),
    orderKey: await dialog.locator('input[name="orderKey"]').inputValue(),
    intent: "purchase",
  };
}
