import { isSubmenu, sidebarFor } from "~/domain/navigation";
import { DEMO, expect, expectAccessible, signInAs, test } from "./fixtures";

const TOP_LEVEL = [
  { label: "Home", path: "/home", title: "Home" },
  { label: "Store", path: "/store", title: "Store" },
  { label: "Hub Deployments", path: "/hubs", title: "GateKeeper Hub Deployments" },
  { label: "Licenses", path: "/licenses", title: "Licenses" },
  { label: "Account", path: "/account", title: "Account" },
  { label: "Support", path: "/support", title: "Support" },
];

test.describe("the portal shell", () => {
  test("every sidebar item opens its page and is highlighted there", async ({ page }) => {
    await signInAs(page, DEMO.customer);
    const sidebar = page.getByRole("navigation", { name: "Portal" });
    for (const item of TOP_LEVEL) {
      await sidebar.getByRole("link", { name: item.label, exact: true }).click();
      await expect(page).toHaveURL(new RegExp(`${item.path}$`));
      await expect(page.getByRole("heading", { level: 1, name: item.title })).toBeVisible();
      await expect(sidebar.getByRole("link", { name: item.label, exact: true })).toHaveAttribute(
        "aria-current",
        "page",
      );
      await expect(sidebar.locator("[aria-current=page]")).toHaveCount(1);
    }
  });

  test("a software, setup or docs page opens its submenu and highlights its item", async ({ page }) => {
    await signInAs(page, DEMO.customer);
    const sidebar = page.getByRole("navigation", { name: "Portal" });
    for (const [submenu, label, path] of [
      ["Software", "Trident", "/software/trident"],
      ["Setup", "On-Premise Hub Setup", "/setup/onPremiseHub"],
      ["Documentation", "Case Studies", "/docs/case-studies"],
    ]) {
      await page.goto(path);
      await expect(
        page.getByRole("heading", { level: 1, name: label === "Trident" ? "Trident" : label }),
      ).toBeVisible();
      const details = sidebar.locator("details", { has: page.locator("summary", { hasText: submenu }) });
      await expect(details).toHaveAttribute("open", "");
      await expect(details.getByRole("link", { name: label })).toHaveAttribute("aria-current", "page");
    }
  });

  test("a closed submenu opens on click, with or without JavaScript", async ({ page }) => {
    await signInAs(page, DEMO.customer);
    const sidebar = page.getByRole("navigation", { name: "Portal" });
    await expect(sidebar.getByRole("link", { name: "Password Manager" })).toBeHidden();
    await sidebar.getByText("Software", { exact: true }).click();
    await sidebar.getByRole("link", { name: "Password Manager" }).click();
    await expect(page).toHaveURL(/\/software\/passwordmanager$/);
    await expect(page.getByRole("heading", { level: 1, name: "GateKeeper Password Manager" })).toBeVisible();
  });

  test("the sidebar collapses and stays collapsed on the next page", async ({ page }) => {
    await signInAs(page, DEMO.customer);
    const sidebar = page.getByRole("navigation", { name: "Portal" });
    await expect(sidebar).toBeVisible();
    // With JavaScript the sidebar hides at once; the choice is stored when the form's response arrives.
    await Promise.all([
      page.waitForResponse((response) => response.url().includes("/preferences/sidebar")),
      page.getByRole("button", { name: "Hide the sidebar" }).click(),
    ]);
    await expect(sidebar).toBeHidden();
    await expect(page).toHaveURL(/\/home$/);
    await page.goto("/licenses");
    await expect(sidebar).toBeHidden();
    await page.getByRole("button", { name: "Show the sidebar" }).click();
    await expect(sidebar).toBeVisible();
    await expect(page).toHaveURL(/\/licenses$/);
  });

  test("the menu icon is a character reference in the HTML, so a page of Latin-1 text stays one byte per character on the server (decision 141)", async ({
    page,
  }) => {
    await signInAs(page, DEMO.customer);
    await expect(page.locator(".gk-burger").first()).toContainText("\u2630");
    const html = await (await page.request.get("/home")).text();
    expect(html).toContain("&#9776;");
    expect([...html].filter((character) => character.charCodeAt(0) > 0xff)).toEqual([]);
  });

  test("the footer links to support and the company site", async ({ page }) => {
    await signInAs(page, DEMO.customer);
    const footer = page.getByRole("contentinfo");
    await expect(footer.getByRole("link", { name: "gkaccess.com" })).toHaveAttribute("href", "https://gkaccess.com");
    await footer.getByRole("link", { name: "Support" }).click();
    await expect(page.getByRole("heading", { level: 1, name: "Support" })).toBeVisible();
  });

  test("a customer without trials sees the trial button, and it leads to the trial chooser", async ({ page }) => {
    await signInAs(page, DEMO.customer);
    await page.getByRole("link", { name: "Start GateKeeper Enterprise Trial" }).click();
    await expect(page).toHaveURL(/\/trial$/);
    await expect(page.getByText("Which type of GateKeeper Hub do you want to install?")).toBeVisible();
  });
});

