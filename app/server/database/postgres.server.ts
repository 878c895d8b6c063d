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
  const pool = new pg.Pool({ connectionString: url, max });
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
