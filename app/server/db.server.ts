import type Database from "better-sqlite3";
import { DEMO_ACCOUNTS, DEMO_PASSWORD, seedDemo } from "./demo-seed.server";
import { databaseFile, env } from "./env.server";
import { reissueLicenseFiles } from "./license-files.server";
import { openDatabase, type PortalDatabase } from "./sqlite.server";

export type { PortalDatabase };

const globalForDb = globalThis as unknown as { __portalDb?: ReturnType<typeof openDatabase> };

function connection() {
  if (!globalForDb.__portalDb) {
    globalForDb.__portalDb = openDatabase(databaseFile());
    if (env.SEED_DEMO && seedDemo(globalForDb.__portalDb.db)) {
      console.log(`Demo accounts seeded (SEED_DEMO=true): ${DEMO_ACCOUNTS.join(", ")}, password ${DEMO_PASSWORD}`);
    }
    reissueLicenseFiles(globalForDb.__portalDb.db);
  }
  return globalForDb.__portalDb;
}

export const db: PortalDatabase = connection().db;
/** The raw connection, for libraries that speak better-sqlite3 (the throttle counters). */
export const sqlite: Database.Database = connection().sqlite;

/** True when the database answers a trivial query; used by the health check. */
export function databaseAnswers(): boolean {
  try {
    return connection().sqlite.prepare("select 1 as ok").get() !== undefined;
  } catch {
    return false;
  }
}
