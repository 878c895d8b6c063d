import path from "node:path";
import { drizzle, type NodePgDatabase } from "drizzle-orm/node-postgres";
import { migrate } from "drizzle-orm/node-postgres/migrator";
import pg from "pg";
import * as schema from "~db/postgres/schema";

export type PostgresDatabase = NodePgDatabase<typeof schema>;

/**
 * Opens a pool of connections to a PostgreSQL database (`postgres://` URL) and the drizzle database on it.
 * Every process keeps its own pool: workers × instances × `max` must stay under the server's max_connections.
 */
export function openPostgres(url: string, { max = 5 }: { max?: number } = {}): { db: PostgresDatabase; pool: pg.Pool } {
  // allowExitOnIdle: a script (npm run migrate, a test) ends when its work does, without closing the pool.
  const pool = new pg.Pool({ connectionString: url, max, allowExitOnIdle: true });
  // A connection the server closes while it waits in the pool (a restart, a terminated backend) is an 'error'
  // event on the pool, which without a listener ends the process. The pool has already dropped that connection
  // and opens a new one on the next query: the event is worth a line in the log, not a crash.
  pool.on("error", (error) => {
    console.warn(JSON.stringify({ level: "warn", event: "database-connection-lost", message: error.message }));
  });
  return { db: drizzle(pool, { schema }), pool };
}

/**
 * Applies the PostgreSQL migrations (db/migrations-postgres) that the database lacks. drizzle's migrator takes
 * no lock of its own: instances starting together must call this under one.
 */
export async function migratePostgres(db: PostgresDatabase): Promise<void> {
  await migrate(db, { migrationsFolder: path.join(process.cwd(), "db", "migrations-postgres") });
}

/** Collations that sort text by code point, as SQLite does (C.UTF-8 compares UTF-8 bytes). */
const CODE_POINT_COLLATIONS = new Set(["C", "POSIX", "C.UTF-8", "C.utf8"]);

/**
 * Refuses a PostgreSQL database that sorts text by a language's rules (en_US.UTF-8, the default of many
 * installations): lists and their tie-breaks would come out in another order than on SQLite.
 */
export async function checkTextOrder(pool: pg.Pool): Promise<void> {
  const { rows } = await pool.query<{ collation: string }>(
    "select datcollate as collation from pg_database where datname = current_database()",
  );
  const collation = rows[0]?.collation ?? "";
  if (!CODE_POINT_COLLATIONS.has(collation)) {
    throw new Error(
      `The PostgreSQL database sorts text as ${collation}; the portal needs code-point order: create it with ` +
        "LC_COLLATE 'C.UTF-8' (createdb --locale=C.UTF-8 --template=template0, or initdb --locale=C.UTF-8).",
    );
  }
}
