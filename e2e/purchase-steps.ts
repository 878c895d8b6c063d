import type { Page } from "@playwright/test";
import { count, eq } from "drizzle-orm";
import { billingCustomerIdOf, withDatabase } from "./database";
import { expect } from "./fixtures";

/** The user's subscriptions at the embedded billing engine, counted in the portal's database. */
export const subscriptionsOf = (databaseUrl: string, email: string) =>
  withDatabase(databaseUrl, async (db, t) => {
    const customerId = await billingCustomerIdOf(db, email);
    if (customerId === null) return 0;
    const [{ n }] = await db
      .select({ n: count() })
      .from(t.billingSubscriptions)
      .where(eq(t.billingSubscriptions.customerId, customerId));
    return n;
  });

export const licensesNamed = (databaseUrl: string, name: string) =>
  withDatabase(databaseUrl, async (db, t) => {
    const [{ n }] = await db.select({ n: count() }).from(t.licenses).where(eq(t.licenses.name, name));
    return n;
  });

/** The account has no card and no billing address on file (another test of this worker's portal may have added them). */
export const clearPaymentDetails = (databaseUrl: string, email: string) =>
  withDatabase(databaseUrl, async (db, t) => {
    const customerId = await billingCustomerIdOf(db, email);
    if (customerId === null) return;
    await db
      .update(t.billingCustomers)
      .set({ primaryPaymentSourceId: null, billingAddress: null })
      .where(eq(t.billingCustomers.id, customerId));
    await db.delete(t.billingPaymentSources).where(eq(t.billingPaymentSources.customerId, customerId));
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

/** The distributor has no card yet: add the Visa test card through the payment step's drawer. */
export async function addCardInWizard(page: Page) {
  await page.getByRole("link", { name: "Add Card" }).click();
  const drawer = page.getByRole("dialog", { name: "Create new payment method" });
  await drawer.getByLabel("Card number").fill("4242 4242 4242 4242");
  await drawer.getByLabel("Expiry").fill("12 / 30");
  await drawer.getByLabel("Security code").fill("123");
  await drawer.getByLabel("First name").fill("Ravi");
  await drawer.getByLabel("Last name").fill("Patel");
  await drawer.getByLabel("Address line 1").fill("1 Reseller Way");
  await drawer.getByLabel("City").fill("London");
  await drawer.getByLabel("State").fill("London");
  await drawer.getByLabel("Zip").fill("EC1A 1BB");
  await drawer.getByRole("combobox", { name: /^Country/ }).selectOption("GB");
  await drawer.getByRole("button", { name: "Save Card" }).click();
  await expect(page.getByText("Successfully added new payment method.")).toBeVisible();
}

/** ... and a billing address, through the Billing Address panel's drawer (name and email come prefilled, and the phone unless given). */
export async function addBillingAddressInWizard(page: Page, phone?: string) {
  await page.getByRole("link", { name: "Update Billing Profile" }).click();
  const drawer = page.getByRole("dialog", { name: "Update Billing Profile" });
  // A customer who signed up has given no phone number yet.
  if (phone) await drawer.getByRole("textbox", { name: "Phone" }).fill(phone);
  await drawer.getByLabel("Address line 1").fill("1 Reseller Way");
  await drawer.getByLabel("City").fill("London");
  await drawer.getByLabel("State").fill("London");
  await drawer.getByLabel("Zip").fill("EC1A 1BB");
  await drawer
    .getByRole("combobox", { name: /^Country/ })
    .last()
    .selectOption("GB");
  await drawer.getByRole("button", { name: "Save Billing Profile" }).click();
  await expect(page.getByText("Successfully updated billing profile.")).toBeVisible();
}
