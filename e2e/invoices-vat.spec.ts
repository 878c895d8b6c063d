import { randomUUID } from "node:crypto";
import { readFile } from "node:fs/promises";
import type { Locator, Page } from "@playwright/test";
import { eq } from "drizzle-orm";
import { REVERSE_CHARGE_NOTE } from "~/domain/tax-ids";
import { pdfText } from "../tests/support/pdf-text";
import { armFault, insertAccount, withDatabase } from "./database";
import { expect, signInAs, test } from "./fixtures";
import { moveClock, ownPortal } from "./own-portal";
import { addCardInWizard, walkToOrder } from "./purchase-steps";

/**
 * A German business files the portal's invoices: its VAT number is checked at the field and with the tax register
 * (the embedded simulator), printed with the seller's on the invoice with the reverse-charge note, and the invoice
 * keeps the buyer as issued: a later change of the billing profile leaves it alone, and a correction is a new
 * revision beside the old one. The simulator's documented numbers: DE100000008 is valid and registered to a name;
 * any other well-formed German number (DE136695976) is valid unless a fault makes the register unavailable.
 */

const VALID_WITH_NAME = "DE100000008";
const VALID_PLAIN = "DE136695976";
/** The demo seller's VAT registration (the portal starts with SEED_DEMO=true and names no seller of its own). */
const SELLER_VAT_NUMBER = "IE6388047V";

/** A new customer in Berlin with a card on file and no billing profile yet, signed in by `signIn`. */
async function signInAsGermanCustomer(
  signIn: (email: string) => Promise<Page>,
  databaseUrl: string,
  company: string,
): Promise<Page> {
  const email = `vat-${randomUUID().slice(0, 8)}@example.com`;
  await withDatabase(databaseUrl, (db) =>
    insertAccount(db, {
      id: randomUUID(),
      email,
      firstName: "Lena",
      lastName: "Bergmann",
      company,
      phone: "+49 30 901820",
    }),
  );
  const page = await signIn(email);
  await page.goto("/account");
  await addCardInWizard(page);
  return page;
}

async function fillBerlinAddress(drawer: Locator, line1: string) {
  await drawer.getByLabel("Address line 1").fill(line1);
  await drawer.getByLabel("City").fill("Berlin");
  await drawer.getByLabel("State").fill("Berlin");
  await drawer.getByLabel("Zip").fill("10117");
  await drawer.getByRole("combobox", { name: "Country", exact: true }).selectOption("DE");
}

async function openBillingProfile(page: Page) {
  await page.goto("/account");
  await page.getByRole("link", { name: "Update billing profile", exact: true }).click();
  return page.getByRole("dialog", { name: "Update Billing Profile" });
}

async function saveBillingProfile(page: Page, drawer: Locator) {
  await drawer.getByRole("button", { name: "Save Billing Profile" }).click();
  await expect(page.getByRole("status")).toContainText("Successfully updated billing profile.");
}

const vatStatus = (page: Page) => page.getByRole("region", { name: "Billing Profile" }).getByTestId("vat-number");

/** The text of the PDF a link downloads, on one line. */
async function downloadedText(page: Page, link: Locator): Promise<string> {
  const download = page.waitForEvent("download");
  await link.click();
  return (await pdfText(await readFile(await (await download).path()))).replace(/\s+/g, " ");
}

/** The numbers of the invoices of the license bought for the organization, oldest first. */
const invoicesOfLicense = (databaseUrl: string, organization: string) =>
  withDatabase(databaseUrl, async (db, t) => {
    const invoices = await db
      .select({ number: t.invoices.number })
      .from(t.invoices)
      .innerJoin(t.licenses, eq(t.licenses.subscriptionId, t.invoices.subscriptionId))
      .where(eq(t.licenses.name, organization))
      .orderBy(t.invoices.date);
    return invoices.map((invoice) => invoice.number);
  });

/**
 * The German customer's checked VAT number, an order with a PO number, its invoice as issued, kept as issued a month
 * on (`admin` moves the clock) when the billing profile changes, and corrected as a revision.
 */
