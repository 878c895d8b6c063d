import type { Locator, Page } from "@playwright/test";
import { armBillingFault, clearBillingFault } from "./database";
import { expect, expectAccessible, holdScripts, test } from "./fixtures";
import { signInAsNewCustomer } from "./new-customer";

/**
 * The account's billing area: cards, billing profile and shipping address in
 * drawers that are child routes of /account, with JavaScript and without it. Each test that changes data
 * signs up a customer of its own, so tests never depend on each other's order and the demo accounts stay
 * as the other specs expect them.
 */

const countryField = (scope: Locator) => scope.getByRole("combobox", { name: "Country", exact: true });

/** The same labels in every drawer: the card holder's, the billing profile's and the shipping address's. */
async function fillAddress(
  drawer: Locator,
  address: { line1: string; city: string; state: string; zip: string; country: string },
) {
  await drawer.getByLabel("Address line 1").fill(address.line1);
  await drawer.getByLabel("City").fill(address.city);
  await drawer.getByLabel("State").fill(address.state);
  await drawer.getByLabel("Zip").fill(address.zip);
  await countryField(drawer).selectOption(address.country);
}

async function fillName(drawer: Locator, firstName: string, lastName: string) {
  await drawer.getByLabel("First name").fill(firstName);
  await drawer.getByLabel("Last name").fill(lastName);
}

async function fillCardHolder(drawer: Locator) {
  await fillName(drawer, "Jordan", "Reyes");
  await fillAddress(drawer, { line1: "77 Pine Street", city: "Portland", state: "OR", zip: "97204", country: "US" });
}

async function fillCard(drawer: Locator, number: string, expiry = "09 / 31") {
  await drawer.getByLabel("Card number").fill(number);
  await drawer.getByLabel("Expiry").fill(expiry);
  await drawer.getByLabel("Security code").fill("123");
}

async function addCard(page: Page, number: string) {
  await page.getByRole("link", { name: "Add Card" }).click();
  const drawer = page.getByRole("dialog", { name: "Create new payment method" });
  await fillCardHolder(drawer);
  await fillCard(drawer, number);
  await drawer.getByRole("button", { name: "Save Card" }).click();
  await expect(page.getByRole("status")).toContainText("Successfully added new payment method.");
}

/**
 * Leaves the field empty so its rule shows: with JavaScript on leaving the field, without it once the
 * form is posted (the caller posts).
 */
async function empty(field: Locator) {
  await field.fill("");
  await field.blur();
}

test.describe("adding a card", () => {
  test.use({ expectedHttpErrors: [422] });

  test("says what is missing, shows a decline with the bank's reason, adds an accepted card, and allows only one", async ({
    page,
    portal,
    javaScriptEnabled,
  }) => {
    await signInAsNewCustomer(page, portal.databaseUrl, "billing");
    await page.goto("/account");
    const methods = page.getByRole("region", { name: "Payment Methods" });
    await expect(methods).toContainText("No payment method on file.");

    await methods.getByRole("link", { name: "Add Card" }).click();
    await expect(page).toHaveURL(/\/account\/cards\/new$/);
    const drawer = page.getByRole("dialog", { name: "Create new payment method" });
    await expect(drawer.getByRole("checkbox", { name: "Set as primary payment method" })).toBeChecked();
    const save = drawer.getByRole("button", { name: "Save Card" });
    if (javaScriptEnabled) {
      await expect(save).toBeDisabled();
      await expect(drawer.getByText("Enter the card and its holder's address to save.")).toBeVisible();
    }

    await empty(drawer.getByLabel("First name"));
    await drawer.getByLabel("Address line 2").fill("Suite 5");
    await empty(drawer.getByLabel("Card number"));
    if (!javaScriptEnabled) await save.click();
    // With JavaScript the two fields left empty say so; without it, after posting, every empty required field does.
    await expect(drawer.getByText("Cannot be empty.")).toHaveCount(javaScriptEnabled ? 2 : 7);
    if (javaScriptEnabled) await expect(drawer.getByText("Please fix the errors to save changes.")).toBeVisible();

    await fillCardHolder(drawer);
    await fillCard(drawer, "4000 0000 0000 0002");
    await save.click();
    await expect(drawer.getByRole("alert")).toHaveText("Failed to add payment method.");
    await expect(drawer.getByText("Your card was declined.", { exact: true })).toBeVisible();
    await expect(drawer.getByLabel("Address line 2")).toHaveValue("Suite 5");
    await expect(drawer.getByLabel("First name")).toHaveValue("Jordan");

    await fillCard(drawer, "4242 4242 4242 4242");
    await save.click();
    await expect(page).toHaveURL(/\/account$/);
    await expect(page.getByRole("status")).toContainText("Successfully added new payment method.");
    await expect(drawer).toBeHidden();
    const row = methods.getByRole("row").nth(1);
    await expect(row.getByRole("cell")).toHaveText([
      "Card",
      "Valid",
      "",
      "4242",
      "Jordan Reyes",
      "Sep 2031",
      "Replace",
    ]);
    await expect(row.getByRole("img", { name: "Visa" })).toBeVisible();

    const limit =
      "Currently only one credit card can be added. Please remove the existing card to use a different credit card.";
    await expect(methods.getByRole("button", { name: "Add Card" })).toBeDisabled();
    await expect(methods.getByText(limit)).toBeVisible();
    await page.goto("/account/cards/new");
    await expect(page).toHaveURL(/\/account$/);
    await expect(page.getByRole("status")).toContainText(limit);
  });
});

