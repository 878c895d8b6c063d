import { randomUUID } from "node:crypto";
import type { Page } from "@playwright/test";
import { eq } from "drizzle-orm";
import { isSubmenu, sidebarFor } from "~/domain/navigation";
import { armFault, clearFaults, insertAccount, withDatabase } from "./database";
import { DEMO, expect, expectAccessible, expectServerHtmlAccessible, signInAs, test } from "./fixtures";

const TOP_LEVEL = [
  { label: "Home", path: "/home", title: "Home" },
  { label: "Store", path: "/store", title: "Store" },
  { label: "Hub Deployments", path: "/hubs", title: "GateKeeper Hub Deployments" },
  { label: "Licenses", path: "/licenses", title: "Licenses" },
  { label: "Quotes", path: "/quotes", title: "Quotes" },
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

  test("on a narrow screen the menu opens and closes with the keyboard and with a tap", async ({
    page,
    javaScriptEnabled,
  }) => {
    await page.setViewportSize({ width: 390, height: 800 });
    await signInAs(page, DEMO.customer);
    const sidebar = page.getByRole("navigation", { name: "Portal" });
    const menu = page.getByRole("checkbox", { name: "Open or close the menu" });
    await expect(sidebar).toBeHidden();

    // The menu is the first stop of the keyboard, and Space opens and closes it.
    await page.locator("body").press("Tab");
    await expect(menu).toBeFocused();
    await page.keyboard.press("Space");
    await expect(sidebar).toBeVisible();
    await expect(menu).toHaveAttribute("aria-controls", "gk-sidebar");
    await page.keyboard.press("Space");
    await expect(sidebar).toBeHidden();

    // A tap on the burger opens it, one on the sidebar's ×, drawn over the burger, closes it.
    await page.locator(".gk-burger").first().click();
    await expect(sidebar).toBeVisible();
    await sidebar.locator(".gk-burger-close").click();
    await expect(sidebar).toBeHidden();

    // Open, its links lead on.
    await page.locator(".gk-burger").first().click();
    if (javaScriptEnabled) await expectAccessible(page);
    await sidebar.getByRole("link", { name: "Licenses", exact: true }).click();
    await expect(page.getByRole("heading", { level: 1, name: "Licenses" })).toBeVisible();
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

test.describe("a click while the page's scripts start", () => {
  test("finishes hydrating the page at once, and the page works", async ({ page, javaScriptEnabled }) => {
    test.skip(!javaScriptEnabled, "only scripts hydrate a page");
    await signInAs(page, DEMO.customer);
    // The click comes right after React starts listening on the document, before its first render: it makes React
    // hydrate the page there and then. The fixture fails the walk on any error in the browser.
    await page.addInitScript(() => {
      const addEventListener = EventTarget.prototype.addEventListener;
      let clicked = false;
      EventTarget.prototype.addEventListener = function (this: EventTarget, ...args) {
        const reactListens =
          this === document && Object.keys(document).some((key) => key.startsWith("_reactListening"));
        if (reactListens && args[0] === "click" && !clicked) {
          clicked = true;
          queueMicrotask(() =>
            document.querySelector("input")?.dispatchEvent(new MouseEvent("click", { bubbles: true })),
          );
        }
        return addEventListener.apply(this, args);
      } as typeof addEventListener;
    });
    await page.goto("/account");
    await expect(page.locator("html")).toHaveAttribute("data-link-navigation", "on");
    await page.getByRole("navigation", { name: "Portal" }).getByRole("link", { name: "Licenses", exact: true }).click();
    await expect(page.getByRole("heading", { level: 1, name: "Licenses" })).toBeVisible();
    expect(await page.evaluate(() => performance.getEntriesByType("navigation")[0].name)).toMatch(/\/account$/);
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
    // The list is paged, and this worker's other tests may have opened organizations that come first.
    await page.getByLabel("Organization name or a member's email").fill("Northwind Clinics");
    await page.getByRole("button", { name: "Search" }).click();
    await expect(page).toHaveURL(/q=Northwind/);
    const row = page.getByRole("row", { name: /^Northwind Clinics Customer/ });
    // Four seeded licenses, or more when a purchase test of this worker ran first.
    await expect(row.getByRole("cell").nth(4)).toHaveText(/^([4-9]|\d\d+)$/);
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

const NOT_FOUND = "Page not found · GateKeeper Portal";
const FORBIDDEN = "You don't have access to this page · GateKeeper Portal";

/** A new person whose only role, in an organization of their own, is Viewer, signed in. */
async function signInAsViewer(page: Page, databaseUrl: string) {
  const email = `viewer-${randomUUID().slice(0, 8)}@example.com`;
  const id = randomUUID();
  await withDatabase(databaseUrl, async (db, t) => {
    await insertAccount(db, {
      id,
      email,
      firstName: "Val",
      lastName: "Viewer",
    });
    await db.update(t.memberships).set({ role: "viewer" }).where(eq(t.memberships.userId, id));
  });
  await signInAs(page, email);
}

/** Opens an error page and checks its status, its heading, and its tab's title (in the server's HTML without JavaScript). */
async function expectErrorPage(page: Page, path: string, status: number, title: string) {
  const response = await page.goto(path);
  expect(response?.status(), path).toBe(status);
  await expect(page.getByRole("heading", { name: title.replace(" · GateKeeper Portal", "") })).toBeVisible();
  await expect(page, path).toHaveTitle(title);
}

test.describe("an address that does not exist", () => {
  test.use({ expectedHttpErrors: [404] });
  test("shows a 404 page with a way back", async ({ page }) => {
    await expectErrorPage(page, "/no/such/page/here", 404, NOT_FOUND);
    await expect(page.getByRole("link", { name: "Go to the portal home" })).toBeVisible();
  });
});

test.describe("an error page", () => {
  test.use({ expectedHttpErrors: [403, 404] });

  test("names the error in the tab, outside the shell and inside it", async ({ page }) => {
    await signInAs(page, DEMO.customer);
    const sidebar = page.getByRole("navigation", { name: "Portal" });
    await expectErrorPage(page, "/no-such-page", 404, NOT_FOUND);
    await expect(sidebar).toHaveCount(0);
    for (const [path, status, title] of [
      ["/software/no-such-page", 404, NOT_FOUND],
      ["/store/orders/no-such-order", 404, NOT_FOUND],
      ["/account/invoices/no-such-invoice/pay", 404, NOT_FOUND],
      ["/licenses/no-such-license/update/product", 404, NOT_FOUND],
      ["/account/cards/no-such-card/replace", 404, NOT_FOUND],
      ["/docs/salesProcessEvaluation", 403, FORBIDDEN],
    ] as const) {
      await expectErrorPage(page, path, status, title);
      await expect(sidebar).toBeVisible();
    }
  });

  test("refusing a Viewer is named so in the tab", async ({ page, portal }) => {
    await signInAsViewer(page, portal.databaseUrl);
    await expectErrorPage(page, "/account/invoices", 403, FORBIDDEN);
  });
});

test.describe("a page whose loader fails", () => {
  // The failure is logged whole: its message, its fields, and its stack frames (Node's own in colour under
  // Playwright's FORCE_COLOR, so not at the line's start). One pattern: Playwright reads a fixture's array of
  // several objects as a value and its options.
  test.use({
    expectedHttpErrors: [500],
    expectedServerErrors: [/^BillingError: Injected failure\.$|^ {2}\w+: |^}$| {4}at /],
  });

  test("shows the error page in the shell, named in the tab", async ({ page, portal }) => {
    await withDatabase(portal.databaseUrl, (db, t) =>
      armFault(db, t.billingFaults, { call: "listPlans", mode: "fail", message: "Injected failure.", remaining: null }),
    );
    try {
      await signInAs(page, DEMO.customer);
      await expectErrorPage(page, "/store/subscribe/plan", 500, "Something went wrong · GateKeeper Portal");
      await expect(page.getByRole("navigation", { name: "Portal" })).toBeVisible();
    } finally {
      await withDatabase(portal.databaseUrl, (db, t) => clearFaults(db, t.billingFaults, "listPlans"));
    }
  });
});

test.describe("accessibility", () => {
  // Every page of the sidebar (as a distributor sees it, so the reseller documents too), and the trial chooser.
  const sidebar = sidebarFor(() => true)
    .flatMap((entry) => (isSubmenu(entry) ? entry.items : [entry]))
    .map((item) => item.to);
  // Each page is scanned once. The app's pages with JavaScript, hydrated: their server HTML is the markup hydration
  // adopts (a difference would fail the walk as a hydration error), and what scripts change after it only shows
  // there. The content pages (software, setup, documents) are the server's HTML with nothing to hydrate but the
  // shell: as the server sends them.
  const isContent = (path: string) => /^\/(software|setup|docs)\//.test(path);
  const appPages = [...sidebar.filter((path) => !isContent(path)), "/trial"];
  const contentPages = sidebar.filter(isContent);

  test("the login page has no serious violation", async ({ page, javaScriptEnabled }) => {
    test.skip(!javaScriptEnabled, "app pages are scanned hydrated");
    await page.goto("/login");
    await expectAccessible(page);
  });

  // A few pages per test: a scan takes about 3 s, 10 on a busy machine, so all of them in one test came near its timeout.
  const PAGES_PER_TEST = 3;
  const chunks = (paths: string[]) =>
    Array.from({ length: Math.ceil(paths.length / PAGES_PER_TEST) }, (_, n) =>
      paths.slice(n * PAGES_PER_TEST, (n + 1) * PAGES_PER_TEST),
    );
  for (const some of [...chunks(appPages), ...chunks(contentPages)]) {
    test(`${some.join(", ")}: no serious violation`, async ({ page, javaScriptEnabled }) => {
      test.skip(javaScriptEnabled === some.every(isContent), "each page is scanned in one project");
      test.slow();
      await signInAs(page, DEMO.distributor);
      for (const path of some) {
        await page.goto(path);
        await (javaScriptEnabled ? expectAccessible(page) : expectServerHtmlAccessible(page));
      }
    });
  }

  test("a customer's pages with licenses, Hubs, a card and the subscription choice have no serious violation", async ({
    page,
    javaScriptEnabled,
  }) => {
    test.skip(!javaScriptEnabled, "app pages are scanned hydrated");
    test.slow();
    await signInAs(page, DEMO.customer);
    for (const path of ["/licenses", "/hubs", "/account", "/store/subscription"]) {
      await page.goto(path);
      await expectAccessible(page);
    }
  });

  test("the admin portal has no serious violation", async ({ page, javaScriptEnabled }) => {
    test.skip(!javaScriptEnabled, "app pages are scanned hydrated");
    await signInAs(page, DEMO.admin);
    await page.goto("/admin/customers");
    await expectAccessible(page);
  });

  test.describe("error pages", () => {
    test.use({ expectedHttpErrors: [403, 404] });
    test.skip(({ javaScriptEnabled }) => !javaScriptEnabled, "app pages are scanned hydrated");

    test("a 404 signed out has no serious violation", async ({ page }) => {
      await page.goto("/no-such-page");
      await expectAccessible(page);
    });

    test("a 404 in the shell, a missing invoice's and a missing license's page have no serious violation", async ({
      page,
    }) => {
      test.slow();
      await signInAs(page, DEMO.customer);
      for (const path of [
        "/store/orders/no-such-order",
        "/account/invoices/no-such-invoice/pay",
        "/licenses/no-such-license/update/product",
      ]) {
        await page.goto(path);
        await expectAccessible(page);
      }
    });

    test("a 403 for a Viewer has no serious violation", async ({ page, portal }) => {
      await signInAsViewer(page, portal.databaseUrl);
      await page.goto("/account/invoices");
      await expectAccessible(page);
    });
  });
});
