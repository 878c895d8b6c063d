import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import type pg from "pg";
import { migrateSqlite } from "~/server/platform/database/sqlite.server";
import type { PostgresDatabase } from "~/server/platform/database/postgres.server";
import { migrateBefore } from "./postgres";

/**
 * The demo database as the portal left it before organizations (tests/fixtures/demo-database-before-organizations.sql:
 * the demo seed, plus a draft, a finished order, a queued mail, a distributor's trial, a session, a known browser,
 * a sign-in link and a shipping address), brought up to a later migration: what a test of a data migration runs
 * that migration on, on either engine.
 */
const FIXTURE = path.join(process.cwd(), "tests/fixtures/demo-database-before-organizations.sql");

type Row = Record<string, unknown>;

/** A copy of the migrations whose journal stops before the migration whose tag ends with `tagEnding`. */
function migrationsBefore(folder: string, tagEnding: string): string {
  const copy = mkdtempSync(path.join(tmpdir(), "gk-migrations-"));
  cpSync(folder, copy, { recursive: true });
  const journalFile = path.join(copy, "meta/_journal.json");
  const journal = JSON.parse(readFileSync(journalFile, "utf8")) as { entries: { tag: string }[] };
  const at = journal.entries.findIndex((entry) => entry.tag.endsWith(tagEnding));
  if (at < 0) throw new Error(`No migration's tag ends with ${tagEnding}.`);
  journal.entries = journal.entries.slice(0, at);
  writeFileSync(journalFile, JSON.stringify(journal));
  return copy;
}

/** The fixture in an in-memory SQLite database, migrated up to (not including) the migration ending `tagEnding`. */
export function sqliteDemoDatabaseBefore(tagEnding: string): Database.Database {
  const sqlite = new Database(":memory:");
  sqlite.exec(readFileSync(FIXTURE, "utf8"));
  sqlite.pragma("foreign_keys = ON");
  const folder = migrationsBefore(path.join(process.cwd(), "db/migrations"), tagEnding);
  try {
    migrateSqlite(sqlite, folder);
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
  return sqlite;
}

/** The fixture's rows, table by table (drizzle's own bookkeeping left out). */
function fixtureRows(): Map<string, Row[]> {
  const sqlite = new Database(":memory:");
  sqlite.exec(readFileSync(FIXTURE, "utf8"));
  const tables = sqlite
    .prepare(
      "select name from sqlite_master where type = 'table' and name not like '\\_\\_%' escape '\\' and name not like 'sqlite_%'",
    )
    .all() as { name: string }[];
  const rows = new Map(tables.map(({ name }) => [name, sqlite.prepare(`select * from "${name}"`).all() as Row[]]));
  sqlite.close();
  return rows;
}

/** A SQLite value as the PostgreSQL column takes it: milliseconds become dates, 0/1 booleans, JSON text jsonb. */
function convert(value: unknown, type: string): unknown {
  if (value === null) return null;
  if (type.startsWith("timestamp")) return new Date(Number(value));
  if (type === "boolean") return value === 1;
  return value;
}

/**
 * The fixture copied row by row into an empty PostgreSQL database migrated up to before organizations (its rows'
 * schema), then migrated on up to (not including) the migration ending `tagEnding`.
 */
export async function postgresDemoDatabaseBefore(db: PostgresDatabase, pool: pg.Pool, tagEnding: string) {
  await migrateBefore(db, "_organizations");
  const client = await pool.connect();
  try {
    // Rows go in as they are, in any order: neither foreign keys nor the license_counts triggers fire meanwhile.
    await client.query("set session_replication_role = replica");
    for (const [table, rows] of fixtureRows()) {
      const { rows: columns } = await client.query<{ column_name: string; data_type: string }>(
        "select column_name, data_type from information_schema.columns where table_name = $1",
        [table],
      );
      const types = new Map(columns.map((column) => [column.column_name, column.data_type]));
      for (const row of rows) {
        const names = Object.keys(row);
        await client.query(
          `insert into "${table}" (${names.map((name) => `"${name}"`).join(", ")}) overriding system value values (${names.map((_, i) => `$${i + 1}`).join(", ")})`,
          names.map((name) => convert(row[name], types.get(name) ?? "text")),
        );
      }
    }
    await client.query("set session_replication_role = origin");
  } finally {
    client.release();
  }
  if (tagEnding !== "_organizations") await migrateBefore(db, tagEnding);
}
