import type { Page } from "@playwright/test";
import { expect, expectAccessible, test } from "./fixtures";
import {
  addBillingAddressInWizard,
  confirmationForm,
  licensesNamed,
  next,
  planStep,
  subscriptionsOf,
} from "./purchase-steps";
import { saveCardInDrawer } from "./card-form";
import { newCustomer, signInAsNewCustomer } from "./new-customer";
import { moveClock, ownPortal } from "./own-portal";

/**
 * A new license paid with a card whose bank asks the cardholder to authenticate every payment (Stripe's 3-D Secure
 * test card 3184 in the embedded gateway): the order waits for the cardholder with nothing charged, its progress page
 * sends them to the bank's page, and the return charges once; an abandoned authentication leaves it waiting, and
 * 'Choose another card' charges the other card once. With JavaScript and without it.
 */

/**
 * From the Plan step to a placed order paid with the 3184 card (saved through the bank's page on the way), its
 * Purchase posted twice as a double click sends it; the order's progress page, waiting for the cardholder.
 */
async function orderWaitingForTheBank(page: Page, organization: string) {
  await page.goto("/store/subscribe/plan");
  await planStep(page, organization, "3");
  for (const label of ["Next: Hardware", "Next: Support", "Next: Review", "Next: Billing"]) await next(page, label);
  await page.getByRole("link", { name: "Add Card" }).click();
  await saveCardInDrawer(page.getByRole("dialog", { name: "Create new payment method" }), "4000 0027 6000 3184");
  await expect(page).toHaveURL(/\/cards\/authenticate\/seti_local_[\w-]+$/);
  await page.getByRole("button", { name: "Complete authentication" }).click();
  await expect(page.getByText("Successfully added new payment method.")).toBeVisible();
  await addBillingAddressInWizard(page);
  await next(page, "Next: Order");
  await page.getByRole("link", { name: "Submit Order" }).click();
  const form = await confirmationForm(page);
  const post = () => page.request.post("/store/subscribe/order", { form, maxRedirects: 0 });
  const [first, second] = await Promise.all([post(), post()]);
  const progress = first.headers().location;
  expect(progress).toMatch(/^\/store\/orders\//);
  expect(second.headers().location).toBe(progress);
  await page.goto(progress);
  await expect(page.getByText("Your bank asks you to confirm this payment")).toBeVisible({ timeout: 15_000 });
  await expect(page.getByText("Nothing has been charged.")).toBeVisible();
  return progress;
}

const SUCCESS = "Successfully created your GateKeeper Enterprise recurring license!";

test("a purchase the bank asks about is charged once after the bank's page, reloaded or not", async ({
  page,
  portal,
}) => {
  test.setTimeout(150_000);
  const email = await signInAsNewCustomer(page, portal.databaseUrl, "sca-order");
  const progress = await orderWaitingForTheBank(page, "Reyes Bank Page");
  expect(await subscriptionsOf(portal.databaseUrl, email)).toBe(0);

  await page.getByRole("link", { name: "Confirm the payment with your bank" }).click();
  await expect(page).toHaveURL(/\/cards\/authenticate\/pi_local_[\w-]+$/);
  const bankPage = page.url();
  await expect(page.getByText(/Your bank asks you to confirm this payment of \$/)).toBeVisible();
  await page.reload();
  await page.getByRole("button", { name: "Complete authentication" }).click();
  await expect(page).toHaveURL(new RegExp(`${progress}$`));
  await expect(page.getByText(SUCCESS)).toBeVisible({ timeout: 15_000 });
  expect(await subscriptionsOf(portal.databaseUrl, email)).toBe(1);

  // The bank's page again: answered already, and its return charges nothing twice.
  await page.goto(bankPage);
  await expect(page.getByRole("button", { name: "Complete authentication" })).toHaveCount(0);
  await page.getByRole("link", { name: "Return to the portal" }).click();
  await expect(page.getByText(SUCCESS)).toBeVisible({ timeout: 15_000 });
  expect(await subscriptionsOf(portal.databaseUrl, email)).toBe(1);
});

test("a failed, then abandoned, authentication leaves the order waiting; 'Choose another card' charges the other card once", async ({
  page,
  portal,
  javaScriptEnabled,
}) => {
  // Two bank pages and two charges: 45 s on a quiet machine, 1.6 min with four walks on two busy cores.
  test.setTimeout(180_000);
  const email = await signInAsNewCustomer(page, portal.databaseUrl, "sca-order");
  const progress = await orderWaitingForTheBank(page, "Reyes Other Card");

  await page.getByRole("link", { name: "Confirm the payment with your bank" }).click();
  await page.getByRole("button", { name: "Fail authentication" }).click();
  await expect(page).toHaveURL(new RegExp(`${progress}$`));
  await expect(page.getByText("We are unable to authenticate your payment method.")).toBeVisible({ timeout: 15_000 });
  if (javaScriptEnabled) await expectAccessible(page);
  // The second authentication is abandoned: the customer leaves the bank's page unanswered.
  await page.getByRole("link", { name: "Confirm the payment with your bank" }).click();
  await expect(page).toHaveURL(/\/cards\/authenticate\/pi_local_[\w-]+$/);
  await page.goto(progress);
  await expect(page.getByText("Your bank asks you to confirm this payment")).toBeVisible();
  expect(await subscriptionsOf(portal.databaseUrl, email)).toBe(0);

  await page.getByRole("link", { name: "Replace Visa ending in 3184" }).click();
  await saveCardInDrawer(page.getByRole("dialog", { name: "Replace payment method" }), "4242 4242 4242 4242");
  await expect(page.getByText("Successfully replaced new payment method.")).toBeVisible();
  await page.getByRole("radio", { name: "Pay with Visa ending in 4242" }).check();
  await page.getByRole("button", { name: "Choose another card" }).click();
  await expect(page.getByText(SUCCESS)).toBeVisible({ timeout: 15_000 });
  expect(await subscriptionsOf(portal.databaseUrl, email)).toBe(1);
});

test("a bank page left open past its hour says it expired; the order waits on a new one, charged once", async ({
  browser,
  javaScriptEnabled,
  databaseEngine,
}) => {
  test.setTimeout(180_000);
  // A portal of its own: the time machine moves its engine's clock, which no other test may see.
  await ownPortal({ browser, javaScriptEnabled, databaseEngine }, async ({ portal, admin, signedIn }) => {
    const customer = await signedIn(await newCustomer(portal.databaseUrl, "sca-expired"));
    const progress = await orderWaitingForTheBank(customer, "Reyes Expired Bank Page");
    await customer.getByRole("link", { name: "Confirm the payment with your bank" }).click();
    await expect(customer).toHaveURL(/\/cards\/authenticate\/pi_local_[\w-]+$/);
    const expired = customer.url();

    await moveClock(admin, 1);

    await customer.reload();
    await expect(customer.getByText("This authentication has expired")).toBeVisible();
    await expect(customer.getByRole("button", { name: "Complete authentication" })).toHaveCount(0);
    await customer.getByRole("link", { name: "Return to the portal" }).click();
    await expect(customer).toHaveURL(new RegExp(`${progress}$`));
    await expect(customer.getByText("The payment's authentication expired")).toBeVisible({ timeout: 15_000 });
    expect(await licensesNamed(portal.databaseUrl, "Reyes Expired Bank Page")).toBe(0);

    await customer.getByRole("link", { name: "Confirm the payment with your bank" }).click();
    await expect(customer).toHaveURL(/\/cards\/authenticate\/pi_local_[\w-]+$/);
    expect(customer.url()).not.toBe(expired);
    await customer.getByRole("button", { name: "Complete authentication" }).click();
    await expect(customer.getByText(SUCCESS)).toBeVisible({ timeout: 15_000 });
    expect(await licensesNamed(portal.databaseUrl, "Reyes Expired Bank Page")).toBe(1);
  });
});
