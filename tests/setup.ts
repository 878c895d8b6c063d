import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, inject } from "vitest";
import { createDatabase, dropDatabase } from "../scripts/postgres-cluster.mjs";

/**
 * Every test file whose imports reach the portal's database runs against a fresh database of its own, migrated
 * and seeded with the demo data by the portal's start-up before its tests (after its imports, so that what a file
 * mocks is what the start-up uses), and removed afterwards (the `postgres` project's files make their own databases and start the portal on one
 * themselves: tests/support/postgres.ts `startPortalOn`): a SQLite file in a temporary folder, or in the
 * `postgres-all` project (TEST_DATABASE_ENGINE=postgres) a copy of the migrated PostgreSQL template
 * (tests/support/postgres-global-setup.ts).
 *
 * On PostgreSQL the portal gets one pooled connection and no pipelined ones, so every statement takes that one
 * connection: a query on `db` made inside a transaction's callback (instead of on `tx`) then waits for itself
 * and the test times out, instead of running outside the transaction in production. The pipelines have tests
 * of their own (tests/postgres/statement-pipelines.test.ts), and the e2e tests run the portal with them.
 */
const directory = mkdtempSync(path.join(tmpdir(), "gk-portal-test-"));
const postgres = process.env.TEST_DATABASE_ENGINE === "postgres" ? inject("postgres") : null;
const postgresName = `portal_test_${randomBytes(6).toString("hex")}`;
process.env.DATABASE_URL = postgres
  ? await createDatabase(postgres.server, postgresName, postgres.template)
  : `file:${path.join(directory, "portal.sqlite")}`;
if (postgres) {
  process.env.DATABASE_POOL_MAX ??= "1";
  process.env.DATABASE_PIPELINES ??= "0";
}
process.env.SEED_DEMO ??= "true";
process.env.NODE_ENV = "test";

/** The portal's connection, once the test file's imports reach the database (platform/database/connection.server). */
const portalConnection = () => (globalThis as { __portalConnection?: { close(): Promise<void> } }).__portalConnection;

beforeAll(async () => {
  if (process.env.TEST_PORTAL_BOOT === "by-the-file") return;
  // A file whose imports never reach the database (the domain's rules, the build, the architecture) needs no portal:
  // starting one would load the whole server and seed a database for nothing, in every such file.
  if (!portalConnection()) return;
  const { boot } = await import("~/server/boot.server");
  await boot({ jobs: false });
}, 60_000);

afterAll(async () => {
  await portalConnection()?.close();
  if (postgres) await dropDatabase(postgres.server, postgresName);
  rmSync(directory, { recursive: true, force: true });
}, 60_000);
