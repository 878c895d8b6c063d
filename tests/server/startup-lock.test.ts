import { execFile } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { count, sql } from "drizzle-orm";
import { afterAll, describe, expect, inject, it } from "vitest";
import { withDatabase } from "~/server/platform/database/portal-database.server";
import { createDatabase, dropDatabase } from "../../scripts/postgres-cluster.mjs";

const run = promisify(execFile);
const directory = mkdtempSync(path.join(tmpdir(), "gk-portal-startup-"));
const postgres = process.env.TEST_DATABASE_ENGINE === "postgres" ? inject("postgres") : null;
const postgresName = `portal_startup_${randomBytes(6).toString("hex")}`;
afterAll(async () => {
  rmSync(directory, { recursive: true, force: true });
  if (postgres) await dropDatabase(postgres.server, postgresName);
}, 60_000);

/** A database no process has touched: an empty SQLite file's path, or an empty PostgreSQL database. */
async function freshDatabase(): Promise<string> {
  if (postgres) return createDatabase(postgres.server, postgresName);
  return `file:${path.join(directory, "portal.sqlite")}`;
}

/** Starts one process that prepares the database as the portal does at start-up, and resolves when it exits. */
function startOn(databaseUrl: string) {
  return run(process.execPath, ["--import", "tsx", "tests/support/prepare-database-process.ts"], {
    env: { ...process.env, DATABASE_URL: databaseUrl, SEED_DEMO: "true", NODE_ENV: "test" },
    timeout: 240_000,
  }).then(
    (output) => ({ ok: true, output: output.stdout + output.stderr }),
    (error: { stdout?: string; stderr?: string; message: string }) => ({
      ok: false,
      output: `${error.message}\n${error.stdout ?? ""}${error.stderr ?? ""}`,
    }),
  );
}

describe(`ten portal processes starting at once on one fresh ${postgres ? "PostgreSQL" : "SQLite"} database`, () => {
  it("all come up, and the database is migrated once and the demo seeded once, with one secret", async () => {
    const databaseUrl = await freshDatabase();
    const started = await Promise.all(Array.from({ length: 10 }, () => startOn(databaseUrl)));
    expect(started.filter((process) => !process.ok).map((process) => process.output)).toEqual([]);

    const journal = JSON.parse(
      readFileSync(postgres ? "db/migrations-postgres/meta/_journal.json" : "db/migrations/meta/_journal.json", "utf8"),
    ) as { entries: unknown[] };
    await withDatabase(databaseUrl, async (db, t) => {
      const migrations = sql.raw(postgres ? "drizzle.__drizzle_migrations" : "__drizzle_migrations");
      const [applied] = await db.select({ n: sql<number>`count(*)`.mapWith(Number) }).from(sql`${migrations}`);
      expect(applied.n).toBe(journal.entries.length);
      const rows = async (table: typeof t.users | typeof t.organizations | typeof t.licenses) =>
        (await db.select({ n: count() }).from(table))[0].n;
      expect(await rows(t.users)).toBe(4);
      // Northwind Clinics, SecureLine Resellers and its three end customers, GateKeeper.
      expect(await rows(t.organizations)).toBe(6);
      expect(await rows(t.licenses)).toBeGreaterThan(0);
    });
    // One seed, one announcement of it.
    expect(started.filter((process) => process.output.includes("Demo accounts seeded"))).toHaveLength(1);
    // Every process signs with the secret and key that were kept, not one it generated and lost.
    const secrets = new Set(started.map((process) => /signing key .+/.exec(process.output)?.[0]));
    expect([...secrets]).toHaveLength(1);
    expect([...secrets][0]).toBeDefined();
  }, 300_000);
});
