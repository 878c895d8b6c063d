/**
 * What the demo's cloud Hub reports about itself: its version and usage figures. The e2e tests give the Hubs
 * they make the same, so that every row of the Hubs page shows real-looking figures.
 */
export const DEMO_CLOUD_HUB_USAGE = {
  version: "4.12.0",
  computers: 14,
  users: 12,
  maxUsers: 15,
  devices: 13,
  credentials: 212,
  locksThisMonth: 1840,
  locksThisYear: 20411,
  unlocksThisMonth: 1795,
  unlocksThisYear: 19870,
  webCredentialsUsedThisMonth: 311,
  webCredentialsUsedThisYear: 3920,
};
