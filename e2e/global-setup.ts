import { execFile } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { createDatabase, dropDatabase, startCluster, stopCluster } from "../scripts/postgres-cluster.mjs";
import { PORTAL_SETTINGS } from "./portal-settings";

/** Migrates and demo-seeds the database `url` names with the built portal's `npm run migrate`, as a portal's first start would. */
async function migrateAndSeed(url: string) {
  await promisify(execFile)(process.execPath, ["scripts/migrate.mjs"], {
    env: { ...process.env, ...PORTAL_SETTINGS, DATABASE_URL: url },
    timeout: 120_000,
  });
}

/**
 * Once per run: the PostgreSQL server the projects on PostgreSQL make their portals' databases on, and a migrated and
 * demo-seeded database on each engine that a portal's own is copied from (E2E_SEEDED_POSTGRES, E2E_SEEDED_SQLITE:
 * e2e/fixtures.ts startPortal). TEST_POSTGRES_URL names a server (.ci/run starts one for the whole run); else a
 * throwaway cluster of this run's own, stopped after it. A machine without PostgreSQL still runs the SQLite project:
 * the reason is kept, and only a portal that starts on PostgreSQL fails with it. Workers inherit what is set here in
 * process.env.
 */
export default async function globalSetup() {
  const stops: (() => Promise<unknown> | void)[] = [];
  const sqlite = mkdtempSync(path.join(tmpdir(), "gk-portal-e2e-seeded-"));
  stops.push(() => rmSync(sqlite, { recursive: true, force: true }));
  await migrateAndSeed(`file:${path.join(sqlite, "portal.sqlite")}`);
  process.env.E2E_SEEDED_SQLITE = sqlite;

  if (!process.env.TEST_POSTGRES_URL) {
    try {
      const cluster = await startCluster();
      process.env.TEST_POSTGRES_URL = cluster.url;
      stops.push(() => stopCluster(cluster.directory));
    } catch (error) {
      process.env.E2E_POSTGRES_UNAVAILABLE = error instanceof Error ? error.message : String(error);
    }
  }
  const server = process.env.TEST_POSTGRES_URL;
  if (server) {
    const name = `portal_e2e_seeded_${randomBytes(6).toString("hex")}`;
    stops.push(() => dropDatabase(server, name));
    await migrateAndSeed(await createDatabase(server, name));
    process.env.E2E_SEEDED_POSTGRES = name;
  }
  return async () => {
    for (const stop of stops.reverse()) await stop();
  };
}