test.describe("a card typed before the drawer hydrated", () => {
  test("is saved: Save Card judges what was typed, not what the page had when its scripts arrived", async ({
    page,
    portal,
    javaScriptEnabled,
  }) => {
    test.skip(!javaScriptEnabled, "hydration needs JavaScript");
    await signInAsNewCustomer(page, portal.databaseUrl, "billing");
    const hydrate = await holdScripts(page);
    await page.goto("/account/cards/new", { waitUntil: "commit" });
    const drawer = page.getByRole("dialog", { name: "Create new payment method" });
    await fillCardHolder(drawer);
    await fillCard(drawer, "4242 4242 4242 4242");
    hydrate();
    await expect(page.locator("html")).toHaveAttribute("data-link-navigation", "on");
    const save = drawer.getByRole("button", { name: "Save Card" });
    await expect(save).toBeEnabled();
    await expect(drawer.getByText("Enter the card and its holder's address to save.")).toBeHidden();
    await save.click();
    await expect(page.getByRole("status")).toContainText("Successfully added new payment method.");
    await expect(page.getByRole("region", { name: "Payment Methods" }).getByRole("row").nth(1)).toContainText("4242");
  });
});

test.describe("replacing a card", () => {
  test.use({ expectedHttpErrors: [404] });

  test("puts a new card in place of the old one, only for one's own card", async ({ page, portal }) => {
    await signInAsNewCustomer(page, portal.databaseUrl, "billing");
    await page.goto("/account");
    await addCard(page, "4242 4242 4242 4242");

    await page.getByRole("link", { name: "Replace Visa ending in 4242" }).click();
    const drawer = page.getByRole("dialog", { name: "Replace payment method" });
    await expect(drawer).toContainText("Replacing Visa ending in 4242, expiring Sep 2031.");
    await fillCardHolder(drawer);
    await fillCard(drawer, "5555 5555 5555 4444", "10 / 32");
    await drawer.getByRole("button", { name: "Save Card" }).click();
    await expect(page.getByRole("status")).toContainText("Successfully replaced new payment method.");

    const methods = page.getByRole("region", { name: "Payment Methods" });
    await expect(methods.getByRole("row")).toHaveCount(2);
    await expect(methods.getByRole("img", { name: "Mastercard" })).toBeVisible();
    await expect(methods.getByRole("row").nth(1)).toContainText("Oct 2032");

    await page.goto("/account/cards/src_demo_visa/replace");
    await expect(page.getByRole("dialog", { name: "Something went wrong" })).toContainText(
      "This payment method does not exist or is not yours.",
    );
  });
});

test.describe("the billing profile", () => {
  test.use({ expectedHttpErrors: [422] });

  test("checks the required fields, reports a provider failure, then saves both parts", async ({
    page,
    portal,
    javaScriptEnabled,
  }) => {
    await signInAsNewCustomer(page, portal.databaseUrl, "billing");
    await page.goto("/account");
    await expect(page.getByRole("region", { name: "Billing Address" })).toContainText("Please update the address");
    await expect(page.getByText("Please update the address")).toHaveCSS("color", "rgb(201, 42, 42)");

    await page.getByRole("link", { name: "Update billing profile", exact: true }).click();
    await expect(page).toHaveURL(/\/account\/profile$/);
    const drawer = page.getByRole("dialog", { name: "Update Billing Profile" });
    await expect(drawer.getByLabel("First name")).toHaveValue("Jordan");
    const save = drawer.getByRole("button", { name: "Save Billing Profile" });
    if (javaScriptEnabled) await expect(save).toBeDisabled();

    await empty(drawer.getByLabel("Company"));
    await empty(drawer.getByLabel("City"));
    await countryField(drawer).focus();
    await countryField(drawer).selectOption("GB");
    await countryField(drawer).selectOption("");
    await countryField(drawer).blur();
    if (!javaScriptEnabled) await save.click();
    await expect(drawer.getByText("Cannot be empty.")).toHaveCount(javaScriptEnabled ? 2 : 5);
    await expect(drawer.getByText("Please select your country.")).toBeVisible();

    await drawer.getByLabel("Company").fill("Reyes Security");
    await fillAddress(drawer, {
      line1: "10 Fleet Street",
      city: "London",
      state: "Greater London",
      zip: "EC4Y 1AA",
      country: "GB",
    });
    await armBillingFault(portal.databaseUrl, "updateBillingInfo", { message: "The billing address was rejected." });
    await save.click();
    await expect(drawer.getByRole("alert")).toHaveText("The billing address was rejected.");
    await expect(drawer.getByLabel("Address line 1")).toHaveValue("10 Fleet Street");

    await save.click();
    await expect(page.getByRole("status")).toContainText("Successfully updated billing profile.");
    await expect(page).toHaveURL(/\/account$/);
    await expect(page.getByRole("region", { name: "Billing Address" })).toContainText("10 Fleet Street");
    await expect(page.getByRole("region", { name: "Billing Address" })).toContainText("United Kingdom");
    await expect(page.getByRole("region", { name: "Billing Profile" })).toContainText("Reyes Security");
  });

  test("says 'Error fetching billing profile.' when the billing provider cannot be read", async ({
    page,
    portal,
    javaScriptEnabled,
  }) => {
    await signInAsNewCustomer(page, portal.databaseUrl, "billing");
    await page.goto("/account");
    await addCard(page, "4242 4242 4242 4242");
    await armBillingFault(portal.databaseUrl, "retrieveCustomer", { message: "down", mode: "hang", remaining: null });
    try {
      await page.getByRole("link", { name: "Update billing profile", exact: true }).click();
      const drawer = page.getByRole("dialog", { name: "Update Billing Profile" });
      if (javaScriptEnabled) await expect(drawer.getByText("Loading Billing Profile...")).toBeVisible();
      await expect(drawer.getByText("Error fetching billing profile.")).toBeVisible();
    } finally {
      await clearBillingFault(portal.databaseUrl, "retrieveCustomer");
    }
  });
});

