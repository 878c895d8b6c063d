import { readFile } from "node:fs/promises";
import type { Locator, Page } from "@playwright/test";
import { pdfText } from "../tests/support/pdf-text";
import { and, count, eq } from "drizzle-orm";
import { withDatabase } from "./database";
import { expect, test } from "./fixtures";
import { saveCardInDrawer } from "./card-form";
import { moveClock, ownPortal, type Portal } from "./own-portal";
import { walkToOrder } from "./purchase-steps";
import { BANK_ASKS_TO_CONFIRM as BANK_ASKS } from "~/domain/renewals";

/**
 * A recurring license after checkout, in a portal of each test's own: the time machine moves that portal's billing
 * engine a month on, which no other test may see. A customer's monthly license renews (new valid-to, a renewal
 * invoice downloadable as a PDF), a renewal declined by the card on file is paid once with Pay now and a new card,
 * and auto-renew is turned off and on again.
 */

const usDate = new Intl.DateTimeFormat("en-US", { month: "2-digit", day: "2-digit", year: "numeric", timeZone: "UTC" });

const usd = new Intl.NumberFormat("en-US", { style: "currency", currency: "USD" });

/** Buys a monthly license for the organization with the card on file, and opens the licenses page. */
async function buyMonthly(page: Page, organization: string) {
  await walkToOrder(page, organization, "3");
  await page.getByRole("link", { name: "Submit Order" }).click();
  await page.getByRole("dialog", { name: "Place your order." }).getByRole("button", { name: "Purchase" }).click();
  await expect(page.getByText("Successfully created your GateKeeper Enterprise recurring license!")).toBeVisible({
    timeout: 20_000,
  });
  await page.goto("/licenses");
}

const licenseOf = (portal: Portal, organization: string) =>
  withDatabase(portal.databaseUrl, async (db, t) => {
    const [license] = await db
      .select({ id: t.licenses.externalLicenseId, validTo: t.licenses.validTo })
      .from(t.licenses)
      .where(eq(t.licenses.name, organization));
    return { id: license.id, validTo: license.validTo.getTime() };
  });

/** The renewal invoice of the license bought for the organization: its number and total in cents. */
const renewalInvoiceOf = (portal: Portal, organization: string) =>
  withDatabase(portal.databaseUrl, async (db, t) => {
    const [invoice] = await db
      .select({ number: t.invoices.number, total: t.invoices.total })
      .from(t.invoices)
      .innerJoin(t.licenses, eq(t.licenses.subscriptionId, t.invoices.subscriptionId))
      .where(and(eq(t.licenses.name, organization), eq(t.invoices.purpose, "renewal")));
    return invoice;
  });

/** How many times a renewal invoice of the license bought for the organization was paid. */
const renewalPaymentsOf = (portal: Portal, organization: string) =>
  withDatabase(portal.databaseUrl, async (db, t) => {
    const [payments] = await db
      .select({ n: count() })
      .from(t.billingEvents)
      .innerJoin(
        t.billingInvoices,
        and(eq(t.billingInvoices.id, t.billingEvents.resourceId), eq(t.billingInvoices.purpose, "renewal")),
      )
      .innerJoin(t.licenses, eq(t.licenses.subscriptionId, t.billingInvoices.subscriptionId))
      .where(and(eq(t.licenses.name, organization), eq(t.billingEvents.type, "invoice_paid")));
    return payments.n;
  });

const rowOf = (page: Page, organization: string): Locator => page.getByRole("row", { name: new RegExp(organization) });

