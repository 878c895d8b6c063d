import { mkdirSync } from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import { drizzle, type BetterSQLite3Database } from "drizzle-orm/better-sqlite3";
import { migrate } from "drizzle-orm/better-sqlite3/migrator";
import * as schema from "~db/schema";

export type PortalDatabase = BetterSQLite3Database<typeof schema>;

/**
 * Opens a SQLite file and applies pending migrations (the portal then seeds an empty one in demo mode).
 * The portal opens its database once per process (db.server); the standalone Hub simulator opens its own.
 */
export function openDatabase(file: string): { db: PortalDatabase; sqlite: Database.Database } {
  mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
  const sqlite = new Database(file);
  sqlite.pragma("journal_mode = WAL");
  sqlite.pragma("foreign_keys = ON");
  sqlite.pragma("busy_timeout = 5000");
  const db = drizzle(sqlite, { schema });
  migrate(db, { migrationsFolder: path.join(process.cwd(), "db", "migrations") });
  return { db, sqlite };
}
