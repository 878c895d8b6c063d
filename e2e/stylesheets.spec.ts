import { readdirSync } from "node:fs";
import type { Page } from "@playwright/test";
import { DEMO, DEMO_PASSWORD, expect, signInAs, test } from "./fixtures";

/** The build's stylesheet files, as the portal serves them under /build/. */
const BUILD_STYLESHEETS = readdirSync("public/build/_assets")
  .filter((name) => name.endsWith(".css"))
  .map((name) => `/build/_assets/${name}`);

/** The page's stylesheet links: where each points, and the file an inlined one came from. */
const stylesheetLinks = (page: Page) =>
  page
    .locator('link[rel="stylesheet"]')
    .evaluateAll((links) =>
      links.map((link) => ({ href: link.getAttribute("href") ?? "", file: link.getAttribute("data-href") })),
    );

/** Whether every build stylesheet came from the browser's cache on this page load (no bytes over the network). */
const stylesheetsFromCache = (page: Page) =>
  page.evaluate(() =>
    performance
      .getEntriesByType("resource")
      .filter((entry) => entry.name.endsWith(".css"))
      .map((entry) => ({
        name: new URL(entry.name).pathname,
        transferSize: (entry as PerformanceResourceTiming).transferSize,
      })),
  );

test.describe("stylesheets on a first visit (decision 130)", () => {
  test("the first page paints from stylesheets in its HTML, fetches every stylesheet file after, and the next pages use them", async ({
    page,
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

    // The sign-in page loads no React (decision 138): signing in opens /home as a new page, for a browser that
    // has the files: plain links, answered from its cache.
    await page.getByLabel("Email").fill(DEMO.customer);
    await page.getByLabel("Password").fill(DEMO_PASSWORD);
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect(page).toHaveURL(/\/home$/);
    await expect(page.locator("body")).toHaveCSS("margin", "0px");
    const links = await stylesheetLinks(page);
    expect(links.map((link) => link.href)).toEqual([
      expect.stringMatching(/^\/build\/_assets\/root-/),
      expect.stringMatching(/^\/build\/_assets\/portal-/),
    ]);
    const entries = await stylesheetsFromCache(page);
    expect(entries).toHaveLength(2);
    for (const entry of entries) expect(entry.transferSize, entry.name).toBe(0);
  });

  test("a portal page opened first moves on in the same document without fetching its inlined stylesheet again", async ({
    page,
    javaScriptEnabled,
  }) => {
    test.skip(!javaScriptEnabled, "only a page with JavaScript moves on without loading a new document");
    await signInAs(page, DEMO.customer);
    await page.context().clearCookies({ name: "gk_styles" });
    await page.goto("/home");
    const [root] = await stylesheetLinks(page);
    expect(root?.href).toMatch(/^data:text\/css;charset=utf-8,/);
    await expect(page.locator("html")).toHaveAttribute("data-link-navigation", "on");

    // Remix must see the inlined stylesheet as on the page (patches/@remix-run+react): otherwise it loads the
    // file again before the next page's loaders run, and a redirect thrown meanwhile was reported as an
    // unhandled rejection.
    let inlinedFetchedAgain = 0;
    page.on("request", (request) => {
      if (new URL(request.url()).pathname === root?.file) inlinedFetchedAgain += 1;
    });
    await page.getByRole("navigation", { name: "Portal" }).getByRole("link", { name: "Licenses" }).click();
    await expect(page.getByRole("heading", { level: 1, name: "Licenses" })).toBeVisible();
    const links = await stylesheetLinks(page);
    // The same document: the root's inlined stylesheet stays.
    expect(links[0]?.href).toBe(root?.href);
    expect(inlinedFetchedAgain, "requests for the inlined root stylesheet while moving on").toBe(0);
  });
});

/** Every script of the portal's build the page asks for, in order. */
const scriptRequests = (page: Page) => {
  const paths: string[] = [];
  page.on("request", (request) => {
    const { pathname } = new URL(request.url());
    if (pathname.startsWith("/build/") && pathname.endsWith(".js")) paths.push(pathname);
  });
  return paths;
};

test.describe("scripts on a first visit (decision 136)", () => {
  test("a page with its stylesheets inline asks for its scripts from the top of <head>, once each, and only with JavaScript", async ({
    page,
    javaScriptEnabled,
  }) => {
    await signInAs(page, DEMO.customer);
    await page.context().clearCookies({ name: "gk_styles" });
    const requested = scriptRequests(page);
    const response = await page.goto("/home");
    // Remix's own preloads at the end of <body>, inert (decision 063): the page's scripts. Read from the HTML as
    // sent: once hydrated, Remix's <Scripts> renders them no more.
    const html = (await response?.text()) ?? "";
    const pageScripts = [...html.matchAll(/<link data-after-css="modulepreload" href="([^"]+)"\/>/g)].map(
      (match) => match[1],
    );
    expect(pageScripts.length).toBeGreaterThan(1);
    await page.waitForLoadState("load");
    if (javaScriptEnabled) {
      // Hydrated without a mismatch: React would have rendered the page again, and a mismatch is a console error.
      await expect(page.locator("html")).toHaveAttribute("data-link-navigation", "on");
      // The inert links at the top of <head> became module preloads in their place, before the inline CSS.
      const head = await page.evaluate(() =>
        [...document.head.children].map((element) => element.getAttribute("rel") ?? element.tagName.toLowerCase()),
      );
      expect(head.indexOf("modulepreload")).toBeGreaterThanOrEqual(0);
      expect(head.indexOf("modulepreload")).toBeLessThan(head.indexOf("stylesheet"));
      expect(await page.locator("link[data-early-modulepreload]").count()).toBe(0);
      const preloaded = await page
        .locator('head link[rel="modulepreload"]')
        .evaluateAll((links) => links.map((link) => link.getAttribute("href")));
      expect(new Set(preloaded)).toEqual(new Set(pageScripts));
      expect([...requested].sort(), "each script fetched once").toEqual([...new Set(requested)].sort());
    } else {
      expect(requested, "scripts fetched by a browser without JavaScript").toEqual([]);
    }

    // A browser that has the stylesheet files links them, so its scripts wait for them again (decision 063).
    await page.goto("/home");
    expect(await page.locator("link[data-early-modulepreload]").count()).toBe(0);
  });
});

