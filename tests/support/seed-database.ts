export {};

/**
 * Runs the portal's start-up without the jobs on the database DATABASE_URL names (migrations, secrets, the demo
 * seed) and exits: the seeded template every test file copies (tests/support/seeded-template.ts). A process of
 * its own, because the modules choose their database when they load.
 */
const { boot } = await import("~/server/boot.server");
await boot({ jobs: false });
await (globalThis as { __portalConnection?: { close(): Promise<void> } }).__portalConnection?.close();