test.describe("a recurring license after checkout", () => {
  test("renews a month on: the new valid-to, and the renewal's invoice as a PDF with its amount", async ({
    browser,
    javaScriptEnabled,
    databaseEngine,
  }) => {
    test.setTimeout(180_000);
    await ownPortal({ browser, javaScriptEnabled, databaseEngine }, async ({ portal, customer, admin }) => {
      await buyMonthly(customer, "Renewal Probe Co");
      const bought = await licenseOf(portal, "Renewal Probe Co");
      await expect(rowOf(customer, "Renewal Probe Co")).toContainText(usDate.format(bought.validTo));

      await moveClock(admin, 31);

      await expect
        .poll(async () => (await licenseOf(portal, "Renewal Probe Co")).validTo, { timeout: 20_000 })
        .toBeGreaterThan(bought.validTo);
      const renewed = await licenseOf(portal, "Renewal Probe Co");
      const days = (renewed.validTo - bought.validTo) / (24 * 60 * 60 * 1000);
      expect(days).toBeGreaterThanOrEqual(28);
      expect(days).toBeLessThanOrEqual(31);
      await customer.goto("/licenses");
      const row = rowOf(customer, "Renewal Probe Co");
      await expect(row).toContainText(usDate.format(renewed.validTo));
      await expect(row).toContainText("Active");

      // The renewal's invoice on /account/invoices, and its PDF with the amount.
      const invoice = await renewalInvoiceOf(portal, "Renewal Probe Co");
      await customer.goto("/account/invoices");
      const renewal = customer.getByRole("row", { name: new RegExp(`^${invoice.number} `) });
      await expect(renewal).toContainText("Renewal");
      await expect(renewal).toContainText("Paid");
      const amount = (await renewal.getByRole("cell").nth(3).innerText()).trim();
      expect(amount).toBe(usd.format(invoice.total / 100));
      const download = customer.waitForEvent("download");
      await renewal.getByRole("link", { name: `Download invoice ${invoice.number} as a PDF` }).click();
      const text = (await pdfText(await readFile(await (await download).path()))).replace(/\s+/g, " ");
      expect(text).toContain(`Invoice number: ${invoice.number}`);
      expect(text).toContain(`Total ${amount}`);
    });
  });

  test("a renewal declined by the card on file is paid once with Pay now and a new card", async ({
    browser,
    javaScriptEnabled,
    databaseEngine,
  }) => {
    test.setTimeout(180_000);
    await ownPortal({ browser, javaScriptEnabled, databaseEngine }, async ({ portal, customer, admin }) => {
      await buyMonthly(customer, "Declined Renewal Co");
      const { id } = await licenseOf(portal, "Declined Renewal Co");

      // The Visa on file is replaced by Stripe's test card that saves and then declines every charge.
      await customer.goto("/account");
      await customer.getByRole("link", { name: "Replace Visa ending in 4242" }).click();
      await replaceCard(customer, "4000 0000 0000 0341");
      await expect(customer.getByRole("status")).toContainText("Successfully replaced new payment method.");

      await moveClock(admin, 31);

      await customer.goto("/licenses");
      const row = rowOf(customer, "Declined Renewal Co");
      await expect(row).toContainText(/Payment failed: \$[\d,.]+ due, stops \d\d\/\d\d\/\d{4}/, { timeout: 20_000 });
      await row.getByRole("link", { name: `Pay now for license ${id}` }).click();

      const drawer = customer.getByRole("dialog", { name: /^Pay invoice \d+$/ });
      await expect(drawer).toContainText(`The renewal of Declined Renewal Co (license ${id}) could not be charged.`);
      const due = (await drawer.locator("strong").first().innerText()).trim();
      await drawer.getByRole("link", { name: "Replace Visa ending in 0341" }).click();
      await replaceCard(customer, "4242 4242 4242 4242");
      await expect(customer.getByRole("status")).toContainText("Successfully replaced new payment method.");
      await customer.getByRole("button", { name: "Next: Confirm Payment" }).click();
      await expect(customer.getByTestId("pay-amount")).toHaveText(due);
      await customer.getByRole("button", { name: `Pay ${due} now` }).click();
      await expect(customer.getByText(`Paid ${due}. Thank you!`)).toBeVisible({ timeout: 20_000 });

      // Charged once; the license runs on.
      expect(await renewalPaymentsOf(portal, "Declined Renewal Co")).toBe(1);
      await customer.goto("/licenses");
      await expect(rowOf(customer, "Declined Renewal Co")).toContainText(/Renews \d\d\/\d\d\/\d{4}/);
    });
  });

  test("a renewal the card's bank asks to confirm is left due, mailed and shown so, and paid once with Pay now through the bank's page", async ({
    browser,
    javaScriptEnabled,
    databaseEngine,
  }) => {
    test.setTimeout(180_000);
    await ownPortal({ browser, javaScriptEnabled, databaseEngine }, async ({ portal, customer, admin }) => {
      await buyMonthly(customer, "Bank Asks Renewal Co");
      const { id } = await licenseOf(portal, "Bank Asks Renewal Co");

      // The Visa on file is replaced by Stripe's test card whose bank asks on every payment, saved through its page.
      await customer.goto("/account");
      await customer.getByRole("link", { name: "Replace Visa ending in 4242" }).click();
      await replaceCard(customer, "4000 0027 6000 3184");
      await expect(customer).toHaveURL(/\/cards\/authenticate\/seti_local_[\w-]+$/);
      await customer.getByRole("button", { name: "Complete authentication" }).click();
      await expect(customer.getByRole("status")).toContainText("Successfully replaced new payment method.");

      await moveClock(admin, 31);

      await customer.goto("/licenses");
      const row = rowOf(customer, "Bank Asks Renewal Co");
      await expect(row).toContainText(/Payment failed: \$[\d,.]+ due/, { timeout: 20_000 });
      expect(await renewalPaymentsOf(portal, "Bank Asks Renewal Co")).toBe(0);
      const invoice = await renewalInvoiceOf(portal, "Bank Asks Renewal Co");
      const invoiceRow = () => customer.getByRole("row", { name: new RegExp(`^${invoice.number} `) });
      await customer.goto("/account/invoices");
      await expect(invoiceRow()).toContainText("Payment due");
      await customer.goto("/licenses");
      const notice = customer.getByRole("alert").filter({ hasText: "The renewal of Bank Asks Renewal Co" });
      await expect(notice).toContainText(BANK_ASKS);
      await expect
        .poll(
          () =>
            withDatabase(portal.databaseUrl, (db, t) =>
              db
                .select({ text: t.outbox.text })
                .from(t.outbox)
                .where(eq(t.outbox.subject, "The renewal of Bank Asks Renewal Co could not be charged")),
            ),
          { timeout: 20_000 },
        )
        .toEqual(expect.arrayContaining([{ text: expect.stringContaining(BANK_ASKS) }]));

      await row.getByRole("link", { name: `Pay now for license ${id}` }).click();
      const drawer = customer.getByRole("dialog", { name: /^Pay invoice \d+$/ });
      await expect(drawer).toContainText(BANK_ASKS);
      const due = (await drawer.locator("strong").first().innerText()).trim();
      await customer.getByRole("button", { name: "Next: Confirm Payment" }).click();
      await customer.getByRole("button", { name: `Pay ${due} now` }).click();
      await expect(customer.getByText("Your bank asks you to confirm this payment")).toBeVisible({ timeout: 20_000 });
      await customer.getByRole("link", { name: "Confirm the payment with your bank" }).click();
      await expect(customer).toHaveURL(/\/cards\/authenticate\/pi_local_[\w-]+$/);
      const bankPage = customer.url();
      await customer.getByRole("button", { name: "Complete authentication" }).click();
      await expect(customer.getByText(`Paid ${due}. Thank you!`)).toBeVisible({ timeout: 20_000 });
      expect(await renewalPaymentsOf(portal, "Bank Asks Renewal Co")).toBe(1);

      // The bank's page again (a reload, a second tab): answered already, and its return pays nothing twice.
      await customer.goto(bankPage);
      await expect(customer.getByRole("button", { name: "Complete authentication" })).toHaveCount(0);
      await customer.getByRole("link", { name: "Return to the portal" }).click();
      await expect(customer.getByText(`Paid ${due}. Thank you!`)).toBeVisible({ timeout: 20_000 });
      expect(await renewalPaymentsOf(portal, "Bank Asks Renewal Co")).toBe(1);
      await customer.goto("/account/invoices");
      await expect(invoiceRow()).toContainText("Paid");
      await customer.goto("/licenses");
      await expect(rowOf(customer, "Bank Asks Renewal Co")).toContainText(/Renews \d\d\/\d\d\/\d{4}/);
    });
  });

  test("auto-renew is turned off, with the license's last day, and on again", async ({
    browser,
    javaScriptEnabled,
    databaseEngine,
  }) => {
    test.setTimeout(120_000);
    await ownPortal({ browser, javaScriptEnabled, databaseEngine }, async ({ customer }) => {
      await customer.goto("/licenses");
      const license = "GK-NWC-2026-0001";
      const row = customer.getByRole("row", { name: new RegExp(license) });
      await expect(row).toContainText(/Renews (\d\d\/\d\d\/\d{4})/);
      const renewsOn = /Renews (\d\d\/\d\d\/\d{4})/.exec(await row.innerText())![1];

      await row.getByRole("link", { name: `Turn off auto-renew of license ${license}` }).click();
      const off = customer.getByRole("dialog", { name: "Turn off auto-renew?" });
      await expect(off).toContainText(`Its last day is ${renewsOn}`);
      await off.getByRole("button", { name: "Turn off auto-renew" }).click();
      await expect(customer.getByRole("status")).toContainText(
        `Auto-renew is off. License ${license} stays valid until ${renewsOn}`,
      );
      await expect(row).toContainText(`Auto-renew off: last day ${renewsOn}`);

      await row.getByRole("link", { name: `Turn on auto-renew of license ${license}` }).click();
      const on = customer.getByRole("dialog", { name: "Turn on auto-renew?" });
      await expect(on).toContainText("Nothing is charged now.");
      await on.getByRole("button", { name: "Turn on auto-renew" }).click();
      await expect(customer.getByRole("status")).toContainText(
        `Auto-renew is on. License ${license} renews on ${renewsOn}`,
      );
      await expect(row).toContainText(`Renews ${renewsOn}`);
    });
  });
});

/** Fills the replace-card drawer open on the page with the card and its holder, and saves it. */
async function replaceCard(page: Page, number: string) {
  await saveCardInDrawer(page.getByRole("dialog", { name: "Replace payment method" }), number, { expiry: "12 / 34" });
}
