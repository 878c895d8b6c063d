/* global document -- probeSignInForm runs in the page */
import { CHROMIUM_ARGS, CHROMIUM_PATH } from "../../e2e/chromium.mjs";
import { setTimeout as sleep } from "node:timers/promises";
import { chromium } from "playwright";

/** The emulated link: 400 kbps both ways and 400 ms added to every request (Chromium's emulation). */
export const LINK = { latencyMs: 400, kbps: 400 };
const BYTES_PER_SECOND = (LINK.kbps * 1000) / 8;
const RUNS = 3;
const POLL_MS = 20;
const TIMEOUT_MS = 60_000;

/** Debian's Chromium unless CHROMIUM_PATH names another. The caller closes it, on a signal too. */
export function launchBrowser() {
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    args: CHROMIUM_ARGS,
    // Playwright's own handlers would end the process before the bench has stopped its servers.
    handleSIGINT: false,
    handleSIGTERM: false,
    handleSIGHUP: false,
  });
}

/**
 * Loads the sign-in page cold on the emulated link RUNS times with JavaScript on and RUNS times with it
 * off, and reports the median time until the form is usable next to the floor for the page's bytes.
 * `pageBytes` is the /login row of the bytes table.
 */
export async function measureSignIn(browser, url, pageBytes) {
  const modes = [];
  for (const javaScript of [true, false]) {
    const runs = [];
    for (let run = 0; run < RUNS; run++) runs.push(await loadOnce(browser, url, javaScript));
    const subresourceBytes = pageBytes.css.gzip + (javaScript ? pageBytes.js.gzip : 0);
    modes.push({
      javaScript,
      usableMs: median(runs.map((run) => run.usableMs)),
      visibleMs: median(runs.map((run) => run.visibleMs)),
      floor: floor(pageBytes.html.gzip, subresourceBytes),
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
 * The least time the bytes and round trips allow on the link: the HTML costs one round trip; what it
 * references (stylesheets, scripts, modulepreloads) can only be asked for once the HTML names it, so
 * it costs a second one; and every byte shares the one pipe, where the HTML may still be arriving
 * while the second round trip is under way:
 *   floor = max(RTT + (html + sub) / bandwidth, 2 × RTT + sub / bandwidth)
 * Bytes are gzip bodies (headers left out, which keeps it a lower bound). Chromium's emulation adds its
 * latency to each request and none to TCP connects, so no handshake is counted.
 */
function floor(htmlBytes, subresourceBytes) {
  const roundTrips = subresourceBytes > 0 ? 2 : 1;
  const transferMs = (bytes) => (bytes / BYTES_PER_SECOND) * 1000;
  const ms = Math.max(
    LINK.latencyMs + transferMs(htmlBytes + subresourceBytes),
    roundTrips * LINK.latencyMs + transferMs(subresourceBytes),
  );
  return { ms: Math.round(ms), roundTrips, bytes: htmlBytes + subresourceBytes };
}

/**
 * One cold load in a fresh browser context. The page is probed from here every POLL_MS with
 * page.evaluate, which works with JavaScript off as well; times are the page's own performance.now(),
 * i.e. milliseconds since its navigation started.
 */
async function loadOnce(browser, url, javaScript) {
  const context = await browser.newContext({ javaScriptEnabled: javaScript });
  try {
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send("Network.enable");
    await cdp.send("Network.setCacheDisabled", { cacheDisabled: true });
    await cdp.send("Network.emulateNetworkConditions", {
      offline: false,
      latency: LINK.latencyMs,
      downloadThroughput: BYTES_PER_SECOND,
      uploadThroughput: BYTES_PER_SECOND,
    });
    const wire = { requests: 0, bytes: 0 };
    cdp.on("Network.loadingFinished", ({ encodedDataLength }) => {
      wire.requests += 1;
      wire.bytes += encodedDataLength;
    });

    await page.goto(url, { waitUntil: "commit" });
    const deadline = Date.now() + TIMEOUT_MS;
    let paintedAt = null;
    let readyAt = null;
    let hydratedAt = null;
    while (paintedAt === null || readyAt === null || (javaScript && hydratedAt === null)) {
      if (Date.now() > deadline) throw new Error(`the sign-in form was not usable within ${TIMEOUT_MS} ms`);
      await sleep(POLL_MS);
      const probe = await page.evaluate(probeSignInForm);
      paintedAt = probe.firstContentfulPaint;
      if (probe.ready) readyAt ??= probe.now;
      if (probe.ready && probe.hydrated) hydratedAt ??= probe.now;
    }
    // Nothing is on screen before the first paint, which waits for the render-blocking stylesheets.
    const visibleMs = Math.round(Math.max(paintedAt, readyAt));
    const usableMs = javaScript ? Math.round(Math.max(paintedAt, hydratedAt)) : visibleMs;

    await page.waitForLoadState("load", { timeout: TIMEOUT_MS });
    const wireAtLoad = { ...wire };
    const reacts = javaScript ? await formReacts(page) : null;
    return { usableMs, visibleMs, wire: wireAtLoad, reacts };
  } finally {
    await context.close();
  }
}

/** Runs in the page: is the email field there, laid out, enabled, and hydrated by React? */
function probeSignInForm() {
  const input = document.querySelector('input[name="email"]');
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
    // React puts its props on a DOM node when it hydrates it; from then on its handlers answer.
    hydrated: Boolean(input && Object.keys(input).some((key) => key.startsWith("__reactProps$"))),
  };
}

/** Checks that "hydrated" means what it should: the field validates itself on blur, in the browser. */
async function formReacts(page) {
  const email = page.locator('input[name="email"]');
  await email.fill("not-an-email");
  await email.blur();
  return page
    .locator('input[name="email"][aria-invalid="true"]')
    .waitFor({ timeout: 5000 })
    .then(
      () => true,
      () => false,
    );
}

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 ? sorted[middle] : Math.round((sorted[middle - 1] + sorted[middle]) / 2);
}
