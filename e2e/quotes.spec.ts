import { randomUUID } from "node:crypto";
import type { Page } from "@playwright/test";
import { DEMO, expect, expectAccessible, signInAs, test } from "./fixtures";
import { linkFromOutbox } from "./invitations";
import { next, planStep, subscriptionsOf } from "./purchase-steps";

/**
 * A distributor quotes an end customer and sends the quote; the customer opens the mailed link in a browser of
 * their own, with no account, and accepts it with a PO number; the distributor's quote page then says so. A
 * withdrawn quote's link opens nothing.
 */

const suffix = () => randomUUID().slice(0, 6).toUpperCase();

/** Sends the quote on its page to `to`, and reads the link mailed there from the outbox. */
async function sendQuote(page: Page, baseURL: string, to: string) {
  const number = (await page.getByRole("heading", { level: 2, name: /^Quote Q-/ }).textContent())!.replace(
    "Quote ",
    "",
  );
  const form = page.getByRole("form", { name: "Send the quote" });
  await form.getByLabel("Send to").fill(to);
  await form.getByRole("button", { name: "Send" }).click();
  await expect(page.getByText(`We sent the quote to ${to}.`)).toBeVisible();
  const link = await linkFromOutbox(page.context().browser()!, baseURL, to, `Quote ${number} from`, "/quote");
  return { number, link };
}

