import { defineConfig } from "@playwright/test";

/**
 * End-to-end tests drive Debian's Chromium (no browser download). Every flow runs twice: with
 * JavaScript and without it. Each worker starts the built server on a free port with a fresh
 * database (see e2e/fixtures.ts), so projects and workers never share state.
 */
const chromium = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

export default defineConfig({
  testDir: "e2e",
  fullyParallel: true,
  workers: process.env.CI ? 2 : undefined,
  retries: 0,
  timeout: 30_000,
  expect: { timeout: 7_000 },
  forbidOnly: Boolean(process.env.CI),
  reporter: process.env.CI ? [["list"]] : [["list"], ["html", { open: "never" }]],
  use: {
    trace: "retain-on-failure",
    launchOptions: {
      executablePath: chromium,
      // Without these, Chromium tries to reach Google's services, which this network refuses.
      args: [
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
      ],
    },
  },
  projects: [
    { name: "javascript", use: { javaScriptEnabled: true } },
    { name: "no-javascript", use: { javaScriptEnabled: false } },
  ],
});
