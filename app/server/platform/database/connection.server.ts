import { env } from "~/server/platform/config/env.server";
import { databaseChoice } from "~/server/platform/config/database-url.server";
import { migrateDatabase, openDatabase, type PortalConnection } from "./portal-database.server";
import { checkTextOrder } from "./postgres.server";
import { withStartupLock } from "./startup-lock.server";

/**
 * This process's connection to the database DATABASE_URL names (on PostgreSQL a pool of DATABASE_POOL_MAX
 * connections for transactions and DATABASE_PIPELINES pipelined ones for the statements outside them; one
 * connection on SQLite). Made on import without touching the database (openDatabase); once per process, and a
 * development rebuild of the app finds it on globalThis.
 */
const globalForDb = globalThis as unknown as { __portalConnection?: PortalConnection };
export const connection: PortalConnection = (globalForDb.__portalConnection ??= openDatabase(env.DATABASE_URL, {
  poolMax: env.DATABASE_POOL_MAX,
  pipelines: env.DATABASE_PIPELINES,
}));

/** The database's engine and where it is, for the start-up lock. */
export const databaseInUse = () => databaseChoice(env.DATABASE_URL)!;

/**
 * The start-up's first step: the migrations the database lacks, under the start-up lock, so that however many
 * processes and instances start at once, each migration is applied once. A PostgreSQL database that does not
 * sort text by code point is refused first.
 */
export async function migratePortalDatabase(): Promise<void> {
  await withStartupLock(databaseInUse(), async () => {
    if (connection.engine === "postgres") await checkTextOrder(connection.pool);
    await migrateDatabase(connection);
  });
}
