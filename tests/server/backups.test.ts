import { execFile } from "node:child_process";
import { randomBytes } from "node:crypto";
import { copyFileSync, existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { eq } from "drizzle-orm";
import { afterAll, expect, inject, it } from "vitest";
import { db } from "~/server/platform/database/db.server";
import { users } from "~/server/platform/database/tables.server";
import { backupSqlite } from "../../scripts/backup.mjs";
import { createDatabase, dropDatabase, postgresBin } from "../../scripts/postgres-cluster.mjs";
import { restoreSqlite } from "../../scripts/restore.mjs";
import { holdings } from "../support/holdings";

/**
 * A backup taken while the portal writes, restored into a fresh portal, which then holds the same accounts,
 * licenses and invoices: on SQLite with `npm run backup` and `npm run restore`, on PostgreSQL with the pg_dump
 * and pg_restore commands the README gives.
 */
const run = promisify(execFile);
const directory = mkdtempSync(path.join(tmpdir(), "gk-portal-backup-"));
const postgres = process.env.TEST_DATABASE_ENGINE === "postgres" ? inject("postgres") : null;
const restoredName = `portal_restored_${randomBytes(6).toString("hex")}`;
afterAll(async () => {
  rmSync(directory, { recursive: true, force: true });
  if (postgres) await dropDatabase(postgres.server, restoredName);
}, 60_000);

/** Writes as the portal does under load (every account signs in, over and over) until `stop` is called. */
function keepWriting() {
  let writing = true;
  const done = (async () => {
    let writes = 0;
    const accounts = await db.select({ id: users.id }).from(users);
    while (writing) {
      for (const { id } of accounts) {
        await db.update(users).set({ lastSignedInAt: new Date() }).where(eq(users.id, id));
        writes += 1;
      }
      // A turn of the event loop between rounds, as requests come: on SQLite a statement never leaves it.
      await new Promise((resolve) => setImmediate(resolve));
    }
    return writes;
  })();
  return {
    stop: () => {
      writing = false;
      return done;
    },
  };
}

/** Backs the portal's database up while it is written, and restores the backup into a fresh database: its URL. */
async function backUpAndRestore(): Promise<string> {
  const databaseUrl = process.env.DATABASE_URL!;
  if (postgres) {
    const bin = postgresBin();
    const file = path.join(directory, "portal.dump");
    await run(path.join(bin, "pg_dump"), ["--format=custom", `--file=${file}`, `--dbname=${databaseUrl}`]);
    const fresh = await createDatabase(postgres.server, restoredName);
    await run(path.join(bin, "pg_restore"), ["--no-owner", `--dbname=${fresh}`, file]);
    return fresh;
  }
  const source = databaseUrl.slice("file:".length);
  const file = path.join(directory, "portal-backup.sqlite");
  await backupSqlite(source, file);
  const fresh = path.join(directory, "restored", "portal.sqlite");
  rmSync(path.dirname(fresh), { recursive: true, force: true });
  await run("mkdir", ["-p", path.dirname(fresh)]);
  restoreSqlite(file, fresh);
  // What the README says to keep beside the database: in demo mode the generated secrets are files beside it.
  for (const secret of [".license-signing-key.pem", ".portal-secret"]) {
    const kept = path.join(path.dirname(source), secret);
    if (existsSync(kept)) copyFileSync(kept, path.join(path.dirname(fresh), secret));
  }
  return `file:${fresh}`;
}

it(`backs up the ${postgres ? "PostgreSQL" : "SQLite"} database under load and restores it into a fresh portal that holds the same accounts, licenses and invoices`, async () => {
  const before = await holdings();
  expect(before.licenses.length).toBeGreaterThan(0);
  expect(before.invoices.length).toBeGreaterThan(0);
  const load = keepWriting();
  let restoredUrl: string;
  try {
    restoredUrl = await backUpAndRestore();
  } finally {
    expect(await load.stop()).toBeGreaterThan(0);
  }
  const { stdout } = await run(process.execPath, ["--import", "tsx", "tests/support/holdings-process.ts"], {
    env: { ...process.env, DATABASE_URL: restoredUrl, SEED_DEMO: "true", NODE_ENV: "test", LOG_LEVEL: "silent" },
    timeout: 120_000,
  });
  expect(JSON.parse(stdout.trim().split("\n").pop()!)).toEqual(before);
}, 180_000);

it("refuses what is not a portal database, and keeps the database a restore replaces", async () => {
  if (postgres) return;
  const source = process.env.DATABASE_URL!.slice("file:".length);
  const empty = path.join(directory, "not-a-portal.sqlite");
  await run(process.execPath, ["-e", `new (require("better-sqlite3"))(${JSON.stringify(empty)}).close()`]);
  expect(() => restoreSqlite(empty, path.join(directory, "target.sqlite"))).toThrow(/not a portal database/);
  await expect(backupSqlite(source, empty)).rejects.toThrow(/exists already/);
  const target = path.join(directory, "again", "portal.sqlite");
  await run("mkdir", ["-p", path.dirname(target)]);
  const file = path.join(directory, "second-backup.sqlite");
  await backupSqlite(source, file);
  restoreSqlite(file, target);
  const kept = restoreSqlite(file, target);
  expect(kept && existsSync(kept)).toBe(true);
});
