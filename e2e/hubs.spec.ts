import { randomUUID } from "node:crypto";
import type { Page } from "@playwright/test";
import { DEMO_CLOUD_HUB_USAGE } from "~/server/cloud-hubs/demo-hub-usage.server";
import { insertAccount, withDatabase } from "./database";
import { expect, expectAccessible, signInAs, test } from "./fixtures";

/**
 * The Hubs page: every column, the Type filter and 10 rows a page through plain links, the
 * about panel, and each Hub's licenses in a modal route (5 rows, sorted, filtered and paged through the
 * URL, the empty state), with JavaScript and without.
 */

const DAY = 24 * 60 * 60 * 1000;

/**
 * A new customer, signed in, with 12 Hubs (8 cloud, 4 on-premise; hub-00 seen last), the newest of which
 * has 7 licenses (Org A to Org G, every other one expired) and the next one none.
 */
async function signInWithHubs(page: Page, databaseUrl: string) {
  const email = `hubs-${randomUUID().slice(0, 8)}@example.com`;
  const userId = randomUUID();
  const hubId = (n: number) => `${userId}-hub-${String(n).padStart(2, "0")}`;
  const now = Date.now();
  await withDatabase(databaseUrl, async (db, t) => {
    await insertAccount(db, {
      id: userId,
      email,
      firstName: "Riley",
      lastName: "Chen",
    });
    for (let n = 0; n < 12; n++) {
      const cloud = n < 8;
      await db.insert(t.hubInstallations).values({
        ...DEMO_CLOUD_HUB_USAGE,
        id: hubId(n),
        ownerId: userId,
        type: cloud ? "cloud" : "local",
        url: cloud ? `https://hub-${n}-${userId.slice(0, 6)}.example` : `10.0.0.${n}`,
        ip: null,
        lastSeen: new Date(now - (12 - n) * 60_000),
      });
    }
    for (let n = 0; n < 7; n++) {
      const id = randomUUID();
      const externalId = `GK-HUBS-${userId.slice(0, 6)}-${n}`;
      const file = JSON.stringify({ protected: "e30", payload: "e30", signature: `${externalId}-signature` });
      const validTo = n % 2 === 1 ? now - (n + 1) * DAY : now + (n + 10) * DAY;
      await db.insert(t.licenses).values({
        id,
        ownerId: userId,
        externalLicenseId: externalId,
        name: `Org ${String.fromCharCode(65 + n)}`,
        nodes: 10 + n,
        planType: "core",
        type: "recurring",
        validFrom: new Date(now - (100 - n) * DAY),
        validTo: new Date(validTo),
        licenseCode: file,
        isUsed: true,
      });
      await db.insert(t.hubInstallationLicenses).values({ hubInstallationId: hubId(11), licenseId: id });
    }
  });
  await signInAs(page, email);
  return { newest: hubId(11), withoutLicenses: hubId(10) };
}

const dataRows = (page: Page, table: string) =>
  page
    .getByRole("table", { name: table })
    .getByRole("row")
    .filter({ has: page.getByRole("cell") });

test.describe("the Hubs page", () => {
  test("shows every column, filters by Type and pages 10 at a time through plain links", async ({
    page,
    portal,
    javaScriptEnabled,
  }) => {
    test.setTimeout(60_000);
    await signInWithHubs(page, portal.databaseUrl);
    await page.goto("/hubs");
    await expect(page.getByRole("heading", { level: 1, name: "GateKeeper Hub Deployments" })).toBeVisible();
    const table = page.getByRole("table", { name: "Hub deployments" });
    for (const column of [
      "Type",
      "URL/IP",
      "Synced",
      "Version",
      "Computers",
      "Users",
      "Tokens",
      "Passwords",
      "Locks",
      "Unlocks",
      "Web",
    ]) {
      await expect(table.getByRole("columnheader", { name: new RegExp(`^${column}\\b`) })).toBeVisible();
    }
    const rows = dataRows(page, "Hub deployments");
    await expect(rows).toHaveCount(10);
    // Most recently seen first: the newest on-premise Hub, with users of max users and month/year figures.
    await expect(rows.first()).toContainText("On-Premise");
    await expect(rows.first()).toContainText("10.0.0.11");
    for (const text of ["4.12.0", "12/15", "212", "1,840/20,411", "1,795/19,870", "311/3,920"])
      await expect(rows.first()).toContainText(text);
    await expect(page.getByText("1-10 of 12 items")).toBeVisible();
    if (javaScriptEnabled) await expectAccessible(page);

    await page.getByRole("navigation", { name: "Hub deployments pages" }).getByRole("link", { name: "Next" }).click();
    await expect(page).toHaveURL(/\/hubs\?page=2$/);
    await expect(rows).toHaveCount(2);
    await expect(page.getByText("11-12 of 12 items")).toBeVisible();

    const filter = page.getByRole("navigation", { name: "Filter by Type" });
    await filter.getByRole("link", { name: "Cloud" }).click();
    await expect(page).toHaveURL(/\/hubs\?type=cloud$/);
    await expect(rows).toHaveCount(8);
    for (const row of await rows.all()) await expect(row.getByRole("cell").first()).toHaveText("Cloud");
    await expect(page.getByText("1-8 of 8 items")).toBeVisible();
    await filter.getByRole("link", { name: "On-Premise" }).click();
    await expect(page).toHaveURL(/\/hubs\?type=local$/);
    await expect(rows).toHaveCount(4);
    await expect(filter.getByText("On-Premise")).toHaveAttribute("aria-current", "true");
    await filter.getByRole("link", { name: "All" }).click();
    await expect(page).toHaveURL(/\/hubs$/);
    await expect(rows).toHaveCount(10);
  });

  test("has a collapsible about panel and opens the 900 wide create-cloud-Hub drawer", async ({ page, portal }) => {
    await signInWithHubs(page, portal.databaseUrl);
    await page.goto("/hubs");
    const about = page.locator("details").filter({ hasText: "About GateKeeper Hub deployments" });
    await expect(about.getByRole("link", { name: "Licenses page" })).toBeHidden();
    await about.getByText("About GateKeeper Hub deployments").click();
    for (const [name, href] of [
      ["download the Hub software", "/software/hub"],
      ["Store", "/store"],
      ["Licenses page", "/licenses"],
      ["Support page", "/support"],
    ]) {
      await expect(about.getByRole("link", { name, exact: true })).toHaveAttribute("href", href);
    }

    await page.getByRole("link", { name: "Cloud GateKeeper Hub Deployment" }).click();
    await expect(page).toHaveURL(/\/hubs\/new\/url$/);
    const drawer = page.getByRole("dialog", { name: "Create New Cloud GateKeeper Hub Deployment" });
    await expect(drawer).toBeVisible();
    const box = await drawer.boundingBox();
    expect(Math.round(box?.width ?? 0)).toBe(900);
  });
});

