import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import Database from "better-sqlite3";
import { afterAll, describe, expect, it } from "vitest";

const run = promisify(execFile);
const directory = mkdtempSync(path.join(tmpdir(), "gk-portal-startup-"));
afterAll(() => rmSync(directory, { recursive: true, force: true }));

/** Starts one process that prepares the database as the portal does at start-up, and resolves when it exits. */
function startOn(file: string) {
  return run(process.execPath, ["--import", "tsx", "tests/support/prepare-database-process.ts"], {
    env: { ...process.env, DATABASE_URL: `file:${file}`, SEED_DEMO: "true", NODE_ENV: "test" },
    timeout: 240_000,
  }).then(
    (output) => ({ ok: true, output: output.stdout + output.stderr }),
    (error: { stdout?: string; stderr?: string; message: string }) => ({
      ok: false,
      output: `${error.message}\n${error.stdout ?? ""}${error.stderr ?? ""}`,
    }),
  );
}

describe("ten portal processes starting at once on one fresh SQLite file", () => {
  it("all come up, and the database is migrated once and the demo seeded once, with one secret", async () => {
    const file = path.join(directory, "portal.sqlite");
    const started = await Promise.all(Array.from({ length: 10 }, () => startOn(file)));
    expect(started.filter((process) => !process.ok).map((process) => process.output)).toEqual([]);

    const journal = JSON.parse(readFileSync("db/migrations/meta/_journal.json", "utf8")) as { entries: unknown[] };
    const sqlite = new Database(file, { readonly: true });
    try {
      const count = (sql: string) => (sqlite.prepare(sql).get() as { n: number }).n;
      expect(count("select count(*) as n from __drizzle_migrations")).toBe(journal.entries.length);
      expect(count("select count(*) as n from users")).toBe(4);
      expect(count("select count(*) as n from organizations")).toBe(3);
      expect(count("select count(*) as n from licenses")).toBeGreaterThan(0);
    } finally {
      sqlite.close();
    }
    // One seed, one announcement of it.
    expect(started.filter((process) => process.output.includes("Demo accounts seeded"))).toHaveLength(1);
    // Every process signs with the secret and key that were kept, not one it generated and lost.
    const secrets = new Set(started.map((process) => /signing key .+/.exec(process.output)?.[0]));
    expect([...secrets]).toHaveLength(1);
    expect([...secrets][0]).toBeDefined();
  }, 300_000);
});
