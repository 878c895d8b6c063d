import { randomBytes } from "node:crypto";
import type { TestProject } from "vitest/node";
import { migratePostgres, openPostgres } from "~/server/platform/database/postgres.server";
import { createDatabase, dropDatabase, startCluster, stopCluster } from "../../scripts/postgres-cluster.mjs";

declare module "vitest" {
  export interface ProvidedContext {
    /** The PostgreSQL server the tests use, and the migrated database each test file's copy is made from. */
    postgres: { server: string; template: string };
  }
}

/**
 * Once per run of the PostgreSQL tests: the server named by TEST_POSTGRES_URL (.ci/run starts one), else a
 * throwaway cluster of our own; then a template database with every PostgreSQL migration applied, which each
 * test file copies (tests/support/postgres.ts) in a tenth of a second instead of migrating its own.
 */
export default async function setup(project: TestProject) {
  const cluster = process.env.TEST_POSTGRES_URL ? undefined : await startCluster();
  const server = process.env.TEST_POSTGRES_URL ?? cluster!.url;
  const template = `portal_template_${randomBytes(4).toString("hex")}`;
  const { db, pool } = openPostgres(await createDatabase(server, template), { max: 1 });
  try {
    await migratePostgres(db);
  } finally {
    await pool.end();
  }
  project.provide("postgres", { server, template });
  return async () => {
    await dropDatabase(server, template);
    if (cluster) await stopCluster(cluster.directory);
  };
}
