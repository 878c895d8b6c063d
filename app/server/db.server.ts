import type Database from "better-sqlite3";
import { withStartupLock } from "./database/startup-lock.server";
import { DEMO_ACCOUNTS, DEMO_PASSWORD, seedDemo } from "./demo-seed.server";
import { databaseFile, env } from "./env.server";
import { reissueLicenseFiles } from "./license-files.server";
import { openDatabase, type PortalDatabase } from "./sqlite.server";

export type { PortalDatabase };

const globalForDb = globalThis as unknown as { __portalDb?: ReturnType<typeof openDatabase> };

/**
 * Opens the database and makes it ready for this process, under the start-up lock: the migrations it lacks, the
 * demo seed (SEED_DEMO, into an empty database only) and the re-issue of license files signed with an older key.
 * Each step finds what a process that held the lock before did, so however many processes start at once on one
 * database, it is migrated and seeded once. `npm run migrate` runs the same, without serving.
 */
async function openPreparedDatabase() {
  const file = databaseFile();
  return withStartupLock({ engine: "sqlite", file }, async () => {
    const opened = openDatabase(file);
    if (env.SEED_DEMO && seedDemo(opened.db)) {
      console.log(`Demo accounts seeded (SEED_DEMO=true): ${DEMO_ACCOUNTS.join(", ")}, password ${DEMO_PASSWORD}`);
    }
    reissueLicenseFiles(opened.db);
    return opened;
  });
}

// Once per process (a development rebuild of the app finds it on globalThis); every module that imports this
// one waits until the database is ready.
const connection = (globalForDb.__portalDb ??= await openPreparedDatabase());

export const db: PortalDatabase = connection.db;
/** The raw connection, for libraries that speak better-sqlite3 (the throttle counters). */
export const sqlite: Database.Database = connection.sqlite;

/**
 * True when the database answers a query that reads it; used by the health check. `select 1` alone would not
 * touch the file: this one reads its schema, in a read transaction like any page's.
 */
export function databaseAnswers(): boolean {
  try {
    return sqlite.prepare("select count(*) as tables from sqlite_schema").get() !== undefined;
  } catch {
    return false;
  }
}