test.describe("the shipping address", () => {
  test.use({ expectedHttpErrors: [422] });

  test("is the billing address until a different one is saved, and can go back to it", async ({
    page,
    portal,
    javaScriptEnabled,
  }) => {
    await signInAsNewCustomer(page, portal.databaseUrl, "billing");
    await page.goto("/account");
    const panel = page.getByRole("region", { name: "Shipping Address" });
    await expect(panel).toContainText("Same as billing address");

    // The drawer is a URL of its own; its close button goes back to the page, with or without JavaScript.
    await panel.getByRole("link", { name: "Use a different address" }).click();
    await expect(page).toHaveURL(/\/account\/shipping$/);
    const drawer = page.getByRole("dialog", { name: "Update Shipping Address" });
    await drawer.getByRole("link", { name: "Close" }).click();
    await expect(page).toHaveURL(/\/account$/);
    await expect(drawer).toBeHidden();
    await panel.getByRole("link", { name: "Use a different address" }).click();
    await drawer.getByLabel("First name").fill("Sam");
    await empty(drawer.getByLabel("First name"));
    await drawer.getByLabel("Email").fill("not-an-email");
    await drawer.getByLabel("Email").blur();
    if (!javaScriptEnabled) await drawer.getByRole("button", { name: "Save Shipping Address" }).click();
    await expect(drawer.getByText("Cannot be empty.")).toHaveCount(javaScriptEnabled ? 1 : 7);
    await expect(drawer.getByText("Invalid Email")).toBeVisible();

    await fillName(drawer, "Sam", "Lee");
    await drawer.getByLabel("Email").fill("");
    await fillAddress(drawer, { line1: "9 Dock Road", city: "Oakland", state: "CA", zip: "94607", country: "US" });
    await drawer.getByRole("button", { name: "Save Shipping Address" }).click();
    await expect(page.getByRole("status")).toContainText("Successfully updated shipping address.");
    await expect(panel).toContainText("Sam Lee");
    await expect(panel).toContainText("9 Dock Road");
    await expect(panel).not.toContainText("Same as billing address");

    await panel.getByRole("link", { name: "Use a different address" }).click();
    await expect(drawer.getByLabel("Address line 1")).toHaveValue("9 Dock Road");
    await drawer.getByRole("button", { name: "Use billing address" }).click();
    await expect(page.getByRole("status")).toContainText("same as your billing address");
    await expect(panel).toContainText("Same as billing address");
  });
});

test.describe("accessibility", () => {
  test("the account page and each drawer have no serious violations", async ({ page, portal, javaScriptEnabled }) => {
    test.skip(!javaScriptEnabled, "app pages are scanned hydrated");
    // Six axe scans: near 30 s on a busy 2-core machine.
    test.slow();
    await signInAsNewCustomer(page, portal.databaseUrl, "billing");
    for (const url of ["/account", "/account/cards/new", "/account/profile", "/account/shipping"]) {
      await page.goto(url);
      await expectAccessible(page);
    }
    await page.goto("/account");
    await addCard(page, "4242 4242 4242 4242");
    await expectAccessible(page);
    await page.getByRole("link", { name: "Replace Visa ending in 4242" }).click();
    await expect(page.getByRole("dialog", { name: "Replace payment method" })).toBeVisible();
    await expectAccessible(page);
  });
});
