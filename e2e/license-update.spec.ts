import { createPublicKey, randomUUID, verify } from "node:crypto";
import type { Page } from "@playwright/test";
import { hashPasswordSync } from "~/server/passwords.server";
import {
  DEMO,
  DEMO_PASSWORD,
  expect,
  expectAccessible,
  holdScripts,
  insertAccount,
  signIn,
  signInAs,
  startPortal,
  test,
  withDatabase,
} from "./fixtures";
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
  databaseFile: string,
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
  withDatabase(databaseFile, (db) => {
    insertAccount(db, {
      id: ids.user,
      email,
      passwordHash: hashPasswordSync(DEMO_PASSWORD),
      firstName: "Robin",
      lastName: "Hale",
      billingCustomerId: ids.customer,
    });
    const address = JSON.stringify({
      firstName: "Robin",
      lastName: "Hale",
      line1: "1 Market Street",
      city: "Denver",
      state: "Colorado",
      zip: "80202",
      country: "US",
    });
    db.prepare(
      "INSERT INTO billing_customers (id, first_name, last_name, email, company, billing_address, primary_payment_source_id, created_at) VALUES (?, 'Robin', 'Hale', ?, 'Hale Dental', ?, ?, ?)",
    ).run(ids.customer, email, address, ids.source, started);
    db.prepare(
      "INSERT INTO billing_payment_sources (id, customer_id, status, reference_id, brand, last4, expiry_month, expiry_year, created_at) VALUES (?, ?, 'valid', ?, 'visa', '4242', 12, 2031, ?)",
    ).run(ids.source, ids.customer, `cus_local_${ids.customer}/card_visa`, started);
    db.prepare(
      `INSERT INTO billing_subscriptions (id, customer_id, plan_id, plan_quantity, plan_unit_price, addons, status, current_term_start, current_term_end, next_billing_at, payment_source_id, license_assignment, created_at)
       VALUES (?, ?, ?, ?, ?, '[]', 'active', ?, ?, ?, ?, 'Hale Dental', ?)`,
    ).run(ids.subscription, ids.customer, planId, users, unitPrice, started, termEnd, termEnd, ids.source, started);
    db.prepare(
      `INSERT INTO licenses (id, owner_id, external_license_id, name, nodes, plan_type, type, valid_from, valid_to, license_code, subscription_id)
       VALUES (?, ?, ?, 'Hale Dental', ?, ?, 'recurring', ?, ?, '{}', ?)`,
    ).run(randomUUID(), ids.user, ids.license, users, planId.split("-")[0], started, termEnd, ids.subscription);
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

test.describe("updating a recurring license", () => {
  // Without JavaScript a refused form comes back as 422, which the browser reports.
  test.use({ expectedHttpErrors: [422] });

  test("adds 5 users to the demo Core monthly license and pays the prorated amount the Review showed, once", async ({
    page,
    javaScriptEnabled,
  }) => {
    // A portal of its own and a walk through three steps that each ask the billing engine: slow on a busy machine.
    test.slow();
    // Its own portal: this test changes the demo customer's license, which other tests read.
    const portal = await startPortal();
    try {
      await signIn(page, DEMO.customer, DEMO_PASSWORD, `${portal.baseURL}/login`);
      await expect(page.getByRole("heading", { level: 1, name: "Home" })).toBeVisible();
      await page.goto(`${portal.baseURL}/licenses`);
      await page.getByRole("link", { name: "Add Users to license GK-NWC-2026-0001" }).click();
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
      const term = withDatabase(portal.databaseFile, (db) =>
        db
          .prepare(
            "select current_term_start as start, current_term_end as end from billing_subscriptions where id = 'sub_demo_core_monthly'",
          )
          .get(),
      ) as { start: number; end: number };
      const share =
        Math.min(Math.ceil((term.end - Date.now()) / DAY) * DAY, term.end - term.start) / (term.end - term.start);
      const expected = Math.round(15 * 400 * share) - Math.round(10 * 400 * share);
      const dollars = `$${(expected / 100).toFixed(2)}`;
      await expect(page.getByTestId("amount-due")).toHaveText(dollars);
      await expectAccessible(page, javaScriptEnabled);

      // Reading the subscription renewed its past terms (it started 120 days ago): those invoices are not this update's.
      const invoicesBefore = withDatabase(
        portal.databaseFile,
        (db) => db.prepare("select id from billing_invoices").all() as { id: string }[],
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

      const after = withDatabase(portal.databaseFile, (db) => ({
        quantity: (
          db
            .prepare("select plan_quantity as n from billing_subscriptions where id = 'sub_demo_core_monthly'")
            .get() as { n: number }
        ).n,
        paid: (
          db.prepare("select id, amount_paid as paid from billing_invoices").all() as { id: string; paid: number }[]
        )
          .filter((invoice) => !invoicesBefore.includes(invoice.id))
          .map((invoice) => invoice.paid),
        license: db
          .prepare("select nodes, license_code as file from licenses where subscription_id = 'sub_demo_core_monthly'")
          .get() as { nodes: number; file: string },
      }));
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
      // The spec's Close button under the message (the dialog's own close is the other).
      await page.getByRole("link", { name: "Close" }).last().click();
      await expect(page.getByRole("row", { name: /GK-NWC-2026-0001/ })).toContainText("15");
    } finally {
      await page.close();
      await portal.stop();
    }
  });

  test("says what is wrong on the Product step in the spec's words, and keeps what was typed", async ({
    page,
    portal,
    javaScriptEnabled,
  }) => {
    test.slow();
    const { subscription } = await signInWithSubscription(page, portal.databaseFile, "advanced-monthly", 8, 600);
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
    const { subscription } = await signInWithSubscription(page, portal.databaseFile, "core-monthly", 10, 400);
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
    const { subscription } = await signInWithSubscription(page, portal.databaseFile, "core-yearly", 4, 3840);
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
    await signInWithSubscription(page, portal.databaseFile, "core-monthly", 2, 400);
    for (const step of ["product", "billing", "review"]) {
      const response = await page.goto(`/licenses/sub_demo_core_monthly/update/${step}`);
      expect(response?.status()).toBe(404);
    }
  });
});
