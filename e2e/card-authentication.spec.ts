import type { Page } from "@playwright/test";
import { expect, expectAccessible, test } from "./fixtures";
import { saveCardInDrawer } from "./card-form";
import { signInAsNewCustomer } from "./new-customer";

/**
 * Saving a card whose bank asks the cardholder to authenticate it (Stripe's 3-D Secure test card 3184 in the
 * embedded gateway): the account's card drawer sends the cardholder to the bank's page, whose answer brings them
 * back to the account, the card saved, or the old card kept with the reason. With JavaScript and without it.
 */

/** The bank's page the drawer sent the cardholder to. */
async function atBankPage(page: Page) {
  await expect(page).toHaveURL(/\/cards\/authenticate\/seti_local_[\w-]+$/);
  await expect(page.getByRole("heading", { name: "3-D Secure authentication" })).toBeVisible();
  return page.url();
}

test("saving a card through the bank's page: completed saves it once, failed keeps the old card and says why", async ({
  page,
  portal,
  javaScriptEnabled,
}) => {
  await signInAsNewCustomer(page, portal.databaseUrl, "sca");
  await page.goto("/account");
  const methods = page.getByRole("region", { name: "Payment Methods" });

  await methods.getByRole("link", { name: "Add Card" }).click();
  await saveCardInDrawer(page.getByRole("dialog", { name: "Create new payment method" }), "4000 0027 6000 3184");
  const bankPage = await atBankPage(page);
  if (javaScriptEnabled) await expectAccessible(page);
  await page.getByRole("button", { name: "Complete authentication" }).click();
  await expect(page).toHaveURL(/\/account$/);
  await expect(page.getByRole("status")).toContainText("Successfully added new payment method.");
  await expect(methods.getByRole("row")).toHaveCount(2);
  await expect(methods.getByRole("row").nth(1)).toContainText("3184");

  // The bank's page again (a reload, a second tab): answered already, and its return saves nothing twice.
  await page.goto(bankPage);
  await expect(page.getByRole("button", { name: "Complete authentication" })).toHaveCount(0);
  await page.getByRole("link", { name: "Return to the portal" }).click();
  await expect(page).toHaveURL(/\/account$/);
  await expect(page.getByRole("status")).toContainText(
    "This card authentication was used already: the card was saved once.",
  );
  await expect(methods.getByRole("row")).toHaveCount(2);

  await methods.getByRole("link", { name: "Replace Visa ending in 3184" }).click();
  const replace = page.getByRole("dialog", { name: "Replace payment method" });
  await saveCardInDrawer(replace, "4000 0027 6000 3184", { expiry: "10 / 32" });
  await atBankPage(page);
  await page.getByRole("button", { name: "Fail authentication" }).click();
  await expect(page).toHaveURL(/\/account$/);
  await expect(page.getByRole("alert")).toContainText(
    "Failed to add payment method. We are unable to authenticate your payment method. Please choose a different payment method and try again.",
  );
  await expect(methods.getByRole("row")).toHaveCount(2);
  // The old card, not the new one (expiring Oct 2032).
  await expect(methods.getByRole("row").nth(1)).toContainText("Sep 2031");
});
