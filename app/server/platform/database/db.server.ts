import { connection } from "./connection.server";
import { withStartupLock } from "./startup-lock.server";
import { DEMO_ACCOUNTS, DEMO_PASSWORD, seedDemo } from "~/server/demo-seed.server";
import { databaseChoice } from "./url.server";
import { env } from "~/server/platform/env.server";
import { reissueLicenseFiles } from "~/server/hubs/license-files.server";

export { databaseAnswers } from "./dialect.server";
export type { PortalDatabase, PortalExecutor, PortalTransaction } from "./portal-database.server";

/** The portal's database, migrated (connection.server), on either engine. */
export const db = connection.db;

/**
 * Makes the migrated database ready for this process, under the start-up lock: the demo seed (SEED_DEMO, into an
 * empty database only) and the re-issue of license files signed with an older key. Each step finds what a process
 * that held the lock before did, so however many processes and instances start at once on one database, it is
 * seeded once. `npm run migrate` runs the same, without serving.
 */
async function prepareDatabase(): Promise<void> {
  await withStartupLock(databaseChoice(env.DATABASE_URL)!, async () => {
    if (env.SEED_DEMO && (await seedDemo(db))) {
      console.log(`Demo accounts seeded (SEED_DEMO=true): ${DEMO_ACCOUNTS.join(", ")}, password ${DEMO_PASSWORD}`);
    }
    await reissueLicenseFiles(db);
  });
}

// Once per process (a development rebuild of the app finds it on globalThis); every module that imports this one
// waits until the database is ready.
const globalForDb = globalThis as unknown as { __portalDatabaseReady?: Promise<void> };
await (globalForDb.__portalDatabaseReady ??= prepareDatabase());
