import { randomUUID } from "node:crypto";
import { and, eq } from "drizzle-orm";
import { withDatabase } from "./database";
import { DEMO, expect, expectAccessible, servesPortal, signInAs, test } from "./fixtures";
import {
  addBillingAddressInWizard,
  addCardInWizard,
  clearPaymentDetails,
  next,
  subscriptionsOf,
} from "./purchase-steps";

/**
 * A distributor buys a license for an end customer, with JavaScript and without: it adds the customer, starts the
 * order from the customer's page, bookmarks the hosting step (its URL names the customer), opens the bookmark in a
 * fresh session and completes the order there: one charge to the distributor, and the license the customer's.
 */

const suffix = () => randomUUID().slice(0, 6).toUpperCase();

test.describe("buying for an end customer", () => {
  test.use({ expectedHttpErrors: [404] });

  test("from a bookmarked step in a fresh session: one charge, the license under the customer", async ({
    page,
    browser,
    portal,
    javaScriptEnabled,
  }) => {
    test.setTimeout(120_000);
    const name = `Lantern Opticians ${suffix()}`;
    await clearPaymentDetails(portal.databaseUrl, DEMO.distributor);
    await signInAs(page, DEMO.distributor);
    const before = await subscriptionsOf(portal.databaseUrl, DEMO.distributor);

    await page.goto("/customers/new");
    await page.getByRole("region", { name: "Customer record" }).getByLabel("Company name").fill(name);
    await page.getByRole("button", { name: "Add customer" }).click();
    await expect(page).toHaveURL(/\/customers\/[0-9a-f-]{36}$/);
    const customerId = new URL(page.url()).pathname.split("/").pop()!;

    await page.getByRole("link", { name: "Buy a license for this customer" }).click();
    await expect(page).toHaveURL(`/store/subscribe/plan?customer=${customerId}`);
    const choice = page.getByLabel("The customer the license is for");
    await expect(choice).toHaveValue(customerId);
    await expect(choice.getByRole("option", { name, exact: true })).toHaveCount(1);
    if (javaScriptEnabled) await expectAccessible(page);
    await page.getByLabel("Number of users").fill("4");
    await next(page, "Next: Hosting");
    await expect(page.getByRole("heading", { name: "Select Your Preferred GateKeeper Hub Deployment" })).toBeVisible();
    await expect(page).toHaveURL(`/store/subscribe/hosting?customer=${customerId}`);
    const bookmark = page.url();

    // The bookmark, opened in a session of its own: the customer's draft, where it was left.
    const fresh = await browser.newContext({ baseURL: portal.baseURL, javaScriptEnabled });
    servesPortal(fresh, portal.baseURL);
    try {
      const later = await fresh.newPage();
      await signInAs(later, DEMO.distributor);
      await later.goto(bookmark);
      await expect(
        later.getByRole("heading", { name: "Select Your Preferred GateKeeper Hub Deployment" }),
      ).toBeVisible();
      await later.getByRole("radio", { name: /GateKeeper On-Premise Hub \(Monthly\)/ }).check();
      await next(later, "Next: Hardware");
      await expect(later).toHaveURL(`/store/subscribe/hardware?customer=${customerId}`);
      await next(later, "Next: Support");
      await next(later, "Next: Review");
      // 4 × $4.50 reseller Advanced (the plan step's default) + the $23.20 reseller on-premise Hub.
      await expect(later.getByTestId("amount-due")).toHaveText("$41.20");
      await next(later, "Next: Billing");
      await addCardInWizard(later);
      await expect(later).toHaveURL(`/store/subscribe/billing?customer=${customerId}`);
      await addBillingAddressInWizard(later);
      await expect(later).toHaveURL(`/store/subscribe/billing?customer=${customerId}`);
      await next(later, "Next: Order");
      await expect(later).toHaveURL(`/store/subscribe/order?customer=${customerId}`);
      await expect(later.getByText(name).first()).toBeVisible();
      await later.getByRole("link", { name: "Submit Order" }).click();
      await later.getByRole("button", { name: "Purchase" }).click();
      await expect(later.getByText("Successfully created your GateKeeper Enterprise recurring license!")).toBeVisible({
        timeout: 20_000,
      });
      await later.getByRole("link", { name: "Go to the customer's page" }).click();
      await expect(later).toHaveURL(`/customers/${customerId}`);
      await expect(later.getByRole("table", { name: "Licenses" }).getByRole("row")).toHaveCount(2);
      await expect(later.getByRole("table", { name: "Licenses" })).toContainText("advanced");
    } finally {
      await fresh.close();
    }

    expect(await subscriptionsOf(portal.databaseUrl, DEMO.distributor)).toBe(before + 1);
    const bought = await withDatabase(portal.databaseUrl, (db, t) =>
      db
        .select({ name: t.licenses.name, nodes: t.licenses.nodes })
        .from(t.licenses)
        .where(and(eq(t.licenses.licenseeId, customerId), eq(t.licenses.type, "recurring"))),
    );
    expect(bought).toEqual([{ name, nodes: 4 }]);
    // The distributor's own licenses list it too.
    await page.goto("/licenses");
    await expect(page.getByRole("row", { name: new RegExp(name) })).toBeVisible();

    // Another organization's id is no customer of this distributor.
    const northwind = await withDatabase(portal.databaseUrl, async (db, t) => {
      const [row] = await db
        .select({ id: t.organizations.id })
        .from(t.organizations)
        .where(eq(t.organizations.name, "Northwind Clinics"));
      return row.id;
    });
    const refused = await page.goto(`/store/subscribe/hosting?customer=${northwind}`);
    expect(refused?.status()).toBe(404);
  });
});