test.describe("quotes sent and accepted", () => {
  test.use({ expectedHttpErrors: [404, 422] });

  test("a distributor quotes an end customer, who accepts through the mailed link with a PO number", async ({
    page,
    browser,
    portal,
    javaScriptEnabled,
  }) => {
    test.setTimeout(120_000);
    const name = `Lighthouse Dental ${suffix()}`;
    const contact = `it-${suffix().toLowerCase()}@lighthouse.example`;
    const purchasing = `purchasing-${suffix().toLowerCase()}@lighthouse.example`;
    await signInAs(page, DEMO.distributor);

    await page.goto("/customers/new");
    const record = page.getByRole("region", { name: "Customer record" });
    await record.getByLabel("Company name").fill(name);
    await record.getByLabel("Email").fill(contact);
    await page.getByRole("button", { name: "Add customer" }).click();
    await expect(page).toHaveURL(/\/customers\/[0-9a-f-]{36}$/);

    await page.getByRole("link", { name: "Buy a license for this customer" }).click();
    await page.getByLabel("Number of users").fill("4");
    await next(page, "Next: Hosting");
    await page.getByRole("radio", { name: /GateKeeper On-Premise Hub \(Monthly\)/ }).check();
    await next(page, "Next: Hardware");
    await next(page, "Next: Support");
    await next(page, "Next: Review");
    // 4 × $4.50 reseller Advanced + the $23.20 reseller on-premise Hub.
    await expect(page.getByTestId("amount-due")).toHaveText("$41.20");
    await page.getByRole("button", { name: "Save as quote" }).click();
    await expect(page).toHaveURL(/\/quotes\/[0-9a-f-]{36}$/);
    const quoteUrl = page.url();

    // The end customer's technical contact is offered; the distributor types another address.
    await expect(page.getByLabel("Send to")).toHaveValue(contact);
    await expectAccessible(page, javaScriptEnabled);
    await page.getByLabel("Send to").fill("not an address");
    await page.getByRole("button", { name: "Send", exact: true }).click();
    await expect(page.getByText("Invalid Email")).toBeVisible();
    await expect(page.getByLabel("Send to")).toHaveValue("not an address");
    const { number, link } = await sendQuote(page, portal.baseURL, purchasing);

    // The customer, in a browser of their own and without an account.
    const customerContext = await browser.newContext({ baseURL: portal.baseURL, javaScriptEnabled });
    try {
      const reader = await customerContext.newPage();
      await reader.goto(link);
      await expect(reader.getByRole("heading", { name: `Quote ${number}` })).toBeVisible();
      await expect(reader.getByTestId("amount-due")).toHaveText("$41.20");
      await expectAccessible(reader, javaScriptEnabled);
      const pdf = await customerContext.request.get(
        (await reader.getByRole("link", { name: "Download PDF" }).getAttribute("href"))!,
      );
      expect(pdf.headers()["content-type"]).toBe("application/pdf");

      const accept = reader.getByRole("form", { name: "Accept this quote" });
      await accept.getByLabel("PO number (optional)").fill("PO-7781");
      await accept.getByRole("button", { name: "Accept this quote" }).click();
      // The name is required; the PO number typed stays.
      await expect(reader.getByText("Cannot be empty.")).toBeVisible();
      await expect(reader.getByLabel("PO number (optional)")).toHaveValue("PO-7781");
      await reader.getByLabel("Your name").fill("Grace Harbor");
      await reader.getByRole("button", { name: "Accept this quote" }).click();
      await expect(reader.getByText(`You accepted quote ${number}.`)).toBeVisible();
      await expect(reader.getByRole("form", { name: "Accept this quote" })).toHaveCount(0);

      await reader.goto(link);
      await expect(reader.getByText(/This quote has already been accepted by “Grace Harbor”/)).toBeVisible();
    } finally {
      await customerContext.close();
    }

    await page.goto(quoteUrl);
    await expect(page.getByText("Status: Accepted.", { exact: false })).toBeVisible();
    await expect(page.getByTestId("acceptance")).toContainText("Accepted by “Grace Harbor”");
    await expect(page.getByTestId("acceptance")).toContainText("PO number “PO-7781”");
    const history = page.getByRole("table", { name: "History" });
    await expect(history.getByRole("row", { name: /Sent: / })).toHaveCount(1);
    await expect(history.getByRole("row", { name: /Opened/ })).toHaveCount(1);
    await expect(history.getByRole("row", { name: /Accepted: PO number “PO-7781”/ })).toHaveCount(1);

    // The distributor orders it: the wizard's Billing and Order steps, the quote's lines locked, Purchase twice.
    const before = await subscriptionsOf(portal.databaseUrl, DEMO.distributor);
    await page.getByRole("link", { name: "Place order" }).click();
    await expect(page).toHaveURL(/\/store\/subscribe\/billing\?customer=quote-/);
    // The demo distributor's card and billing address are on file.
    await next(page, "Next: Order");
    await expect(page.getByText(`You are ordering quote ${number}`)).toBeVisible();
    await expect(page.getByTestId("amount-due")).toHaveText("$41.20");
    await page.getByRole("link", { name: "Submit Order" }).click();
    const purchase = page.getByRole("button", { name: "Purchase" });
    await purchase.click({ clickCount: 2 }).catch(() => undefined);
    await expect(page.getByText(/Successfully created your GateKeeper .* recurring license!/)).toBeVisible({
      timeout: 20_000,
    });
    expect(await subscriptionsOf(portal.databaseUrl, DEMO.distributor)).toBe(before + 1);
    await page.goto("/licenses");
    const row = page.getByRole("row", { name: new RegExp(name) });
    await expect(row).toContainText(`Quote ${number}`);
    await expect(row).toContainText("PO number: PO-7781");
    await page.goto(quoteUrl);
    await expect(page.getByText("Status: Ordered.", { exact: false })).toBeVisible();
    await expect(page.getByRole("link", { name: "Place order" })).toHaveCount(0);
  });

  test("a withdrawn quote's link opens nothing", async ({ page, browser, portal, javaScriptEnabled }) => {
    test.setTimeout(90_000);
    // A customer's Owner quotes its own organization.
    await signInAs(page, DEMO.customer);
    await page.goto("/store/subscribe/plan");
    await planStep(page, "Northwind Traders", "3");
    await next(page, "Next: Hardware");
    await next(page, "Next: Support");
    await next(page, "Next: Review");
    await page.getByRole("button", { name: "Save as quote" }).click();
    await expect(page).toHaveURL(/\/quotes\/[0-9a-f-]{36}$/);
    const { link } = await sendQuote(page, portal.baseURL, `withdrawn-${suffix().toLowerCase()}@example.com`);
    await page.getByRole("button", { name: "Withdraw" }).click();
    await expect(page.getByText("Status: Withdrawn.", { exact: false })).toBeVisible();

    const customerContext = await browser.newContext({ baseURL: portal.baseURL, javaScriptEnabled });
    try {
      const reader = await customerContext.newPage();
      const response = await reader.goto(link);
      expect(response?.status()).toBe(404);
      await expect(reader.getByText("This quote cannot be opened")).toBeVisible();
      await expect(reader.getByRole("button", { name: "Accept this quote" })).toHaveCount(0);
    } finally {
      await customerContext.close();
    }
  });
});
