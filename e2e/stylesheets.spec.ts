import { readdirSync } from "node:fs";
import type { Page } from "@playwright/test";
import { DEMO, DEMO_PASSWORD, expect, test } from "./fixtures";

/** The build's stylesheet files, as the portal serves them under /build/. */
const BUILD_STYLESHEETS = readdirSync("public/build/_assets")
  .filter((name) => name.endsWith(".css"))
  .map((name) => `/build/_assets/${name}`);

/** The page's stylesheet links: where each points, and the file an inlined one came from. */
const stylesheetLinks = (page: Page) =>
  page.locator('link[rel="stylesheet"]').evaluateAll((links) =>
    links.map((link) => ({ href: link.getAttribute("href") ?? "", file: link.getAttribute("data-href") })),
  );

/** Whether every build stylesheet came from the browser's cache on this page load (no bytes over the network). */
const stylesheetsFromCache = (page: Page) =>
  page.evaluate(() =>
    performance
      .getEntriesByType("resource")
      .filter((entry) => entry.name.endsWith(".css"))
      .map((entry) => ({ name: new URL(entry.name).pathname, transferSize: (entry as PerformanceResourceTiming).transferSize })),
  );

test.describe("stylesheets on a first visit (decision 130)", () => {
  test("the first page paints from stylesheets in its HTML, fetches every stylesheet file after, and the next pages use them", async ({
    page,
    javaScriptEnabled,
  }) => {
    const fetched = new Set<string>();
    page.on("requestfinished", (request) => fetched.add(new URL(request.url()).pathname));

    await page.goto("/login");
    const [root] = await stylesheetLinks(page);
    expect(root?.href).toMatch(/^data:text\/css;charset=utf-8,/);
    expect(root?.file).toMatch(/^\/build\/_assets\/root-[\w-]+\.css$/);
    // root.css sets the body's margin; a page without its stylesheet would have the browser's 8px.
    await expect(page.locator("body")).toHaveCSS("margin", "0px");
    expect((await page.context().cookies()).map((cookie) => cookie.name)).toContain("gk_styles");
    // Every stylesheet file of the build, for the pages after this one, fetched once the page has loaded.
    await expect.poll(() => BUILD_STYLESHEETS.filter((file) => !fetched.has(file))).toEqual([]);

    // Signing in on this same page: with JavaScript, /home comes into this document. Remix must see the inlined
    // stylesheet as on the page (patches/@remix-run+react): otherwise it loads the file again before the root's
    // loader runs, and a redirect thrown meanwhile was reported as an unhandled rejection.
    let inlinedFetchedAgain = 0;
    page.on("request", (request) => {
      if (new URL(request.url()).pathname === root?.file) inlinedFetchedAgain += 1;
    });
    await page.getByLabel("Email").fill(DEMO.customer);
    await page.getByLabel("Password").fill(DEMO_PASSWORD);
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect(page).toHaveURL(/\/home$/);
    await expect(page.locator("body")).toHaveCSS("margin", "0px");
    const links = await stylesheetLinks(page);
    if (javaScriptEnabled) {
      // The same document: the root's inlined stylesheet stays, and the portal's layer comes as its file.
      expect(links[0]?.href).toBe(root?.href);
      expect(links.slice(1).map((link) => link.href)).toEqual([expect.stringMatching(/^\/build\/_assets\/portal-/)]);
      expect(inlinedFetchedAgain, "requests for the inlined root stylesheet while signing in").toBe(0);
    } else {
      // A new page for a browser that has the files: plain links, answered from its cache.
      expect(links.map((link) => link.href)).toEqual([
        expect.stringMatching(/^\/build\/_assets\/root-/),
        expect.stringMatching(/^\/build\/_assets\/portal-/),
      ]);
      const entries = await stylesheetsFromCache(page);
      expect(entries).toHaveLength(2);
      for (const entry of entries) expect(entry.transferSize, entry.name).toBe(0);
    }
  });
});

test.describe("scripts on a first visit (decision 136)", () => {
  test("a page with its stylesheets inline asks for its scripts from the top of <head>, once each, and only with JavaScript", async ({
    page,
    javaScriptEnabled,
  }) => {
    const scriptRequests: string[] = [];
    page.on("request", (request) => {
      const { pathname } = new URL(request.url());
      if (pathname.startsWith("/build/") && pathname.endsWith(".js")) scriptRequests.push(pathname);
    });
    await page.goto("/login");
    // The form validates on blur only once React has hydrated it; a hydration mismatch would be a console error.
    await page.getByLabel("Email").fill("not-an-email");
    await page.getByLabel("Password").focus();
    // Remix's own preloads at the end of <body>, inert (decision 063): the page's scripts.
    const pageScripts = await page.locator('link[data-after-css="modulepreload"]').evaluateAll((links) => links.map((link) => link.getAttribute("href")));
    expect(pageScripts.length).toBeGreaterThan(1);
    await page.waitForLoadState("load");
    if (javaScriptEnabled) {
      await expect(page.getByLabel("Email")).toHaveAttribute("aria-invalid", "true");
      // The inert links at the top of <head> became module preloads in their place, before the inline CSS.
      const head = await page.evaluate(() =>
        [...document.head.children].map((element) => element.getAttribute("rel") ?? element.tagName.toLowerCase()),
      );
      expect(head.indexOf("modulepreload")).toBeGreaterThanOrEqual(0);
      expect(head.indexOf("modulepreload")).toBeLessThan(head.indexOf("stylesheet"));
      expect(await page.locator("link[data-early-modulepreload]").count()).toBe(0);
      const preloaded = await page.locator('head link[rel="modulepreload"]').evaluateAll((links) => links.map((link) => link.getAttribute("href")));
      expect(new Set(preloaded)).toEqual(new Set(pageScripts));
      expect([...scriptRequests].sort(), "each script fetched once").toEqual([...new Set(scriptRequests)].sort());
    } else {
      expect(scriptRequests, "scripts fetched by a browser without JavaScript").toEqual([]);
    }

    // A browser that has the stylesheet files links them, so its scripts wait for them again (decision 063).
    await page.goto("/login");
    expect(await page.locator("link[data-early-modulepreload]").count()).toBe(0);
  });
});
