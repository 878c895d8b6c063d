// paintedAt runs in the page.
import { setTimeout as sleep } from "node:timers/promises";
import { browserCookies } from "./portal.mjs";
import { floor, openOnSlowLink, POLL_MS, TIMEOUT_MS } from "./slow-link.mjs";

/**
 * Loads each page cold on the emulated link, signed in with its jar's cookies, once with JavaScript on and
 * once with it off, and reports when it was first painted (first contentful paint: Chromium paints nothing
 * before the render-blocking stylesheets have arrived, and then paints the whole server-rendered page,
 * form included) next to the floor of the page's own HTML and CSS bytes. JavaScript is left out of the
 * floor: nothing painted should wait for it. `pages` are rows of the bytes table with their jar.
 * A cold browser has no stylesheets cookie, so it gets the page with its stylesheets inline (decision 130);
 * the floor stays that of the HTML and the linked stylesheet files: two round trips.
 */
export async function measurePaint(browser, baseUrl, pages) {
  const results = [];
  for (const { path, jar, bytes } of pages) {
    const cookies = jar ? browserCookies(jar, baseUrl) : [];
    const pageFloor = floor(bytes.html.sent, bytes.css.sent);
    const modes = {};
    for (const javaScript of [true, false]) {
      const paintedMs = await paintOnce(browser, new URL(path, baseUrl).href, { javaScript, cookies });
      modes[javaScript ? "on" : "off"] = { paintedMs, ratio: paintedMs / pageFloor.ms };
    }
    results.push({ path, floor: pageFloor, ...modes });
  }
  return results;
}

async function paintOnce(browser, url, options) {
  const { context, page } = await openOnSlowLink(browser, options);
  try {
    await page.goto(url, { waitUntil: "commit" });
    const deadline = Date.now() + TIMEOUT_MS;
    for (;;) {
      if (Date.now() > deadline) throw new Error(`${url} was not painted within ${TIMEOUT_MS} ms`);
      await sleep(POLL_MS);
      const painted = await page.evaluate(paintedAt);
      if (painted !== null) return Math.round(painted);
    }
  } finally {
    await context.close();
  }
}

/** Runs in the page: when it was first painted, in ms since its navigation started, or null. */
function paintedAt() {
  return performance.getEntriesByName("first-contentful-paint")[0]?.startTime ?? null;
}
