import { mkdirSync } from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import { drizzle, type BetterSQLite3Database } from "drizzle-orm/better-sqlite3";
import { migrate } from "drizzle-orm/better-sqlite3/migrator";
import * as schema from "~db/schema";
import { seedDemo } from "~db/seed";
import { databaseFile, env } from "./env.server";

export type PortalDatabase = BetterSQLite3Database<typeof schema>;

/**
 * Opens the SQLite file, applies pending migrations and, in demo mode, seeds an empty database.
 * Runs once per process when the server build is loaded, so a fresh clone starts with a working portal.
 */
function openDatabase(file: string): { db: PortalDatabase; sqlite: Database.Database } {
  mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
  const sqlite = new Database(file);
  sqlite.pragma("journal_mode = WAL");
  sqlite.pragma("foreign_keys = ON");
  sqlite.pragma("busy_timeout = 5000");
  const db = drizzle(sqlite, { schema });
  migrate(db, { migrationsFolder: path.join(process.cwd(), "db", "migrations") });
  return { db, sqlite };
}

const globalForDb = globalThis as unknown as { __portalDb?: ReturnType<typeof openDatabase> };

function connection() {
  if (!globalForDb.__portalDb) {
    globalForDb.__portalDb = openDatabase(databaseFile());
    if (env.SEED_DEMO) seedDemo(globalForDb.__portalDb.db);
  }
  return globalForDb.__portalDb;
}

export const db: PortalDatabase = connection().db;

/** True when the database answers a trivial query; used by the health check. */
export function databaseAnswers(): boolean {
  try {
    return connection().sqlite.prepare("select 1 as ok").get() !== undefined;
  } catch {
    return false;
  }
}
