/* global document -- probeForm runs in the page */
import { setTimeout as sleep } from "node:timers/promises";
import { floor, LINK, median, openOnSlowLink, POLL_MS, TIMEOUT_MS } from "./slow-link.mjs";

const RUNS = 3;

/**
 * Loads the sign-in page cold on the emulated link RUNS times with JavaScript on and RUNS times with it
 * off, and reports the median time until the form is usable next to the floor for the page's bytes.
 * `pageBytes` is the /login row of the bytes table.
 */
export function measureSignIn(browser, url, pageBytes) {
  return measureUsableForm(browser, url, pageBytes, { field: 'input[name="email"]', invalid: "not-an-email" });
}

/**
 * The same for a card form (a drawer's), signed in with `cookies`: usable once its card number field is laid out
 * and answers, where with JavaScript leaving it empty says so at the field.
 */
export function measureCardForm(browser, url, pageBytes, cookies) {
  return measureUsableForm(browser, url, pageBytes, { field: 'input[name="card_number"]', invalid: "", cookies });
}

/**
 * Cold loads of the page at `url` with JavaScript on and off, each until `field` (a selector) is usable; with
 * JavaScript, `invalid` typed into it and left must mark it invalid (the form's own checks answer).
 */
async function measureUsableForm(browser, url, pageBytes, { field, invalid, cookies = [] }) {
  const modes = [];
  for (const javaScript of [true, false]) {
    const runs = [];
    for (let run = 0; run < RUNS; run++)
      runs.push(await loadOnce(browser, url, { javaScript, field, invalid, cookies }));
    // A cold browser gets the page with its stylesheet inline (decision 130): the HTML as a first visit gets it,
    // then the scripts.
    const subresourceBytes = javaScript ? pageBytes.js.sent : 0;
    modes.push({
      javaScript,
      usableMs: median(runs.map((run) => run.usableMs)),
      visibleMs: median(runs.map((run) => run.visibleMs)),
      floor: floor(pageBytes.html.firstVisitSent, subresourceBytes),
      wire: {
        requests: median(runs.map((run) => run.wire.requests)),
        bytes: median(runs.map((run) => run.wire.bytes)),
      },
      reacts: javaScript ? runs.every((run) => run.reacts) : null,
      runs,
    });
  }
  return { chromium: browser.version(), link: LINK, runsPerMode: RUNS, modes };
}

/**
 * One cold load in a fresh browser context. The page is probed from here every POLL_MS with
 * page.evaluate, which works with JavaScript off as well; times are the page's own performance.now(),
 * i.e. milliseconds since its navigation started.
 */
async function loadOnce(browser, url, { javaScript, field, invalid, cookies }) {
  const { context, page, wire } = await openOnSlowLink(browser, { javaScript, cookies });
  try {
    await page.goto(url, { waitUntil: "commit" });
    const deadline = Date.now() + TIMEOUT_MS;
    let paintedAt = null;
    let readyAt = null;
    let hydratedAt = null;
    while (paintedAt === null || readyAt === null || (javaScript && hydratedAt === null)) {
      if (Date.now() > deadline) throw new Error(`${field} on ${url} was not usable within ${TIMEOUT_MS} ms`);
      await sleep(POLL_MS);
      const probe = await page.evaluate(probeForm, field);
      paintedAt = probe.firstContentfulPaint;
      if (probe.ready) readyAt ??= probe.now;
      if (probe.ready && probe.hydrated) hydratedAt ??= probe.now;
    }
    // Nothing is on screen before the first paint, which waits for the render-blocking stylesheets.
    const visibleMs = Math.round(Math.max(paintedAt, readyAt));
    const usableMs = javaScript ? Math.round(Math.max(paintedAt, hydratedAt)) : visibleMs;

    await page.waitForLoadState("load", { timeout: TIMEOUT_MS });
    const wireAtLoad = { ...wire };
    const reacts = javaScript ? await formReacts(page, field, invalid) : null;
    return { usableMs, visibleMs, wire: wireAtLoad, reacts };
  } finally {
    await context.close();
  }
}

/**
 * Runs in the page: is the field there, laid out, enabled, and are its handlers attached: hydrated by React, or
 * bound by the page's own script on a page that loads no React (decision 138)?
 */
function probeForm(field) {
  const input = document.querySelector(field);
  const box = input?.getBoundingClientRect();
  return {
    now: performance.now(),
    firstContentfulPaint: performance.getEntriesByName("first-contentful-paint")[0]?.startTime ?? null,
    ready: Boolean(
      input &&
      !input.disabled &&
      !input.readOnly &&
      box.width > 0 &&
      box.height > 0 &&
      input.checkVisibility({ visibilityProperty: true, opacityProperty: true }),
    ),
    // React puts its props on a DOM node when it hydrates it; the page script marks the fields it has bound
    // (app/ui/page-scripts/plain-page.ts). From then on the field's handlers answer.
    hydrated: Boolean(
      input && (Object.keys(input).some((key) => key.startsWith("__reactProps$")) || "checksOnBlur" in input.dataset),
    ),
  };
}

/** Checks that "hydrated" means what it should: the field checks itself when left, in the browser. */
async function formReacts(page, field, invalid) {
  const input = page.locator(field);
  await input.fill(invalid);
  await input.blur();
  return page
    .locator(`${field}[aria-invalid="true"]`)
    .waitFor({ timeout: 5000 })
    .then(
      () => true,
      () => false,
    );
}
