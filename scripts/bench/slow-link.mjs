import { CHROMIUM_ARGS, CHROMIUM_PATH } from "../../e2e/chromium.mjs";
import { chromium } from "playwright";

/** The emulated link: 400 kbps both ways and 400 ms added to every request (Chromium's emulation). */
export const LINK = { latencyMs: 400, kbps: 400 };
const BYTES_PER_SECOND = (LINK.kbps * 1000) / 8;
export const POLL_MS = 20;
export const TIMEOUT_MS = 60_000;

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
 * A page in a fresh browser context (no cache, no cookies but `cookies`) on the emulated link, and the
 * bytes and requests it receives (`wire`, compressed bodies plus headers). The caller closes `context`.
 */
export async function openOnSlowLink(browser, { javaScript, cookies = [] }) {
  const context = await browser.newContext({ javaScriptEnabled: javaScript });
  try {
    if (cookies.length) await context.addCookies(cookies);
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
    return { context, page, wire };
  } catch (error) {
    await context.close();
    throw error;
  }
}

/**
 * The least time the bytes and round trips allow on the link: the HTML costs one round trip; what it
 * references (stylesheets, scripts, modulepreloads) can only be asked for once the HTML names it, so
 * it costs a second one; and every byte shares the one pipe, where the HTML may still be arriving
 * while the second round trip is under way:
 *   floor = max(RTT + (html + sub) / bandwidth, 2 × RTT + sub / bandwidth)
 * Bytes are the bodies as sent (headers left out, which keeps it a lower bound). Chromium's emulation adds its
 * latency to each request and none to TCP connects, so no handshake is counted.
 */
export function floor(htmlBytes, subresourceBytes) {
  const roundTrips = subresourceBytes > 0 ? 2 : 1;
  const transferMs = (bytes) => (bytes / BYTES_PER_SECOND) * 1000;
  const ms = Math.max(
    LINK.latencyMs + transferMs(htmlBytes + subresourceBytes),
    roundTrips * LINK.latencyMs + transferMs(subresourceBytes),
  );
  return { ms: Math.round(ms), roundTrips, bytes: htmlBytes + subresourceBytes };
}

export function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 ? sorted[middle] : Math.round((sorted[middle - 1] + sorted[middle]) / 2);
}
