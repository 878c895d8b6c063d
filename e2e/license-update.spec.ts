import { createPublicKey, randomUUID, verify } from "node:crypto";
import type { Page } from "@playwright/test";
import { eq } from "drizzle-orm";
import { insertAccount, withDatabase } from "./database";
import { DEMO, expect, expectAccessible, holdScripts, servesPortal, signInAs, startPortal, test } from "./fixtures";
import { saveCardInDrawer } from "./card-form";
import { next } from "./purchase-steps";

/**
 * Adding users to a recurring license, or moving it up a tier, with JavaScript and without: the prorated charge the Review showed, once; the rules'
 * messages; the picker behind "No, I'll upgrade existing recurring license"; nobody else's license.
 */

const HOUR = 60 * 60 * 1000;
const DAY = 24 * HOUR;

/** A new customer with a card on file and one recurring license on `planId` for `users`, 10 days into its term; signed in. */
async function signInWithSubscription(
  page: Page,
  databaseUrl: string,
  planId: string,
  users: number,
  unitPrice: number,
) {
  const suffix = randomUUID().slice(0, 8);
  const email = `update-${suffix}@example.com`;
  const ids = {
    user: randomUUID(),
    customer: `cust_e2e_${suffix}`,
    source: `src_e2e_${suffix}`,
    subscription: `sub_e2e_${suffix}`,
    license: `GK-E2E-${suffix.toUpperCase()}`,
  };
  const started = Date.now() - 10 * DAY - HOUR;
  const termEnd = started + (planId.endsWith("yearly") ? 365 : 30) * DAY;
  await withDatabase(databaseUrl, async (db, t) => {
    await insertAccount(db, {
      id: ids.user,
      email,
      firstName: "Robin",
      lastName: "Hale",
      billingCustomerId: ids.customer,
    });
    const address = {
      firstName: "Robin",
      lastName: "Hale",
      line1: "1 Market Street",
      city: "Denver",
      state: "Colorado",
      zip: "80202",
      country: "US",
    };
    await db.insert(t.billingCustomers).values({
      id: ids.customer,
      firstName: "Robin",
      lastName: "Hale",
      email,
      company: "Hale Dental",
      billingAddress: address,
      primaryPaymentSourceId: ids.source,
      createdAt: new Date(started),
    });
    await db.insert(t.billingPaymentSources).values({
      id: ids.source,
      customerId: ids.customer,
      status: "valid",
      referenceId: `cus_local_${ids.customer}/card_visa`,
      brand: "visa",
      last4: "4242",
      expiryMonth: 12,
      expiryYear: 2031,
      createdAt: new Date(started),
    });
    await db.insert(t.billingSubscriptions).values({
      id: ids.subscription,
      customerId: ids.customer,
      planId,
      planQuantity: users,
      planUnitPrice: unitPrice,
      addons: [],
      status: "active",
      currentTermStart: new Date(started),
      currentTermEnd: new Date(termEnd),
      nextBillingAt: new Date(termEnd),
      paymentSourceId: ids.source,
      licenseAssignment: "Hale Dental",
      createdAt: new Date(started),
    });
    await db.insert(t.licenses).values({
      id: randomUUID(),
      ownerId: ids.user,
      externalLicenseId: ids.license,
      name: "Hale Dental",
      nodes: users,
      planType: planId.split("-")[0] as "core" | "advanced" | "ultimate",
      type: "recurring",
      validFrom: new Date(started),
      validTo: new Date(termEnd),
      licenseCode: "{}",
      subscriptionId: ids.subscription,
    });
  });
  await signInAs(page, email);
  return ids;
}

const productUrl = (subscriptionId: string) => `/licenses/${subscriptionId}/update/product`;

/** Chooses on the Product step and presses Next; with JavaScript a refused choice disables Next instead. */
async function chooseUpdate(
  page: Page,
  plan: string,
  addedUsers: string,
  javaScriptEnabled: boolean,
  { expectRefusal = false } = {},
) {
  await page.getByLabel("New Plan").selectOption({ label: plan });
  await page.getByLabel("Additional Users").fill(addedUsers);
  if (expectRefusal && javaScriptEnabled) {
    await page.getByLabel("Additional Users").blur();
    await page.getByLabel("New Plan").focus();
    await page.getByLabel("New Plan").blur();
    await expect(page.getByRole("button", { name: "Next: Billing" })).toBeDisabled();
    return;
  }
  await next(page, "Next: Billing");
}