async function buysWithVatNumber(page: Page, databaseUrl: string, admin: Page, javaScriptEnabled: boolean) {
  // A malformed number is refused at the field, and stays there to be fixed.
  const drawer = await openBillingProfile(page);
  await fillBerlinAddress(drawer, "Friedrichstraße 68");
  const vatField = drawer.getByLabel("VAT number");
  await vatField.fill("DE12345");
  await vatField.blur();
  if (!javaScriptEnabled) await drawer.getByRole("button", { name: "Save Billing Profile" }).click();
  await expect(drawer.getByText("Invalid VAT number.")).toBeVisible();
  await expect(vatField).toHaveValue("DE12345");
  await expect(drawer.getByLabel("Address line 1")).toHaveValue("Friedrichstraße 68");

  // A valid one: the register says valid, and the profile shows it.
  await vatField.fill(VALID_WITH_NAME);
  await saveBillingProfile(page, drawer);
  await expect(vatStatus(page)).toContainText(`VAT number ${VALID_WITH_NAME}: valid`);
  await expect(vatStatus(page)).toContainText("registered to Musterhaus GmbH");

  // The order, with a PO number: one too long is refused under the field with what was typed kept.
  await walkToOrder(page, "Bergmann Sicherheit", "3");
  await page.getByRole("link", { name: "Submit Order" }).click();
  const confirm = page.getByRole("dialog", { name: "Place your order." });
  const poField = confirm.getByLabel("PO number (optional)");
  const tooLong = `PO-${"9".repeat(98)}`;
  await poField.fill(tooLong);
  await confirm.getByRole("button", { name: "Purchase" }).click();
  await expect(confirm.getByText("A PO number has at most 100 characters.")).toBeVisible();
  await expect(poField).toHaveValue(tooLong);
  await poField.fill("PO-2027-0042");
  await confirm.getByRole("button", { name: "Purchase" }).click();
  await expect(page.getByText("Successfully created your GateKeeper Enterprise recurring license!")).toBeVisible({
    timeout: 20_000,
  });
  await page.goto("/licenses");
  await expect(page.getByRole("row", { name: /Bergmann Sicherheit/ })).toContainText("PO number: PO-2027-0042");

  // The invoice names both parties with their VAT numbers, the PO number and the reverse-charge note.
  const [number, ...others] = await invoicesOfLicense(databaseUrl, "Bergmann Sicherheit");
  expect(others).toEqual([]);
  await page.goto("/account/invoices");
  const row = page.getByRole("row", { name: new RegExp(`^${number} `) });
  const pdfLink = row.getByRole("link", { name: `Download invoice ${number} as a PDF` });
  const issued = await downloadedText(page, pdfLink);
  expect(issued).toContain("Bergmann Sicherheit GmbH");
  expect(issued).toContain(`VAT number: ${VALID_WITH_NAME}`);
  expect(issued).toContain(`VAT number: ${SELLER_VAT_NUMBER}`);
  expect(issued).toContain("PO number: PO-2027-0042");
  expect(issued).toContain(REVERSE_CHARGE_NOTE);
  expect(issued).toContain("Friedrichstraße 68");

  // A month on (the license renewed meanwhile), a new company name on the billing profile does not rewrite last
  // month's invoice.
  await moveClock(admin, 31);
  expect(await invoicesOfLicense(databaseUrl, "Bergmann Sicherheit")).toEqual([number, expect.any(String)]);
  const again = await openBillingProfile(page);
  await again.getByLabel("Company").fill("Bergmann Security Solutions GmbH");
  await saveBillingProfile(page, again);
  await page.goto("/account/invoices");
  const unchanged = await downloadedText(page, pdfLink);
  expect(unchanged).toContain("Bergmann Sicherheit GmbH");
  expect(unchanged).not.toContain("Bergmann Security Solutions GmbH");

  // Correcting its address issues revision 2; revision 1 stays downloadable as it was.
  await row.getByRole("link", { name: `Correct invoice ${number}` }).click();
  const correction = page.getByRole("dialog", { name: `Correct invoice ${number}` });
  await correction.getByLabel("Address line 1").fill("Unter den Linden 5");
  await correction.getByRole("button", { name: "Correct invoice" }).click();
  await expect(page.getByRole("status")).toContainText(`Invoice ${number} corrected: revision 2`);
  await expect(row).toContainText("Corrected: revision 2");
  const corrected = await downloadedText(page, pdfLink);
  expect(corrected).toMatch(/Revision 2, replaces the document of \d\d\/\d\d\/\d{4}/);
  expect(corrected).toContain("Unter den Linden 5");
  expect(corrected).toContain("Bergmann Sicherheit GmbH");
  await row.getByRole("link", { name: `Correct invoice ${number}` }).click();
  const first = await downloadedText(page, correction.getByRole("link", { name: /^Revision 1 of / }));
  expect(first).toContain("Friedrichstraße 68");
  expect(first).not.toContain("Revision 2");
}

test.describe("invoices a business can file", () => {
  test.use({ expectedHttpErrors: [400, 422] });

  // In a portal of its own: the time machine moves its clock a month on, which no other test may see.
  test("a checked VAT number on the invoice with the reverse-charge note, kept as issued a month on, corrected as a revision", async ({
    browser,
    javaScriptEnabled,
    databaseEngine,
    expectedHttpErrors,
  }) => {
    test.setTimeout(240_000);
    await ownPortal(
      { browser, javaScriptEnabled, databaseEngine, expectedHttpErrors },
      async ({ portal, admin, signedIn }) => {
        const page = await signInAsGermanCustomer(signedIn, portal.databaseUrl, "Bergmann Sicherheit GmbH");
        await buysWithVatNumber(page, portal.databaseUrl, admin, javaScriptEnabled);
      },
    );
  });

  test.describe("with the register unavailable", () => {
    test.use({ expectedServerErrors: [/"jobKind":"tax-id-recheck"/] });

    test("the number is saved as 'not yet checked', and the job's later check turns it 'valid'", async ({
      page,
      portal,
    }) => {
      await signInAsGermanCustomer(
        (email) => signInAs(page, email).then(() => page),
        portal.databaseUrl,
        "Vogel Logistik AG",
      );
      // The register fails the check on save and the job's first three tries; its fourth answers.
      await withDatabase(portal.databaseUrl, (db, t) =>
        armFault(db, t.taxIdFaults, {
          call: "check",
          mode: "fail",
          kind: "retryable",
          message: "The member state's register is not available (MS_UNAVAILABLE).",
          remaining: 4,
        }),
      );
      const drawer = await openBillingProfile(page);
      await fillBerlinAddress(drawer, "Alexanderplatz 1");
      await drawer.getByLabel("VAT number").fill(VALID_PLAIN);
      await saveBillingProfile(page, drawer);
      await expect(vatStatus(page)).toContainText(`VAT number ${VALID_PLAIN}: not yet checked`);
      await expect
        .poll(
          async () => {
            await page.reload();
            return vatStatus(page).innerText();
          },
          { timeout: 30_000 },
        )
        .toContain(`VAT number ${VALID_PLAIN}: valid`);
    });
  });
});
