import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { and, asc, eq, sql, type AnyColumn, type SQL } from "drizzle-orm";
import { RateLimiterPostgres, RateLimiterSQLite, type RateLimiterStoreAbstract } from "rate-limiter-flexible";
import { connection } from "./connection.server";
import type { PortalTransaction } from "./portal-database.server";
import { withStartupLock } from "./startup-lock.server";
import { jobs, portalSecrets } from "./tables.server";

/**
 * Everything that differs between the two engines, one function each; nothing else in the app asks which engine
 * it runs on. SQLite serializes writers (one transaction at a time across processes, begun IMMEDIATE);
 * PostgreSQL runs them side by side, so what SQLite gets from that for free, PostgreSQL gets here from row and
 * advisory locks.
 */

export { affectedRows } from "./portal-database.server";

const db = connection.db;

/**
 * The claim's condition on the job it takes, given what makes a job due. On PostgreSQL the next due job is
 * picked `for update skip locked`: concurrent claims each take a different job, instead of all waiting on the
 * first one's row and then coming back empty. On SQLite claims are serialized, so the next due job is simply the
 * first, checked again as the update runs.
 */
export function claimCondition(due: SQL): SQL {
  const next = db.select({ id: jobs.id }).from(jobs).where(due).orderBy(asc(jobs.nextRunAt)).limit(1);
  if (connection.engine === "postgres") return eq(jobs.id, next.for("update", { skipLocked: true }));
  return and(eq(jobs.id, next), due)!;
}

/**
 * A number at the top level of a JSON column, read in SQL (e.g. an estimate's amountDue), so that a list reads that
 * field instead of every row's whole document: SQLite's json_extract of the text, PostgreSQL's ->> of the jsonb as a
 * float8 (exact for cents; an int4 would overflow past $21 million, and int8 and numeric arrive as strings).
 */
export function jsonNumber(column: AnyColumn, field: string): SQL<number> {
  // The field is written into the statement: a name of the code's, never a request's.
  if (!/^\w+$/.test(field)) throw new Error(`Not a JSON field name: ${field}`);
  if (connection.engine === "postgres") return sql<number>`(${column} ->> ${sql.raw(`'${field}'`)})::float8`;
  return sql<number>`json_extract(${column}, ${sql.raw(`'$.${field}'`)})`;
}

/**
 * Holds a lock named by `key` until the transaction ends, so that transactions on the same thing (one person's
 * trials, one billing customer's balance, one idempotency key) run one after another and a read followed by a
 * write cannot interleave with another's. On PostgreSQL an advisory transaction lock; on SQLite nothing, as its
 * transactions already run one at a time across processes.
 */
export async function lockFor(tx: PortalTransaction, key: string): Promise<void> {
  if (connection.engine === "postgres")
    await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${key}, 0))`);
}

/**
 * A throttle's counters in the rate_limits table, with rate-limiter-flexible's store for the engine: on
 * PostgreSQL on this process's pool, so every instance counts in one place; on SQLite on the connection itself.
 * Each consume is one atomic upsert either way.
 */
export function rateLimiter(options: {
  keyPrefix: string;
  points: number;
  duration: number;
}): RateLimiterStoreAbstract {
  // The table comes from the portal's migrations, not from the library.
  const table = { tableName: "rate_limits", tableCreated: true, ...options };
  if (connection.engine === "postgres") {
    return new RateLimiterPostgres({ storeClient: connection.pool, storeType: "pool", ...table });
  }
  return new RateLimiterSQLite({ storeClient: connection.sqlite, storeType: "better-sqlite3", ...table });
}

/**
 * True when the database answers a query that reads it (the health check): the pool on PostgreSQL; on SQLite
 * the schema, since `select 1` alone would not touch the file.
 */
export async function databaseAnswers(): Promise<boolean> {
  try {
    if (connection.engine === "postgres") return (await connection.pool.query("select 1 as ok")).rowCount === 1;
    return connection.sqlite.prepare("select count(*) as tables from sqlite_schema").get() !== undefined;
  } catch {
    return false;
  }
}

/**
 * A secret the portal makes for itself (demo mode), the same for every process, and kept. On PostgreSQL a row of
 * portal_secrets: the first instance to get there inserts its candidate and every other reads that one. On SQLite
 * a file beside the database, readable only by its owner, made under the start-up lock so that processes starting
 * together keep the first one's.
 */
export async function keptSecret(secret: { name: string; file: string }, generate: () => string): Promise<string> {
  if (connection.engine === "postgres") {
    await db.insert(portalSecrets).values({ name: secret.name, value: generate() }).onConflictDoNothing();
    const [kept] = await db
      .select({ value: portalSecrets.value })
      .from(portalSecrets)
      .where(eq(portalSecrets.name, secret.name));
    if (!kept) throw new Error(`The secret ${secret.name} was not kept.`);
    return kept.value;
  }
  const file = path.join(path.dirname(path.resolve(connection.file)), secret.file);
  if (existsSync(file)) return readFileSync(file, "utf8").trim();
  return withStartupLock({ engine: "sqlite", file: connection.file }, () => {
    if (!existsSync(file)) {
      mkdirSync(path.dirname(file), { recursive: true });
      writeFileSync(file, generate(), { mode: 0o600 });
    }
    return Promise.resolve(readFileSync(file, "utf8").trim());
  });
}

/** The time (drizzle's journal `when`) of the newest migration this build holds for the engine, read once. */
let newestMigration: number | undefined;
function newestMigrationOfThisBuild(): number {
  if (newestMigration === undefined) {
    const folder = connection.engine === "postgres" ? "migrations-postgres" : "migrations";
    const journal = JSON.parse(
      readFileSync(path.join(process.cwd(), "db", folder, "meta", "_journal.json"), "utf8"),
    ) as {
      entries: { when: number }[];
    };
    newestMigration = Math.max(...journal.entries.map((entry) => entry.when));
  }
  return newestMigration;
}

/**
 * Whether the database has every migration this build holds (a newer build's as well is fine: migrations only
 * add). drizzle's migrator records each applied migration with its journal time.
 */
export async function migrationsApplied(): Promise<boolean> {
  const newest =
    connection.engine === "postgres"
      ? (
          await connection.pool.query<{ at: string | null }>(
            "select max(created_at) as at from drizzle.__drizzle_migrations",
          )
        ).rows[0]?.at
      : (
          connection.sqlite.prepare("select max(created_at) as at from __drizzle_migrations").get() as {
            at: number | null;
          }
        ).at;
  return Number(newest ?? 0) >= newestMigrationOfThisBuild();
}