/** The demo customer, signed in on a portal of the test's own, opens the update of its Core monthly license. */
async function openDemoUpdate(page: Page, baseURL: string) {
  servesPortal(page.context(), baseURL);
  await signInAs(page, DEMO.customer);
  await page.goto(`${baseURL}/licenses`);
  await page.getByRole("link", { name: "Add Users to license GK-NWC-2026-0001" }).click();
}

test.describe("updating a recurring license", () => {
  // Without JavaScript a refused form comes back as 422, which the browser reports.
  test.use({ expectedHttpErrors: [422] });

  test("adds 5 users to the demo Core monthly license and pays the prorated amount the Review showed, once", async ({
    page,
    javaScriptEnabled,
    databaseEngine,
  }) => {
    // A portal of its own and a walk through three steps that each ask the billing engine: slow on a busy machine.
    test.slow();
    // Its own portal: this test changes the demo customer's license, which other tests read.
    const portal = await startPortal({ engine: databaseEngine });
    try {
      await openDemoUpdate(page, portal.baseURL);
      await expect(page).toHaveURL(/\/licenses\/sub_demo_core_monthly\/update\/product$/);
      await expect(
        page.getByText("You need to upgrade the plan or increase the number of users to update the recurring license."),
      ).toBeVisible();
      await expect(page.getByTestId("current-plan")).toHaveText("Current plan: Core (Monthly Billing) with 10 users");
      await chooseUpdate(page, "Core (Monthly Billing)", "5", javaScriptEnabled);
      await expect(page.getByRole("heading", { name: "Billing", exact: true })).toBeVisible();
      await next(page, "Next: Review & Order");
      await expect(page.getByRole("heading", { name: "Review Order" })).toBeVisible();
      await expect(page.getByTestId("recurring-line")).toContainText("15 users x $4.00 per month");
      await expect(page.getByTestId("recurring-line")).toContainText("+5 users");
      await expect(page.getByText("Available credits will automatically be applied to the invoice.")).toBeVisible();

      // The prorated amount from the term's dates: each line for the whole days left (the day of the change counted).
      const [term] = await withDatabase(portal.databaseUrl, (db, t) =>
        db
          .select({ start: t.billingSubscriptions.currentTermStart, end: t.billingSubscriptions.currentTermEnd })
          .from(t.billingSubscriptions)
          .where(eq(t.billingSubscriptions.id, "sub_demo_core_monthly")),
      );
      const share =
        Math.min(Math.ceil((term.end.getTime() - Date.now()) / DAY) * DAY, term.end.getTime() - term.start.getTime()) /
        (term.end.getTime() - term.start.getTime());
      const expected = Math.round(15 * 400 * share) - Math.round(10 * 400 * share);
      const dollars = `$${(expected / 100).toFixed(2)}`;
      await expect(page.getByTestId("amount-due")).toHaveText(dollars);
      if (javaScriptEnabled) await expectAccessible(page);

      // Reading the subscription renewed its past terms (it started 120 days ago): those invoices are not this update's.
      const invoicesBefore = (
        await withDatabase(portal.databaseUrl, (db, t) =>
          db.select({ id: t.billingInvoices.id }).from(t.billingInvoices),
        )
      ).map((row) => row.id);
      await page.getByRole("link", { name: "Submit Order" }).click();
      const dialog = page.getByRole("dialog", { name: "Update your recurring license?" });
      await expect(dialog).toContainText(`Your card will be charged ${dollars} now`);
      const confirmation = {
        csrf: await dialog.locator('input[name="csrf"]').inputValue(),
        orderKey: await dialog.locator('input[name="orderKey"]').inputValue(),
        intent: "update",
      };
      await dialog.getByRole("button", { name: "Update" }).click();
      await expect(page.getByText("Successfully updated your Northwind Clinics Recurring License!")).toBeVisible({
        timeout: 30_000,
      });
      // The same confirmation posted again (a double click, a second tab) leads to the same update.
      const again = await page.request.post(`${portal.baseURL}/licenses/sub_demo_core_monthly/update/review`, {
        form: confirmation,
        maxRedirects: 0,
      });
      expect(again.status()).toBe(302);
      expect(again.headers().location).toBe(new URL(page.url()).pathname);

      const after = await withDatabase(portal.databaseUrl, async (db, t) => {
        const [subscription] = await db
          .select({ quantity: t.billingSubscriptions.planQuantity })
          .from(t.billingSubscriptions)
          .where(eq(t.billingSubscriptions.id, "sub_demo_core_monthly"));
        const invoices = await db
          .select({ id: t.billingInvoices.id, paid: t.billingInvoices.amountPaid })
          .from(t.billingInvoices);
        const [license] = await db
          .select({ nodes: t.licenses.nodes, file: t.licenses.licenseCode })
          .from(t.licenses)
          .where(eq(t.licenses.subscriptionId, "sub_demo_core_monthly"));
        return {
          quantity: subscription.quantity,
          paid: invoices.filter((invoice) => !invoicesBefore.includes(invoice.id)).map((invoice) => invoice.paid),
          license,
        };
      });
      expect(after.quantity).toBe(15);
      expect(after.paid).toEqual([expected]);
      expect(after.license.nodes).toBe(15);
      // The re-signed file verifies with the public key the portal serves, and says 15 users.
      const file = JSON.parse(after.license.file) as { protected: string; payload: string; signature: string };
      const key = createPublicKey(await (await page.request.get(`${portal.baseURL}/license-public-key.pem`)).text());
      expect(
        verify(null, Buffer.from(`${file.protected}.${file.payload}`), key, Buffer.from(file.signature, "base64url")),
      ).toBe(true);
      expect(JSON.parse(Buffer.from(file.payload, "base64url").toString())).toMatchObject({ users: 15 });
      // The progress page's Close button under the message (the dialog's own close is the other).
      await page.getByRole("link", { name: "Close" }).last().click();
      await expect(page.getByRole("row", { name: /GK-NWC-2026-0001/ })).toContainText("15");
    } finally {
      await page.close();
      await portal.stop();
    }
  });

  test("with a card whose bank asks for every payment, waits for the cardholder and is charged once after the bank's page", async ({
    page,
    javaScriptEnabled,
    databaseEngine,
  }) => {
    test.slow();
    // Its own portal: this test changes the demo customer's card and license, which other tests read.
    const portal = await startPortal({ engine: databaseEngine });
    try {
      await openDemoUpdate(page, portal.baseURL);
      await chooseUpdate(page, "Core (Monthly Billing)", "5", javaScriptEnabled);
      await expect(page.getByRole("heading", { name: "Billing", exact: true })).toBeVisible();
      await page.getByRole("link", { name: "Replace Visa ending in 4242" }).click();
      await saveCardInDrawer(page.getByRole("dialog", { name: "Replace payment method" }), "4000 0027 6000 3184");
      await expect(page).toHaveURL(/\/cards\/authenticate\/seti_local_[\w-]+$/);
      await page.getByRole("button", { name: "Complete authentication" }).click();
      await expect(page.getByText("Successfully replaced new payment method.")).toBeVisible();
      await page.getByRole("radio", { name: "Pay with Visa ending in 3184" }).check();
      await next(page, "Next: Review & Order");
      await page.getByRole("link", { name: "Submit Order" }).click();
      await page
        .getByRole("dialog", { name: "Update your recurring license?" })
        .getByRole("button", { name: "Update" })
        .click();
      await expect(page.getByText("Your bank asks you to confirm this payment")).toBeVisible({ timeout: 30_000 });
      await expect(page).toHaveURL(/\/licenses\/updates\/[\w-]+$/);
      const progress = new URL(page.url()).pathname;
      await page.getByRole("link", { name: "Confirm the payment with your bank" }).click();
      await expect(page).toHaveURL(/\/cards\/authenticate\/pi_local_[\w-]+$/);
      await page.getByRole("button", { name: "Complete authentication" }).click();
      await expect(page).toHaveURL(new RegExp(`${progress}$`));
      await expect(page.getByText("Successfully updated your Northwind Clinics Recurring License!")).toBeVisible({
        timeout: 30_000,
      });
      const [subscription] = await withDatabase(portal.databaseUrl, (db, t) =>
        db
          .select({ planQuantity: t.billingSubscriptions.planQuantity })
          .from(t.billingSubscriptions)
          .where(eq(t.billingSubscriptions.id, "sub_demo_core_monthly")),
      );
      expect(subscription.planQuantity).toBe(15);
    } finally {
      await page.close();
      await portal.stop();
    }
  });

  test("says what is wrong on the Product step, on each field, and keeps what was typed", async ({
    page,
    portal,
    javaScriptEnabled,
  }) => {
    test.slow();
    const { subscription } = await signInWithSubscription(page, portal.databaseUrl, "advanced-monthly", 8, 600);
    await page.goto(productUrl(subscription));
    await chooseUpdate(page, "Advanced (Monthly Billing)", "0", javaScriptEnabled, { expectRefusal: true });
    await expect(page.getByText("Did not make any subscription changes.")).toBeVisible();
    await chooseUpdate(page, "Advanced (Monthly Billing)", "-2", javaScriptEnabled, { expectRefusal: true });
    await expect(page.getByText("Cannot reduce the number of users.")).toBeVisible();
    await expect(page.getByLabel("Additional Users")).toHaveValue("-2");
    await chooseUpdate(page, "Core (Monthly Billing)", "3", javaScriptEnabled, { expectRefusal: true });
    await expect(page.getByText("You can only switch to Advanced or Ultimate.")).toBeVisible();
    await expect(page.getByLabel("Additional Users")).toHaveValue("3");
    // Moving up a tier with no users added is a change.
    await chooseUpdate(page, "Ultimate (Monthly Billing)", "0", javaScriptEnabled);
    await expect(page.getByRole("heading", { name: "Billing", exact: true })).toBeVisible();
  });

  test("a plan chosen and users added before the page hydrated are what the Product step prices", async ({
    page,
    portal,
    javaScriptEnabled,
  }) => {
    test.skip(!javaScriptEnabled, "without JavaScript nothing tracks the fields: the form posts what they hold");
    test.slow();
    const { subscription } = await signInWithSubscription(page, portal.databaseUrl, "core-monthly", 10, 400);
    const hydrate = await holdScripts(page);
    // A document load, as from a bookmark: only its HTML is awaited.
    await page.goto(productUrl(subscription), { waitUntil: "commit" });
    await page.getByLabel("New Plan").selectOption({ label: "Advanced (Monthly Billing)" });
    await page.getByLabel("Additional Users").fill("2");
    hydrate();
    await expect(page.getByTestId("plan-amount")).toHaveText("$72.00", { timeout: 15_000 });
    await expect(page.getByRole("button", { name: "Next: Billing" })).toBeEnabled();
  });

  test("refuses to move a yearly license to monthly, on the page and on the server", async ({
    page,
    portal,
    javaScriptEnabled,
  }) => {
    const { subscription } = await signInWithSubscription(page, portal.databaseUrl, "core-yearly", 4, 3840);
    await page.goto(productUrl(subscription));
    await expect(page.getByTestId("current-plan")).toHaveText("Current plan: Core (Annual Billing) with 4 users");
    await chooseUpdate(page, "Ultimate (Monthly Billing)", "1", javaScriptEnabled, { expectRefusal: true });
    await expect(page.getByText("Yearly plan cannot be changed to monthly.")).toBeVisible();
    // A form posted around the page is refused the same way, and nothing moves on.
    const csrf = await page.locator('input[name="csrf"]').first().inputValue();
    const posted = await page.request.post(productUrl(subscription), {
      form: { csrf, plan: "ultimate-monthly", addedUsers: "1" },
      maxRedirects: 0,
    });
    expect(posted.status()).toBe(422);
    await page.goto(`/licenses/${subscription}/update/review`);
    await expect(page).toHaveURL(new RegExp(`${productUrl(subscription)}$`));
  });

  test("the picker behind 'No, I'll upgrade existing recurring license' opens the chosen license's update", async ({
    page,
  }) => {
    await signInAs(page, DEMO.customer);
    await page.goto("/store");
    await page.getByRole("link", { name: "Subscription" }).click();
    await page.getByRole("link", { name: "No, I'll upgrade existing recurring license" }).click();
    const dialog = page.getByRole("dialog", { name: "You already have recurring licenses." });
    await dialog.getByRole("button", { name: "Upgrade this license" }).click();
    await expect(page.getByText("Please choose the license to upgrade.")).toBeVisible();
    await page.getByRole("radio", { name: "GK-NWC-2026-0001" }).check();
    await page.getByRole("button", { name: "Upgrade this license" }).click();
    await expect(page).toHaveURL(/\/licenses\/sub_demo_core_monthly\/update\/product$/);
    await expect(page.getByTestId("current-plan")).toContainText("Core (Monthly Billing)");
  });
});

test.describe("another account's license", () => {
  test.use({ expectedHttpErrors: [404] });

  test("is 404 on every step of the update", async ({ page, portal }) => {
    await signInWithSubscription(page, portal.databaseUrl, "core-monthly", 2, 400);
    for (const step of ["product", "billing", "review"]) {
      const response = await page.goto(`/licenses/sub_demo_core_monthly/update/${step}`);
      expect(response?.status()).toBe(404);
    }
  });
});
