import { defineConfig } from "@playwright/test";
import { CHROMIUM_ARGS, TEST_CHROMIUM_PATH } from "./e2e/chromium.mjs";
import type { WorkerOptions } from "./e2e/fixtures";

/**
 * End-to-end tests drive Debian's Chromium (no browser download). Every flow runs twice: with JavaScript on
 * PostgreSQL, behind one port in front of two portal instances, and without JavaScript on SQLite, so every flow
 * meets both engines. Each worker starts the built server on free ports with a fresh database (see
 * e2e/fixtures.ts), so projects and workers never share state.
 */
export default defineConfig<object, WorkerOptions>({
  testDir: "e2e",
  // The PostgreSQL server the javascript project's databases are made on (TEST_POSTGRES_URL, or a cluster of its own).
  globalSetup: "./e2e/global-setup.ts",
  fullyParallel: true,
  // Two on CI's two cores: one walk keeps about one and a half busy (its browser, its portal, the test's driver), and
  // four at once spent more CPU on the same walks (14% more for cloud-hub and order-safety: 734 CPU-s against 646)
  // and finished later (373 s against 352), for the little a waiting walk leaves idle.
  workers: process.env.CI ? 2 : undefined,
  retries: 0,
  // CI runs on a 2-core machine that may be busy, where a typical walk takes 10-40 s: a wide margin over that.
  timeout: 90_000,
  expect: { timeout: 10_000 },
  forbidOnly: Boolean(process.env.CI),
  reporter: process.env.CI ? [["list"]] : [["list"], ["html", { open: "never" }]],
  use: {
    // Without these a click or page load that never ends waits out the whole test, and the failure names no step.
    actionTimeout: 30_000,
    navigationTimeout: 45_000,
    // A trace records every action's DOM snapshot and a screencast of every walk, kept or not: on CI, where no one
    // can open it (only the log is kept), recording it was a third of the walks' CPU (five account walks: 83 CPU-s
    // with it, 56 without). Kept locally, for a failure.
    trace: process.env.CI ? "off" : "retain-on-failure",
    launchOptions: { executablePath: TEST_CHROMIUM_PATH, args: CHROMIUM_ARGS },
  },
  projects: [
    { name: "javascript", use: { javaScriptEnabled: true, databaseEngine: "sqlite" } },
    { name: "no-javascript", use: { javaScriptEnabled: false, databaseEngine: "sqlite" } },
  ],
});
