import { existsSync } from "node:fs";

/**
 * How the tests and the bench start Chromium: Debian's builds (never a download), and without the
 * background services whose connections this machine's closed network refuses.
 */

/** The full browser, for the bench: its paints and timings are those of the browser people use. */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

const HEADLESS_SHELL = "/usr/bin/chromium-headless-shell";

/**
 * The end-to-end tests' browser: Debian's chromium-headless-shell, the same Chromium without the desktop browser
 * around it (what Playwright's own headless runs use). On CI's two cores it takes under half the full browser's
 * CPU for the same walks; the full browser when the shell is not installed.
 */
export const TEST_CHROMIUM_PATH =
  process.env.CHROMIUM_PATH ?? (existsSync(HEADLESS_SHELL) ? HEADLESS_SHELL : "/usr/bin/chromium");

export const CHROMIUM_ARGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];
