import type Database from "better-sqlite3";
import type { ExtractTablesWithRelations } from "drizzle-orm";
import type { NodePgDatabase, NodePgQueryResultHKT } from "drizzle-orm/node-postgres";
import type { PgDatabase, PgTransaction } from "drizzle-orm/pg-core";
import type pg from "pg";
import * as postgresSchema from "~db/postgres/schema";
import * as sqliteSchema from "~db/schema";
import { databaseChoice, type DatabaseChoice } from "~/server/platform/config/database-url.server";
import { migrateSqlite, openSqlite } from "./sqlite.server";
import { migratePostgres, openPostgres } from "./postgres.server";
import { asyncSqlite } from "./sqlite-async.server";

/**
 * One data layer on two engines: the app is written once, against drizzle's PostgreSQL types. On PostgreSQL
 * that is what it runs on (node-postgres, a pool); on SQLite the async SQLite database and SQLite's tables stand
 * in, cast to the same types. tests/db/schema-parity.test.ts proves the tables alike, and both drizzle dialects
 * build the same SQL for everything the app asks of them (tests/postgres/one-api-two-engines.test.ts).
 */
export type PortalSchema = typeof postgresSchema;
export type PortalDatabase = NodePgDatabase<PortalSchema>;
export type PortalTransaction = PgTransaction<
  NodePgQueryResultHKT,
  PortalSchema,
  ExtractTablesWithRelations<PortalSchema>
>;
/** The database or a transaction on it: what a function that may run inside a caller's transaction takes. */
export type PortalExecutor = PgDatabase<NodePgQueryResultHKT, PortalSchema>;

export type Engine = DatabaseChoice["engine"];

export { affectedRows } from "./sqlite-async.server";

/** The tables of an engine, under the PostgreSQL schema's types. */
export function tablesOf(engine: Engine): PortalSchema {
  return engine === "postgres" ? postgresSchema : (sqliteSchema as unknown as PortalSchema);
}

interface Opened<E extends Engine> {
  engine: E;
  db: PortalDatabase;
  tables: PortalSchema;
  /** Closes the connection (SQLite) or ends the pool (PostgreSQL). */
  close(): Promise<void>;
}

export type PortalConnection =
  | (Opened<"sqlite"> & { sqlite: Database.Database; file: string })
  | (Opened<"postgres"> & { pool: pg.Pool; url: string });

/**
 * Opens the database a URL names (file:PATH or postgres://…), without touching it: a PostgreSQL pool connects on
 * its first query, and the SQLite file is opened (made, when there is none) by its first statement. Importing the
 * app therefore never writes to a database; migrating is the start-up's (migrateDatabase).
 */
export function openDatabase(
  url: string,
  { poolMax = 5, pipelines = 0 }: { poolMax?: number; pipelines?: number } = {},
): PortalConnection {
  const choice = databaseChoice(url);
  if (!choice) throw new Error(`Not a database URL: ${url}`);
  if (choice.engine === "postgres") {
    const { db, pool } = openPostgres(choice.url, { max: poolMax, pipelines });
    // Closing twice (a test that closed it, then its teardown) is closing once.
    const close = () => (pool.ended ? Promise.resolve() : pool.end());
    return { engine: "postgres", db, tables: postgresSchema, pool, url: choice.url, close };
  }
  let handle: Database.Database | undefined;
  const sqlite = () => (handle ??= openSqlite(choice.file));
  return {
    engine: "sqlite",
    db: asyncSqlite(sqlite) as unknown as PortalDatabase,
    tables: tablesOf("sqlite"),
    get sqlite() {
      return sqlite();
    },
    file: choice.file,
    close: () => {
      if (handle?.open) handle.close();
      return Promise.resolve();
    },
  };
}

/** Applies the engine's migrations the database lacks (db/migrations or db/migrations-postgres). */
export async function migrateDatabase(connection: PortalConnection): Promise<void> {
  if (connection.engine === "postgres") await migratePostgres(connection.db);
  else migrateSqlite(connection.sqlite);
}

/**
 * Opens the (migrated) database a URL names, runs `work` on it with its tables and closes it: how a process that
 * is not the portal (an e2e test, a script) reads and writes the portal's data, on either engine.
 */
export async function withDatabase<T>(
  url: string,
  work: (db: PortalDatabase, tables: PortalSchema) => Promise<T>,
): Promise<T> {
  const connection = openDatabase(url, { poolMax: 1 });
  try {
    return await work(connection.db, connection.tables);
  } finally {
    await connection.close();
  }
}
