import { randomUUID } from "node:crypto";
import type { Browser, Page } from "@playwright/test";
import { and, eq } from "drizzle-orm";
import { demoPasswordHash, insertAccount, organizationIdOf, quoteRow, withDatabase } from "./database";
import { csrfOf, DEMO, expect, expectAccessible, servesPortal, signInAs, test } from "./fixtures";
import { linkFromOutbox } from "./invitations";
import { moveClock, ownPortal } from "./own-portal";
import { next, subscriptionsOf } from "./purchase-steps";

/**
 * A distributor quotes an end customer and sends the quote; the customer opens the mailed link in a browser of
 * their own, with no account, and accepts it with a PO number; the distributor's quote page then says so, and the
 * order is placed at the quoted price. Where the distributor lets it, the end customer's Technical contact accepts
 * in the portal instead; a quote whose prices changed since refuses the order and offers the copy. A withdrawn or
 * expired quote (the time machine) accepts nothing, and a Viewer neither makes nor orders one.
 */

const suffix = () => randomUUID().slice(0, 6).toUpperCase();

/** Adds a person with `role` in the organization, signed in with the demo password: what an invitation makes. */
async function addMember(databaseUrl: string, organizationId: string, role: "technical_contact" | "viewer") {
  const id = randomUUID();
  const email = `${role.replace("_", "-")}-${id.slice(0, 8)}@example.com`;
  await withDatabase(databaseUrl, async (db, t) => {
    await db.insert(t.users).values({
      id,
      email,
      passwordHash: await demoPasswordHash(db),
      firstName: "Robin",
      lastName: role === "viewer" ? "Viewer" : "Contact",
      emailVerifiedAt: new Date(),
    });
    await db.insert(t.memberships).values({ organizationId, userId: id, role });
  });
  return email;
}

/** The quote's number, from its page's heading. */
const numberOn = async (page: Page) =>
  (await page.getByRole("heading", { level: 2, name: /^Quote Q-/ }).textContent())!.replace("Quote ", "");

/**
 * 'Make a quote' on the quotes page, to the Review step, for the customer's own organization: its plan step asks no
 * organization name (the quote is for the organization). The organization's name, as the step says it.
 */
async function ownQuoteToReview(page: Page) {
  await page.goto("/quotes");
  await page.getByRole("link", { name: "Make a quote" }).click();
  await expect(page.getByRole("heading", { name: "Choose your plan" })).toBeVisible();
  await expect(page.getByLabel("Organization name the license is for")).toHaveCount(0);
  const quoteFor = page.getByText(/^The quote is for /);
  const organization = (await quoteFor.locator("strong").textContent())!;
  await page.getByLabel("Number of users").fill("3");
  await next(page, "Next: Hosting");
  await next(page, "Next: Hardware");
  await next(page, "Next: Support");
  await next(page, "Next: Review");
  return organization;
}

/**
 * The customer's own quote saved from the Review step (valid `validDays` when given), sent to a new address, and its
 * link opened in a browser of its own (no account) with the accepter's name typed; `read` gets that page, and the
 * browser is closed after.
 */
async function withSentQuoteOpen(
  {
    page,
    browser,
    baseURL,
    javaScriptEnabled,
  }: { page: Page; browser: Browser; baseURL: string; javaScriptEnabled: boolean },
  { to, validDays }: { to: string; validDays?: number },
  read: (reader: Page, link: string) => Promise<void>,
) {
  const organization = await ownQuoteToReview(page);
  if (validDays) await page.getByLabel("Quote valid for (days)").fill(String(validDays));
  await page.getByRole("button", { name: "Save as quote" }).click();
  await expect(page).toHaveURL(/\/quotes\/[0-9a-f-]{36}$/);
  await expect(page.getByText(`For ${organization}, made by`)).toBeVisible();
  const { link } = await sendQuote(page, baseURL, to);
  const readerContext = await browser.newContext({ baseURL, javaScriptEnabled });
  try {
    const reader = await readerContext.newPage();
    await reader.goto(link);
    await reader.getByLabel("Your name").fill("Grace Harbor");
    await read(reader, link);
  } finally {
    await readerContext.close();
  }
}

