import { randomBytes } from "node:crypto";
import type { TestProject } from "vitest/node";
import { migratePostgres, openPostgres } from "~/server/platform/database/postgres.server";
import { createDatabase, dropDatabase, startCluster, stopCluster } from "../../scripts/postgres-cluster.mjs";
import { seedTemplate } from "./seeded-template";

declare module "vitest" {
  export interface ProvidedContext {
    /**
     * The PostgreSQL server the tests use, the migrated database a file that starts the portal itself copies, and
     * (for the files whose portal tests/setup.ts starts) the migrated and seeded one.
     */
    postgres: { server: string; template: string; seeded: string | undefined };
  }
}

/**
 * Once per run of the PostgreSQL tests: the server named by TEST_POSTGRES_URL (.ci/run starts one), else a
 * throwaway cluster of our own; then a template database with every PostgreSQL migration applied, which each
 * test file copies (tests/support/postgres.ts) in a tenth of a second instead of migrating its own, and for the
 * project whose files tests/setup.ts starts the portal for, a copy of it seeded as that start-up seeds.
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
  const seeded = project.config.env.TEST_PORTAL_BOOT === "by-the-file" ? undefined : `${template}_seeded`;
  if (seeded) await seedTemplate(await createDatabase(server, seeded, template));
  project.provide("postgres", { server, template, seeded });
  return async () => {
    if (seeded) await dropDatabase(server, seeded);
    await dropDatabase(server, template);
    if (cluster) await stopCluster(cluster.directory);
  };
}
