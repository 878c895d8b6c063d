/** What every portal the end-to-end tests start runs with, beside its database (e2e/fixtures.ts startPortal). */
export const PORTAL_SETTINGS = {
  NODE_ENV: "production" as const,
  SEED_DEMO: "true",
  // A crashed portal's jobs are taken over after the lease: short here, so restart tests wait seconds.
  JOB_LEASE_MS: "3000",
  JOB_BACKOFF_MS: "200",
  // Simulated Hubs are ready and running at once; a test that wants a slow one injects not_ready.
  HUB_SIM_STARTUP_SECONDS: "0",
  // 'Try again' after a Hub that is still coming up opens at once; the test of the 30 s rule sets its own wait.
  HUB_RETRY_WAIT_MS: "0",
};