test.describe("distributor-only documents", () => {
  test("a distributor sees and opens them", async ({ page }) => {
    await signInAs(page, DEMO.distributor);
    const sidebar = page.getByRole("navigation", { name: "Portal" });
    await sidebar.getByText("Documentation", { exact: true }).click();
    await sidebar.getByRole("link", { name: "Deal Registration" }).click();
    await expect(page.getByRole("heading", { level: 1, name: "Deal Registration" })).toBeVisible();
    await expect(sidebar.getByRole("link", { name: "Sales Process Evaluation" })).toBeVisible();
    await expect(page.getByRole("link", { name: "Start GateKeeper Enterprise Trial" })).toBeVisible();
  });

  test.describe("for a customer", () => {
    test.use({ expectedHttpErrors: [403] });
    test("they are not listed and their URL answers 403", async ({ page }) => {
      await signInAs(page, DEMO.customer);
      const sidebar = page.getByRole("navigation", { name: "Portal" });
      await sidebar.getByText("Documentation", { exact: true }).click();
      await expect(sidebar.getByRole("link", { name: "Manuals" })).toBeVisible();
      await expect(sidebar.getByRole("link", { name: "Deal Registration" })).toHaveCount(0);
      await expect(sidebar.getByRole("link", { name: "Sales Process Evaluation" })).toHaveCount(0);
      const response = await page.goto("/docs/salesProcessEvaluation");
      expect(response?.status()).toBe(403);
      await expect(page.getByText("This document is only for GateKeeper distributors.")).toBeVisible();
      await expect(sidebar).toBeVisible();
    });
  });
});

test.describe("the admin portal", () => {
  test("an administrator has the link, sees every organization with its licenses, and opens one", async ({ page }) => {
    await signInAs(page, DEMO.admin);
    await page.getByRole("link", { name: "Go to admin portal" }).click();
    await expect(page).toHaveURL(/\/admin\/customers$/);
    const row = page.getByRole("row", { name: /^Northwind Clinics Customer/ });
    // Four seeded licenses, or more when a purchase test of this worker ran first.
    await expect(row.getByRole("cell").nth(4)).toHaveText(/^([4-9]|\d\d+)$/);
    await expect(page.getByRole("row", { name: /^SecureLine Resellers/ })).toContainText("Distributor");
    await row.getByRole("link", { name: "Northwind Clinics" }).click();
    await expect(page.getByRole("heading", { name: "Northwind Clinics" })).toBeVisible();
    await expect(page.getByRole("table", { name: "Members" })).toContainText("customer@example.com");
    await expect(page.getByRole("table", { name: "Members" })).toContainText("Technical contact");
    await expect(page.getByRole("table", { name: "Licenses" })).toContainText("GK-NWC-2026-0001");
  });

  test.describe("for anyone else", () => {
    test.use({ expectedHttpErrors: [403] });
    test("there is no link and the page answers 403", async ({ page }) => {
      await signInAs(page, DEMO.distributor);
      await expect(page.getByRole("link", { name: "Go to admin portal" })).toHaveCount(0);
      const response = await page.goto("/admin/customers");
      expect(response?.status()).toBe(403);
      await expect(page.getByRole("heading", { name: "You don't have access to this page" })).toBeVisible();
    });
  });
});

test.describe("an address that does not exist", () => {
  test.use({ expectedHttpErrors: [404] });
  test("shows a 404 page with a way back", async ({ page }) => {
    const response = await page.goto("/no/such/page/here");
    expect(response?.status()).toBe(404);
    await expect(page.getByRole("heading", { name: "Page not found" })).toBeVisible();
    await expect(page.getByRole("link", { name: "Go to the portal home" })).toBeVisible();
  });
});

test.describe("accessibility", () => {
  // Every page of the sidebar (as a distributor sees it, so the reseller documents too), and the trial chooser.
  const pages = [
    ...sidebarFor(true)
      .flatMap((entry) => (isSubmenu(entry) ? entry.items : [entry]))
      .map((item) => item.to),
    "/trial",
  ];

  test("the login page has no serious violation", async ({ page, javaScriptEnabled }) => {
    await page.goto("/login");
    await expectAccessible(page, javaScriptEnabled);
  });

  // A few pages per test: a scan takes about 3 s, 10 on a busy machine, so all of them in one test came near its timeout.
  const PAGES_PER_TEST = 3;
  for (let first = 0; first < pages.length; first += PAGES_PER_TEST) {
    const some = pages.slice(first, first + PAGES_PER_TEST);
    test(`${some.join(", ")}: no serious violation`, async ({ page, javaScriptEnabled }) => {
      test.slow();
      await signInAs(page, DEMO.distributor);
      for (const path of some) {
        await page.goto(path);
        await expectAccessible(page, javaScriptEnabled);
      }
    });
  }

  test("a customer's pages with licenses, Hubs, a card and the subscription choice have no serious violation", async ({
    page,
    javaScriptEnabled,
  }) => {
    test.slow();
    await signInAs(page, DEMO.customer);
    for (const path of ["/licenses", "/hubs", "/account", "/store/subscription"]) {
      await page.goto(path);
      await expectAccessible(page, javaScriptEnabled);
    }
  });

  test("the admin portal has no serious violation", async ({ page, javaScriptEnabled }) => {
    await signInAs(page, DEMO.admin);
    await page.goto("/admin/customers");
    await expectAccessible(page, javaScriptEnabled);
  });
});
