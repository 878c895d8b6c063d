import { mkdirSync } from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import { drizzle } from "drizzle-orm/better-sqlite3";
import { migrate } from "drizzle-orm/better-sqlite3/migrator";

/** SQLite's migrations, in the order they were written (the history existing databases were made by). */
const SQLITE_MIGRATIONS = path.join(process.cwd(), "db", "migrations");

/**
 * Opens a SQLite file with the portal's settings: write-ahead log, foreign keys, and a busy timeout for another
 * process's write. Nothing is migrated here (migrateSqlite).
 */
export function openSqlite(file: string): Database.Database {
  mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
  const sqlite = new Database(file);
  sqlite.pragma("journal_mode = WAL");
  sqlite.pragma("foreign_keys = ON");
  sqlite.pragma("busy_timeout = 5000");
  return sqlite;
}

/**
 * Applies the migrations the database lacks, the way SQLite says a table must be changed: foreign keys off
 * around them (the pragma does nothing inside the migrator's transaction, so it is set outside), then every key
 * checked. With them on, a rebuilt table's DROP would delete the rows that point at it (ON DELETE CASCADE) or
 * fail on those that may not.
 */
export function migrateSqlite(sqlite: Database.Database, migrationsFolder = SQLITE_MIGRATIONS): void {
  const enforced = sqlite.pragma("foreign_keys", { simple: true }) === 1;
  sqlite.pragma("foreign_keys = OFF");
  try {
    migrate(drizzle(sqlite), { migrationsFolder });
    const broken = sqlite.pragma("foreign_key_check") as { table: string; parent: string }[];
    if (broken.length > 0) {
      const first = broken[0];
      throw new Error(
        `The migrations left ${broken.length} rows whose keys point nowhere (${first.table} → ${first.parent}).`,
      );
    }
  } finally {
    if (enforced) sqlite.pragma("foreign_keys = ON");
  }
}