/** Sends the quote on its page to `to`, and reads the link mailed there from the outbox. */
async function sendQuote(page: Page, baseURL: string, to: string) {
  const number = await numberOn(page);
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
    if (javaScriptEnabled) await expectAccessible(page);
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
      if (javaScriptEnabled) await expectAccessible(reader);
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
    // The stepper goes back to Billing only: the steps that chose the order are the quote's, done and not links.
    const steps = page.getByRole("navigation", { name: "Order steps" });
    await expect(steps.getByRole("link")).toHaveText(["Billing"]);
    await expect(steps.getByText("Plan", { exact: true })).toBeVisible();
    await expect(page.getByTestId("amount-due")).toHaveText("$41.20");
    // The quote's coupon and PO number are the order's: no coupon box, and the PO read-only.
    await expect(page.getByLabel("I have a coupon:")).toHaveCount(0);
    await page.getByRole("link", { name: "Submit Order" }).click();
    const poNumber = page.getByLabel("PO number", { exact: true });
    await expect(poNumber).toHaveValue("PO-7781");
    await expect(poNumber).not.toBeEditable();
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

  test("a withdrawn quote accepts nothing, not even from its link's page opened before, whose link then opens nothing", async ({
    page,
    browser,
    portal,
    javaScriptEnabled,
  }) => {
    test.setTimeout(90_000);
    // A customer's Owner quotes its own organization.
    await signInAs(page, DEMO.customer);
    await withSentQuoteOpen(
      { page, browser, baseURL: portal.baseURL, javaScriptEnabled },
      { to: `withdrawn-${suffix().toLowerCase()}@example.com` },
      async (reader, link) => {
        await page.getByRole("button", { name: "Withdraw" }).click();
        await expect(page.getByText("Status: Withdrawn.", { exact: false })).toBeVisible();

        // The post accepts nothing, and the page, read again, is the link that opens nothing.
        await reader.getByRole("button", { name: "Accept this quote" }).click();
        await expect(reader.getByText(/This quote link cannot be used/)).toBeVisible();
        await expect(reader.getByRole("button", { name: "Accept this quote" })).toHaveCount(0);
        const response = await reader.goto(link);
        expect(response?.status()).toBe(404);
        await expect(reader.getByText("This quote cannot be opened")).toBeVisible();
        await expect(reader.getByRole("button", { name: "Accept this quote" })).toHaveCount(0);
      },
    );
    await expect(page.getByRole("table", { name: "History" }).getByRole("row", { name: /Accepted/ })).toHaveCount(0);
  });

  test("an end customer's Technical contact accepts in the portal where allowed; changed prices refuse the order and offer the copy", async ({
    page,
    browser,
    portal,
    javaScriptEnabled,
  }) => {
    test.setTimeout(120_000);
    const name = `Beacon Orthodontics ${suffix()}`;
    await signInAs(page, DEMO.distributor);
    await page.goto("/customers/new");
    const record = page.getByRole("region", { name: "Customer record" });
    await record.getByLabel("Company name").fill(name);
    await record.getByLabel("Email").fill(`it-${suffix().toLowerCase()}@beacon.example`);
    await page.getByRole("button", { name: "Add customer" }).click();
    await expect(page).toHaveURL(/\/customers\/[0-9a-f-]{36}$/);
    const customerId = page.url().split("/").at(-1)!;
    const contact = await addMember(portal.databaseUrl, customerId, "technical_contact");

    await page.getByRole("link", { name: "Buy a license for this customer" }).click();
    await page.getByLabel("Number of users").fill("4");
    await next(page, "Next: Hosting");
    await page.getByRole("radio", { name: /GateKeeper On-Premise Hub \(Monthly\)/ }).check();
    await next(page, "Next: Hardware");
    await next(page, "Next: Support");
    await next(page, "Next: Review");
    await page.getByLabel(`Let the Technical contacts of ${name} accept it in the portal`).check();
    await page.getByRole("button", { name: "Save as quote" }).click();
    await expect(page).toHaveURL(/\/quotes\/[0-9a-f-]{36}$/);
    const quoteUrl = new URL(page.url()).pathname;
    const number = await numberOn(page);
    await expect(page.getByTestId("customer-acceptance")).toHaveText(
      `The Technical contacts of ${name} may accept this quote in the portal.`,
    );
    await expect(page.getByRole("form", { name: "Accept this quote" })).toHaveCount(0);

    // The end customer's Technical contact, signed in to the portal, finds it under Quotes and accepts it there.
    const contactContext = await browser.newContext({ baseURL: portal.baseURL, javaScriptEnabled });
    servesPortal(contactContext, portal.baseURL);
    try {
      const reader = await contactContext.newPage();
      await signInAs(reader, contact);
      await reader.goto("/quotes");
      await reader.getByRole("link", { name: number }).click();
      await expect(reader).toHaveURL(new RegExp(`${quoteUrl}$`));
      const accept = reader.getByRole("form", { name: "Accept this quote" });
      await expect(accept.getByLabel("Your name")).toHaveValue("Robin Contact");
      await accept.getByLabel("PO number (optional)").fill("PO-5120");
      await accept.getByRole("button", { name: "Accept this quote" }).click();
      await expect(reader.getByText("Status: Accepted.", { exact: false })).toBeVisible();
      await expect(reader.getByTestId("acceptance")).toContainText("Accepted by “Robin Contact”");
      await expect(reader.getByRole("form", { name: "Accept this quote" })).toHaveCount(0);
      await expect(reader.getByRole("link", { name: "Place order" })).toHaveCount(0);
      if (javaScriptEnabled) await expectAccessible(reader);
    } finally {
      await contactContext.close();
    }

    await page.goto(quoteUrl);
    await expect(page.getByText("Status: Accepted.", { exact: false })).toBeVisible();
    const history = page.getByRole("table", { name: "History" });
    await expect(history.getByRole("row", { name: /Accepted: PO number “PO-5120”/ })).toHaveCount(1);

    // The price list moved since it was quoted: the quote's total is no longer today's.
    await withDatabase(portal.databaseUrl, async (db, t) => {
      const [quote] = await db.select().from(t.quotes).where(eq(t.quotes.number, number));
      await db
        .update(t.quotes)
        .set({
          estimate: { ...quote.estimate, total: quote.estimate.total - 500, amountDue: quote.estimate.amountDue - 500 },
        })
        .where(eq(t.quotes.id, quote.id));
    });
    const before = await subscriptionsOf(portal.databaseUrl, DEMO.distributor);
    await page.getByRole("link", { name: "Place order" }).click();
    await next(page, "Next: Order");
    await expect(page.getByText(/This quote's prices changed since it was made, so nothing was charged/)).toBeVisible();
    await expect(page.getByText(/the total due today was \$36\.20 and is now \$41\.20/)).toBeVisible();
    expect(await subscriptionsOf(portal.databaseUrl, DEMO.distributor)).toBe(before);
    await page.getByRole("button", { name: "Copy into a new quote" }).click();
    await expect(page).toHaveURL(/\/quotes\/[0-9a-f-]{36}$/);
    expect(new URL(page.url()).pathname).not.toBe(quoteUrl);
    expect(await numberOn(page)).not.toBe(number);
    await expect(page.getByText("Status: Open.", { exact: false })).toBeVisible();
    await expect(page.getByTestId("amount-due")).toHaveText("$41.20");
    // The copy keeps the distributor's choice.
    await expect(page.getByTestId("customer-acceptance")).toContainText("may accept this quote in the portal");
  });

  test("a Viewer neither makes nor orders a quote: no button, and a direct post is refused", async ({
    page,
    portal,
  }) => {
    test.setTimeout(90_000);
    const { organizationId, quoteId } = await withDatabase(portal.databaseUrl, async (db, t) => {
      const organizationId = await organizationIdOf(db, DEMO.customer);
      const id = randomUUID();
      await db.insert(t.quotes).values({
        id,
        number: `Q-VIEWER-${id.slice(0, 8)}`,
        ownerId: organizationId,
        organizationName: "Northwind Traders",
        madeByName: "Olivia Owner",
        status: "accepted",
        acceptedByName: "Grace Harbor",
        acceptedAt: new Date(),
        order: { tier: "core", users: 3, hosting: "cloud" },
        estimate: {
          lineItems: [{ description: "Core Plan", quantity: 3, unitAmount: 400, amount: 1_200 }],
          discounts: [],
          subTotal: 1_200,
          total: 1_200,
          creditsApplied: 0,
          amountDue: 1_200,
          nextBilling: null,
        },
        priceListVersion: "viewer-test",
        validUntil: new Date(Date.now() + 30 * 24 * 60 * 60 * 1000),
        quotedAt: new Date(),
      });
      return { organizationId, quoteId: id };
    });
    const viewer = await addMember(portal.databaseUrl, organizationId, "viewer");
    await signInAs(page, viewer);
    await page.goto("/quotes");
    await expect(page.getByRole("link", { name: `Q-VIEWER-${quoteId.slice(0, 8)}` })).toBeVisible();
    await expect(page.getByRole("link", { name: "Make a quote" })).toHaveCount(0);
    await page.goto(`/quotes/${quoteId}`);
    await expect(page.getByText("Status: Accepted.", { exact: false })).toBeVisible();
    for (const label of ["Place order", "Copy into a new quote", "Withdraw", "Send"]) {
      await expect(page.getByRole("button", { name: label, exact: true })).toHaveCount(0);
      await expect(page.getByRole("link", { name: label, exact: true })).toHaveCount(0);
    }

    // What the buttons would post, posted straight: each refused with the policy's reason, nothing made or ordered.
    const csrf = await csrfOf(page.request, "/account");
    const refusedPosts = [
      ["/store/subscribe/review", { intent: "quote", validDays: "30" }],
      [`/quotes/${quoteId}`, { intent: "copy" }],
      [`/store/subscribe/order?customer=quote-${quoteId}`, { intent: "purchase" }],
    ] as const;
    for (const [path, form] of refusedPosts) {
      const response = await page.request.post(path, { form: { ...form, csrf } });
      expect(response.status(), path).toBe(403);
      expect(await response.text(), path).toContain("which cannot");
    }
    expect((await page.request.get(`/store/subscribe/billing?customer=quote-${quoteId}`)).status()).toBe(403);
    await withDatabase(portal.databaseUrl, async (db, t) => {
      const [quote] = await db.select().from(t.quotes).where(eq(t.quotes.id, quoteId));
      expect(quote.status).toBe("accepted");
      const made = await db
        .select({ id: t.quotes.id })
        .from(t.quotes)
        .where(and(eq(t.quotes.ownerId, organizationId), eq(t.quotes.madeByName, "Robin Viewer")));
      expect(made).toEqual([]);
    });
  });
});

test("an expired quote accepts nothing: the time machine moves past its validity while its link's page is open", async ({
  browser,
  javaScriptEnabled,
  databaseEngine,
}) => {
  test.setTimeout(180_000);
  await ownPortal({ browser, javaScriptEnabled, databaseEngine }, async ({ portal, customer, admin }) => {
    // The customer, with no account, opens the link while the quote is valid, then types a name.
    await withSentQuoteOpen(
      { page: customer, browser, baseURL: portal.baseURL, javaScriptEnabled },
      { to: `expiring-${suffix().toLowerCase()}@example.com`, validDays: 1 },
      async (reader, link) => {
        await moveClock(admin, 2);
        await reader.getByRole("button", { name: "Accept this quote" }).click();
        await expect(reader.getByText("The quote was not accepted")).toBeVisible();
        await expect(reader.getByText(/This quote expired on .* and can no longer be accepted\./)).toBeVisible();
        await reader.goto(link);
        await expect(reader.getByText("This quote cannot be accepted")).toBeVisible();
        await expect(reader.getByRole("form", { name: "Accept this quote" })).toHaveCount(0);
      },
    );
    await customer.reload();
    await expect(customer.getByText("Status: Expired.", { exact: false })).toBeVisible();
    await expect(customer.getByRole("table", { name: "History" }).getByRole("row", { name: /Accepted/ })).toHaveCount(
      0,
    );
  });
});

/**
 * A new customer's Owner with `count` quotes of the organization's own, made an hour apart (the last the newest),
 * every fifth withdrawn and the others open: their numbers, oldest first.
 */
async function ownerWithQuotes(databaseUrl: string, count: number) {
  const id = randomUUID();
  const email = `many-quotes-${id.slice(0, 8)}@example.com`;
  const batch = suffix();
  const numbers = Array.from({ length: count }, (_, n) => `Q-${batch}-${String(n + 1).padStart(2, "0")}`);
  await withDatabase(databaseUrl, async (db, t) => {
    await insertAccount(db, { id, email, firstName: "Morgan", lastName: "Many", company: `Many Quotes ${batch}` });
    const now = Date.now();
    await db.insert(t.quotes).values(
      numbers.map((number, n) =>
        quoteRow({
          number,
          ownerId: id,
          organizationName: `Many Quotes ${batch}`,
          madeByUserId: id,
          madeByName: "Morgan Many",
          status: n % 5 === 0 ? "withdrawn" : "open",
          quotedAt: new Date(now - (count - n) * 60 * 60_000),
        }),
      ),
    );
  });
  return { email, numbers };
}

test.describe("a long list of quotes", () => {
  test("is read 20 at a time, newest first, with Next and Previous links, and filtered across its pages", async ({
    page,
    portal,
  }) => {
    const { email, numbers } = await ownerWithQuotes(portal.databaseUrl, 25);
    await signInAs(page, email);
    await page.goto("/quotes");
    const rows = page.getByRole("table", { name: "Quotes" }).getByRole("row");
    const pages = page.getByRole("navigation", { name: "Quotes pages" });
    const firstColumn = () => rows.locator("td:first-child").allTextContents();
    const newestFirst = [...numbers].reverse();

    await expect(rows).toHaveCount(21);
    expect(await firstColumn()).toEqual(newestFirst.slice(0, 20));
    await expect(pages.getByRole("link", { name: "Previous" })).toHaveCount(0);
    await pages.getByRole("link", { name: "Next" }).click();
    await expect(rows).toHaveCount(6);
    expect(await firstColumn()).toEqual(newestFirst.slice(20));
    await expect(pages.getByRole("link", { name: "Next" })).toHaveCount(0);
    // The page is a bookmark: its address names where it starts, not a page number.
    const secondPage = page.url();
    await page.goto(secondPage);
    await expect(rows).toHaveCount(6);
    await pages.getByRole("link", { name: "Previous" }).click();
    await expect(rows).toHaveCount(21);
    expect(await firstColumn()).toEqual(newestFirst.slice(0, 20));

    const filter = page.getByRole("search", { name: "Filter quotes" });
    await filter.getByLabel("Status").selectOption({ label: "Withdrawn" });
    await filter.getByRole("button", { name: "Filter" }).click();
    await expect(page).toHaveURL(/[?&]status=withdrawn/);
    await expect(rows).toHaveCount(6);
    expect(await firstColumn()).toEqual(newestFirst.filter((number) => numbers.indexOf(number) % 5 === 0));
    await expect(pages).toHaveCount(0);
  });
});