test.describe("a Hub's licenses", () => {
  test("open in a modal with 5 rows, sorted, filtered and paged through the URL, and close back to the table", async ({
    page,
    portal,
    javaScriptEnabled,
  }) => {
    test.setTimeout(60_000);
    const { newest } = await signInWithHubs(page, portal.databaseUrl);
    await page.goto("/hubs?type=local");
    await dataRows(page, "Hub deployments")
      .filter({ hasText: "10.0.0.11" })
      .getByRole("link", { name: "View Licenses" })
      .click();
    await expect(page).toHaveURL(new RegExp(`/hubs/${newest}/licenses\\?type=local$`));
    const modal = page.getByRole("dialog", { name: "Licenses for this Hub deployment" });
    await expect(modal).toBeVisible();
    const rows = dataRows(page, "Hub licenses");
    // Newest first, five a page; the key is cut to 15 characters and dots; dates are MM/DD/YYYY.
    await expect(rows).toHaveCount(5);
    await expect(rows.first()).toContainText("Org G");
    await expect(rows.first()).toContainText(/\.\.\./);
    await expect(rows.first()).toContainText(/\d{2}\/\d{2}\/\d{4}/);
    await expect(modal.getByText("1-5 of 7 items")).toBeVisible();
    if (javaScriptEnabled) await expectAccessible(page);

    await modal.getByRole("navigation", { name: "Hub licenses pages" }).getByRole("link", { name: "Next" }).click();
    await expect(page).toHaveURL(/licensesPage=2/);
    await expect(rows).toHaveCount(2);
    await expect(modal.getByText("6-7 of 7 items")).toBeVisible();

    await modal.getByRole("link", { name: "Organization Name" }).click();
    await expect(page).toHaveURL(/licensesSort=name$/);
    await expect(modal.getByRole("columnheader", { name: /Organization Name/ })).toHaveAttribute(
      "aria-sort",
      "ascending",
    );
    await expect(rows.first()).toContainText("Org A");
    await modal.getByRole("link", { name: "Organization Name" }).click();
    await expect(page).toHaveURL(/licensesSort=-name$/);
    await expect(modal.getByRole("columnheader", { name: /Organization Name/ })).toHaveAttribute(
      "aria-sort",
      "descending",
    );
    await expect(rows.first()).toContainText("Org G");

    await modal.getByRole("navigation", { name: "Filter by Status" }).getByRole("link", { name: "Expired" }).click();
    await expect(page).toHaveURL(/licensesStatus=expired/);
    await expect(rows).toHaveCount(3);
    for (const row of await rows.all()) await expect(row).toContainText("Expired");
    await expect(modal.getByText("1-3 of 3 items")).toBeVisible();
    await expect(rows.first()).toContainText("Org F");

    await modal.getByRole("link", { name: "Close" }).click();
    await expect(page).toHaveURL(/\/hubs\?type=local$/);
    await expect(modal).toBeHidden();
    await expect(dataRows(page, "Hub deployments")).toHaveCount(4);
  });

  test("of a Hub without any: says so and offers 'Purchase GateKeeper License'", async ({ page, portal }) => {
    const { withoutLicenses } = await signInWithHubs(page, portal.databaseUrl);
    await page.goto(`/hubs/${withoutLicenses}/licenses`);
    const modal = page.getByRole("dialog", { name: "Licenses for this Hub deployment" });
    await expect(modal.getByText("This Hub deployment has no license.")).toBeVisible();
    await expect(modal.getByRole("link", { name: "Licenses page" })).toHaveAttribute("href", "/licenses");
    await modal.getByRole("link", { name: "Purchase GateKeeper License" }).click();
    await expect(page).toHaveURL(/\/store$/);
  });
});