test.describe("small shared chunks merged (decision 235)", () => {
  test("the card drawer over /account asks for at most 22 scripts, each of them once", async ({ page }) => {
    await signInAs(page, DEMO.customer);
    const account = await (await page.request.get("/account")).text();
    const drawer = /href="(\/account\/cards\/[^"/]+\/replace)"/.exec(account)?.[1];
    expect(drawer, "the demo customer's card").toBeDefined();
    const html = await (await page.request.get(drawer ?? "")).text();
    const pageScripts = [...html.matchAll(/<link data-after-css="modulepreload" href="([^"]+)"\/>/g)].map(
      (match) => match[1],
    );
    // 36 with esbuild's chunks as they came (the manifest, the entry, four route modules and 30 shared chunks); a
    // browser asks a host for six at a time, so each six more cost a round trip on a slow link.
    expect(pageScripts.length).toBeLessThanOrEqual(22);
    expect(pageScripts, "each script listed once").toEqual([...new Set(pageScripts)]);
  });
});

test.describe("the sign-in page's one script (decision 138)", () => {
  test("the sign-in page loads no React, only its own script, and fetches the next pages' scripts after it has loaded", async ({
    page,
    javaScriptEnabled,
  }) => {
    const requested = scriptRequests(page);
    await page.goto("/login");
    await page.waitForLoadState("load");
    expect(
      await page
        .locator("link[data-early-modulepreload], link[rel=modulepreload], script[src*='/build/_shared/']")
        .count(),
    ).toBe(0);
    if (!javaScriptEnabled) {
      expect(requested, "scripts fetched by a browser without JavaScript").toEqual([]);
      return;
    }
    expect(requested[0]).toMatch(/^\/build\/_page\/sign-in-[\w-]+\.js$/);
    // The field answers on blur, without React: the page script checks it.
    await page.getByLabel("Email").fill("not-an-email");
    await page.getByLabel("Email").blur();
    await expect(page.getByLabel("Email")).toHaveAttribute("aria-invalid", "true");
    expect(await page.evaluate(() => "__remixContext" in window)).toBe(false);
    // After `load`: the scripts every portal page starts with, for the page after signing in.
    const prefetched = JSON.parse(
      (await page.locator("script[data-prefetch]").getAttribute("data-prefetch")) ?? "[]",
    ) as { href: string; as: string }[];
    const nextScripts = prefetched.filter((file) => file.as === "script").map((file) => file.href);
    expect(nextScripts).toContainEqual(expect.stringMatching(/^\/build\/entry\.client-/));
    expect(nextScripts).toContainEqual(expect.stringMatching(/^\/build\/root-/));
    await expect.poll(() => nextScripts.filter((href) => !requested.includes(href))).toEqual([]);

    // Signing in: /home hydrates with those scripts from the cache.
    await page.getByLabel("Email").fill(DEMO.customer);
    await page.getByLabel("Password").fill(DEMO_PASSWORD);
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect(page.getByRole("heading", { level: 1, name: "Home" })).toBeVisible();
    await expect(page.locator("html")).toHaveAttribute("data-link-navigation", "on");
    const fromNetwork = await page.evaluate(
      (hrefs) =>
        performance
          .getEntriesByType("resource")
          .filter(
            (entry) =>
              hrefs.includes(new URL(entry.name).pathname) && (entry as PerformanceResourceTiming).transferSize > 0,
          )
          .map((entry) => entry.name),
      nextScripts,
    );
    expect(fromNetwork, "scripts fetched again after signing in").toEqual([]);
  });

  test("a flash message on the sign-in page can be dismissed, and fades, without React", async ({
    page,
    javaScriptEnabled,
  }) => {
    test.skip(!javaScriptEnabled, "without JavaScript the message stays until the next page");
    // A flash message as the root renders one (app/ui/toast.tsx), put into the page as it is sent.
    const toast =
      '<div class="gk-toast-region"><div class="gk-toast" data-kind="info" role="status"><p>A message for the test.</p>' +
      '<button type="button" class="gk-toast-close" aria-label="Dismiss message">×</button></div></div>';
    await page.route("**/login", async (route) => {
      const response = await route.fetch();
      await route.fulfill({ response, body: (await response.text()).replace("<main", `${toast}<main`) });
    });
    await page.goto("/login");
    await expect(page.getByText("A message for the test.")).toBeVisible();
    await page.getByRole("button", { name: "Dismiss message" }).click();
    await expect(page.getByText("A message for the test.")).toHaveCount(0);

    // The page's clock, paused a little after it loaded: the message is still there 7 s in, and gone 9 s in.
    await page.clock.install();
    await page.reload();
    await page.clock.pauseAt(Date.now() + 2_000);
    await expect(page.getByText("A message for the test.")).toBeVisible();
    await page.clock.runFor(5_000);
    await expect(page.getByText("A message for the test.")).toBeVisible();
    await page.clock.runFor(2_000);
    await expect(page.getByText("A message for the test.")).toHaveCount(0);
  });
});
