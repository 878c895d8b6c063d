import { execFile } from "node:child_process";
import { generateKeyPairSync, randomBytes } from "node:crypto";
import { mkdtempSync, readFileSync, realpathSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

/**
 * `npm run migrate` as a deployment runs it: scripts/migrate.mjs in a folder laid out as the Docker image is
 * (build/, db/migrations, node_modules), with its own copy of the bundle scripts/build-migrate.mjs makes at build
 * time, and configuration only from the environment.
 */
const run = promisify(execFile);
const ROOT = process.cwd();
const app = mkdtempSync(path.join(tmpdir(), "gk-portal-migrate-"));
afterAll(() => rmSync(app, { recursive: true, force: true }));

beforeAll(async () => {
  await run(process.execPath, ["scripts/build-migrate.mjs", path.join(app, "build")], { timeout: 60_000 });
  symlinkSync(realpathSync("node_modules"), path.join(app, "node_modules"));
  symlinkSync(path.join(ROOT, "db"), path.join(app, "db"));
}, 90_000);

function migrate(env: Record<string, string>) {
  return run(process.execPath, [path.join(ROOT, "scripts/migrate.mjs")], {
    cwd: app,
    // As in the image (a real deployment unless SEED_DEMO says otherwise).
    env: { ...process.env, NODE_ENV: "production", ...env },
    timeout: 60_000,
  });
}

function counts(file: string) {
  const sqlite = new Database(file, { readonly: true });
  try {
    const count = (table: string) => (sqlite.prepare(`select count(*) as n from ${table}`).get() as { n: number }).n;
    return { migrations: count("__drizzle_migrations"), users: count("users"), organizations: count("organizations") };
  } finally {
    sqlite.close();
  }
}

const migrationCount = (
  JSON.parse(readFileSync(path.join(ROOT, "db/migrations/meta/_journal.json"), "utf8")) as { entries: unknown[] }
).entries.length;

describe("npm run migrate", () => {
  it("migrates and, with SEED_DEMO, seeds the demo once, then exits 0; run again, finds it done", async () => {
    const DATABASE_URL = `file:${path.join(app, "data/demo.sqlite")}`;
    const first = await migrate({ DATABASE_URL, SEED_DEMO: "true" });
    expect(first.stdout).toContain("Demo accounts seeded");
    expect(first.stdout).toContain("The database is ready.");
    const again = await migrate({ DATABASE_URL, SEED_DEMO: "true" });
    expect(again.stdout).not.toContain("Demo accounts seeded");
    expect(again.stdout).toContain("The database is ready.");
    expect(counts(path.join(app, "data/demo.sqlite"))).toEqual({
      migrations: migrationCount,
      users: 4,
      // Northwind Clinics, SecureLine Resellers and its three end customers, GateKeeper.
      organizations: 6,
    });
  }, 120_000);

  it("migrates a real deployment's database without seeding it", async () => {
    const file = path.join(app, "data/real.sqlite");
    const { stdout } = await migrate({
      DATABASE_URL: `file:${file}`,
      SEED_DEMO: "false",
      SESSION_SECRET: randomBytes(32).toString("hex"),
      LICENSE_SIGNING_KEY: generateKeyPairSync("ed25519")
        .privateKey.export({ type: "pkcs8", format: "pem" })
        .toString(),
      SELLER_LEGAL_NAME: "GateKeeper Ltd.",
      SELLER_ADDRESS: "1 Quay Street|Dublin 2",
      SELLER_VAT_NUMBER: "IE6388047V",
    });
    expect(stdout).toContain("The database is ready.");
    expect(counts(file)).toEqual({ migrations: migrationCount, users: 0, organizations: 0 });
  }, 120_000);

  it("stops with exit code 1 and the reason when the configuration is incomplete", async () => {
    const failed = await migrate({
      DATABASE_URL: `file:${path.join(app, "data/none.sqlite")}`,
      SEED_DEMO: "false",
    }).then(
      () => undefined,
      (error: { code?: number; stderr?: string }) => error,
    );
    expect(failed?.code).toBe(1);
    expect(failed?.stderr).toContain("SESSION_SECRET is required");
  }, 120_000);
});
