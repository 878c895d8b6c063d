import { env } from "~/server/platform/env.server";
import { databaseChoice } from "./url.server";
import { migrateDatabase, openDatabase, type PortalConnection } from "./portal-database.server";
import { checkTextOrder } from "./postgres.server";
import { withStartupLock } from "./startup-lock.server";

/**
 * This process's connection to the database DATABASE_URL names (on PostgreSQL a pool of DATABASE_POOL_MAX
 * connections for transactions and DATABASE_PIPELINES pipelined ones for the statements outside them; one
 * connection on SQLite), migrated under the start-up lock before any module that imports this
 * one runs: however many processes and instances start at once, each migration is applied once. Opened once per
 * process; a development rebuild of the app finds it on globalThis.
 */
async function openMigrated(): Promise<PortalConnection> {
  const choice = databaseChoice(env.DATABASE_URL)!;
  const opened = openDatabase(env.DATABASE_URL, {
    poolMax: env.DATABASE_POOL_MAX,
    pipelines: env.DATABASE_PIPELINES,
  });
  await withStartupLock(choice, async () => {
    if (opened.engine === "postgres") await checkTextOrder(opened.pool);
    await migrateDatabase(opened);
  });
  return opened;
}

const globalForDb = globalThis as unknown as { __portalConnection?: Promise<PortalConnection> };

export const connection: PortalConnection = await (globalForDb.__portalConnection ??= openMigrated());
