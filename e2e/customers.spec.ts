import { readFileSync } from "node:fs";
import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import { NAME_NO_WEB_ADDRESS } from "~/domain/names";
import { addRenewal, organizationIdOf, withDatabase } from "./database";
import { DEMO, expect, expectAccessible, signInAs, test } from "./fixtures";

/**
 * A distributor's end customers (/customers), with JavaScript and without: the list searched and paged through
 * plain links, a customer added through its form (refused first, nothing typed lost), its page with the licenses
 * bought for it, its cloud Hub and its renewals, its record changed; and a customer's Owner kept out of it all.
 * Tests of a worker share its portal: each adds customers of its own, by names no other test uses.
 */

const suffix = () => randomUUID().slice(0, 6).toUpperCase();

test.describe("a distributor's customers", () => {
  test("are listed by name, searched and paged in the URL", async ({ page, portal, javaScriptEnabled }) => {
    const prefix = `Paging ${suffix()}`;
    await withDatabase(portal.databaseUrl, async (db, t) => {
      const distributorId = await organizationIdOf(db, DEMO.distributor);
      await db.insert(t.organizations).values(
        Array.from({ length: 21 }, (_, n) => ({
          id: randomUUID(),
          name: `${prefix} ${String(n).padStart(2, "0")}`,
          managedBy: distributorId,
        })),
      );
    });
    await signInAs(page, DEMO.distributor);
    await page
      .getByRole("navigation", { name: "Portal" })
      .getByRole("link", { name: "Customers", exact: true })
      .click();
    await expect(page).toHaveURL(/\/customers$/);
    const table = page.getByRole("table", { name: "Customers" });
    const meridian = table.getByRole("row").filter({ hasText: "Meridian Law LLP" });
    await expect(meridian).toContainText("United Kingdom");
    await expect(meridian).toContainText("Tom Ellis");
    // Its monthly renewal, within 30 days, with what it will cost.
    await expect(meridian).toContainText("$");
    if (javaScriptEnabled) await expectAccessible(page);

    const search = page.getByRole("search", { name: "Search customers" });
    await search.getByLabel(/Search by name/).fill("HARBOR");
    await search.getByRole("button", { name: "Search" }).click();
    await expect(page).toHaveURL(/\/customers\?q=HARBOR$/);
    await expect(table.getByRole("row")).toHaveCount(2);
    await expect(table.getByRole("row").nth(1)).toContainText("Harbor Dental Group");
    await search.getByRole("link", { name: "Show all" }).click();
    await expect(page).toHaveURL(/\/customers$/);

    await search.getByLabel(/Search by name/).fill(prefix);
    await search.getByRole("button", { name: "Search" }).click();
    await expect(table.getByRole("row")).toHaveCount(21);
    await expect(table.getByRole("row").nth(1)).toContainText(`${prefix} 00`);
    await expect(page.getByText("1-20 of 21 items")).toBeVisible();
    await page.getByRole("navigation", { name: "Customers pages" }).getByRole("link", { name: "Next" }).click();
    await expect(page).toHaveURL(/[?&]page=2/);
    await expect(table.getByRole("row")).toHaveCount(2);
    await expect(table.getByRole("row").nth(1)).toContainText(`${prefix} 20`);
    await expect(page.getByRole("search").getByLabel(/Search by name/)).toHaveValue(prefix);
  });

  test.describe("record", () => {
    test.use({ expectedHttpErrors: [422] });

    test("is added through its form, refused first with what was typed kept, then changed", async ({
      page,
      javaScriptEnabled,
    }) => {
      const name = `Cedar Veterinary ${suffix()}`;
      await signInAs(page, DEMO.distributor);
      await page.goto("/customers");
      await page.getByRole("link", { name: "Add a customer" }).click();
      await expect(page).toHaveURL(/\/customers\/new$/);
      const form = page.getByRole("region", { name: "Customer record" });
      if (javaScriptEnabled) await expectAccessible(page);
      await form.getByLabel("Company name").fill(`${name}, see https://cedar.example`);
      await form.getByLabel("Address line 1").fill("Hauptstrasse 1");
      await form.getByLabel("City").fill("Berlin");
      await form.getByLabel("Postal code").fill("10115");
      await form.getByLabel("Country").selectOption("DE");
      await form.getByLabel("Name", { exact: true }).fill("Mia Wolf");
      await form.getByLabel("Email").fill("mia-at-cedar");
      await form.getByRole("button", { name: "Add customer" }).click();

      await expect(form.getByText(NAME_NO_WEB_ADDRESS)).toBeVisible();
      await expect(form.getByText("Invalid Email")).toBeVisible();
      // Fields showing their errors.
      if (javaScriptEnabled) await expectAccessible(page);
      await expect(form.getByLabel("Company name")).toHaveValue(`${name}, see https://cedar.example`);
      await expect(form.getByLabel("City")).toHaveValue("Berlin");
      await expect(form.getByLabel("Country")).toHaveValue("DE");
      await expect(form.getByLabel("Name", { exact: true })).toHaveValue("Mia Wolf");

      await form.getByLabel("Company name").fill(name);
      await form.getByLabel("Email").fill("mia@cedar.example");
      await form.getByRole("button", { name: "Add customer" }).click();
      await expect(page.getByRole("status")).toContainText(`${name} was added to your customers.`);
      await expect(page).toHaveURL(/\/customers\/[0-9a-f-]{36}$/);
      await expect(page.getByRole("heading", { level: 2, name })).toBeVisible();
      await expect(page.getByText("Hauptstrasse 1, Berlin, 10115, Germany")).toBeVisible();
      await expect(page.getByText("Technical contact: Mia Wolf, mia@cedar.example")).toBeVisible();
      await expect(page.getByText(`No license has been bought for ${name} yet.`)).toBeVisible();

      await page.getByRole("link", { name: "Change the record" }).click();
      await expect(page).toHaveURL(/\/customers\/[0-9a-f-]{36}\/edit$/);
      await expect(form.getByLabel("Company name")).toHaveValue(name);
      await expect(form.getByLabel("Postal code")).toHaveValue("10115");
      await form.getByLabel("Name", { exact: true }).fill("Jonas Becker");
      await form.getByRole("button", { name: "Save" }).click();
      await expect(page.getByRole("status")).toContainText(`The record of ${name} was saved.`);
      await expect(page.getByText("Technical contact: Jonas Becker, mia@cedar.example")).toBeVisible();

      await page.getByRole("link", { name: "All customers" }).click();
      await expect(page.getByRole("table", { name: "Customers" }).getByRole("link", { name })).toBeVisible();
    });
  });

  test("each has a page with the licenses bought for it, its cloud Hub and its renewals", async ({
    page,
    javaScriptEnabled,
  }) => {
    await signInAs(page, DEMO.distributor);
    await page.goto("/customers?q=Harbor+Dental");
    await page.getByRole("table", { name: "Customers" }).getByRole("link", { name: "Harbor Dental Group" }).click();
    await expect(page.getByRole("heading", { level: 2, name: "Harbor Dental Group" })).toBeVisible();
    await expect(page.getByText("Technical contact: Priya Shah, it@harbordental.example.com")).toBeVisible();
    const license = page
      .getByRole("table", { name: "Licenses" })
      .getByRole("row")
      .filter({ hasText: "GK-SLR-2026-0101" });
    await expect(license).toContainText("advanced");
    await expect(license).toContainText("20");
    await expect(license.getByRole("link", { name: "Download license GK-SLR-2026-0101" })).toBeVisible();
    await expect(page.getByRole("table", { name: "Hub deployments" })).toContainText("harbor-dental");
    const renewal = page.getByRole("table", { name: "Upcoming renewals" }).getByRole("row").nth(1);
    await expect(renewal).toContainText("GK-SLR-2026-0101");
    await expect(renewal).toContainText("Renews");
    await expect(renewal).toContainText("$");
    await expect(page.getByRole("table", { name: "Orders and invoices" })).toContainText("New license");
    if (javaScriptEnabled) await expectAccessible(page);
  });

  test("renewing in the next 30, 60 or 90 days are in one view, and in a CSV file", async ({
    page,
    javaScriptEnabled,
  }) => {
    await signInAs(page, DEMO.distributor);
    await page.goto("/customers");
    await page.getByRole("link", { name: "Every renewal ahead" }).click();
    await expect(page).toHaveURL(/\/customers\/renewals$/);
    // The distributor's primary card: other tests on this portal may have added one.
    await expect(page.getByText(/Renewals are charged to your \w[\w ]* ending in \d{4}\./)).toBeVisible();
    const meridian = page
      .getByRole("table", { name: "Renewals" })
      .getByRole("row")
      .filter({ hasText: "GK-SLR-2026-0102" });
    await expect(meridian).toContainText("Meridian Law LLP");
    await expect(meridian).toContainText("Core (Monthly Billing) for resellers");
    await expect(meridian).toContainText("$47.20");
    await expect(meridian.getByRole("link", { name: "Add Users to license GK-SLR-2026-0102" })).toBeVisible();
    if (javaScriptEnabled) await expectAccessible(page);

    await page.getByRole("navigation", { name: "Renewals ahead" }).getByRole("link", { name: "Next 90 days" }).click();
    await expect(page).toHaveURL(/\/customers\/renewals\?within=90$/);
    await expect(page.getByText("renew or end in the next 90 days")).toBeVisible();
    const [download] = await Promise.all([
      page.waitForEvent("download"),
      page.getByRole("link", { name: "Download as CSV" }).click(),
    ]);
    expect(download.suggestedFilename()).toBe("renewals-next-90-days.csv");
    const csv = readFileSync(await download.path(), "utf8");
    expect(csv).toContain("Customer,License,Plan,Users,Renews on,Amount,Auto-renew,Payment card");
    expect(csv).toMatch(
      /Meridian Law LLP,GK-SLR-2026-0102,Core \(Monthly Billing\) for resellers,8,.*,on,\w[\w ]* ending in \d{4}/,
    );

    await meridian.getByRole("link", { name: "Turn off auto-renew of license GK-SLR-2026-0102" }).click();
    await expect(page.getByRole("dialog", { name: "Turn off auto-renew?" })).toBeVisible();
  });

  test("more renewals than a page holds are paged through links, forward and back", async ({ page, portal }) => {
    // 21 renewals of a customer of this test's own, 61 to 71 days ahead: out of the 30-day view the other tests read.
    const prefix = `GK-E2E-${suffix()}`;
    await withDatabase(portal.databaseUrl, async (db, t) => {
      const distributorId = await organizationIdOf(db, DEMO.distributor);
      const customerId = randomUUID();
      await db.insert(t.organizations).values({ id: customerId, name: `Renewals ${prefix}`, managedBy: distributorId });
      for (let n = 0; n < 21; n += 1) {
        const externalLicenseId = `${prefix}-${String(n).padStart(2, "0")}`;
        await addRenewal(db, t, { licenseeId: customerId, externalLicenseId, inDays: 61 + (n % 11) });
      }
    });
    await signInAs(page, DEMO.distributor);
    await page.goto("/customers/renewals?within=90");
    const rows = page.getByRole("table", { name: "Renewals" }).getByRole("row");
    const pages = page.getByRole("navigation", { name: "Renewals pages" });
    await expect(rows).toHaveCount(21);
    const firstRow = await rows.nth(1).textContent();
    await expect(pages.getByRole("link", { name: "Previous" })).toHaveCount(0);

    await pages.getByRole("link", { name: "Next" }).click();
    await expect(page).toHaveURL(/\/customers\/renewals\?within=90&after=\d+\.GK-/);
    await expect(rows.filter({ hasText: `${prefix}-` }).first()).toBeVisible();
    await pages.getByRole("link", { name: "Previous" }).click();
    await expect(page).toHaveURL(/\/customers\/renewals\?within=90&before=\d+\.GK-/);
    await expect(rows).toHaveCount(21);
    await expect(rows.nth(1)).toHaveText(firstRow!);
    await expect(pages.getByRole("link", { name: "Previous" })).toHaveCount(0);
  });

  test.describe("for a customer", () => {
    test.use({ expectedHttpErrors: [403] });

    test("are not there: no link, and 403 with the reason at every address", async ({ page, portal }) => {
      const [customerId] = await withDatabase(portal.databaseUrl, async (db, t) => {
        const [harbor] = await db
          .select({ id: t.organizations.id })
          .from(t.organizations)
          .where(eq(t.organizations.name, "Harbor Dental Group"));
        return [harbor.id];
      });
      await signInAs(page, DEMO.customer);
      await expect(
        page.getByRole("navigation", { name: "Portal" }).getByRole("link", { name: "Customers", exact: true }),
      ).toHaveCount(0);
      for (const path of [
        "/customers",
        "/customers/new",
        `/customers/${customerId}`,
        `/customers/${customerId}/edit`,
      ]) {
        const response = await page.goto(path);
        expect(response?.status(), path).toBe(403);
        await expect(page.getByText("End customers are only for GateKeeper distributors.")).toBeVisible();
      }
    });
  });
});
