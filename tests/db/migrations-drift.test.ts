import { execFile } from "node:child_process";
import { cp, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import type { Config } from "drizzle-kit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import postgresConfig from "../../drizzle.config.postgres";
import sqliteConfig from "../../drizzle.config";

/**
 * Each schema's migrations are complete: `drizzle-kit generate`, run into a copy of the migration folder, has
 * nothing left to write. A change to db/schema.ts or db/postgres/*.ts without `npm run db:generate` and
 * `npm run db:generate:postgres` fails here.
 */

const run = promisify(execFile);
const root = process.cwd();
const GENERATE_MS = 90_000;

let scratch: string;
beforeAll(async () => {
  scratch = await mkdtemp(path.join(tmpdir(), "gk-drift-"));
});
afterAll(() => rm(scratch, { recursive: true, force: true }));

async function listing(folder: string) {
  const files = await readdir(folder, { recursive: true });
  return Object.fromEntries(
    await Promise.all(
      files.sort().map(async (file) => [file, await readFile(path.join(folder, file), "utf8").catch(() => "")]),
    ),
  );
}

/** The files `drizzle-kit generate` would add or change for `schema`, given the migrations in `out`. */
async function pendingMigration(config: { dialect: string; schema: string; out: string }, schema = config.schema) {
  const folder = await mkdtemp(path.join(scratch, `${config.dialect}-`));
  await cp(path.join(root, config.out), folder, { recursive: true });
  const before = await listing(folder);
  const { stdout } = await run(
    process.execPath,
    [
      path.join(root, "node_modules/drizzle-kit/bin.cjs"),
      "generate",
      `--dialect=${config.dialect}`,
      `--schema=${schema}`,
      // drizzle-kit takes the folder relative to the working directory.
      `--out=${path.relative(root, folder)}`,
    ],
    // A question (a possible rename) would wait for an answer forever: no input, and a time limit, count as drift.
    { cwd: root, timeout: GENERATE_MS, env: { ...process.env, FORCE_COLOR: "0" } },
  );
  const after = await listing(folder);
  // drizzle-kit exits with 0 even when it fails to read the folder or the schema: it must have said so itself.
  if (!stdout.includes("nothing to migrate") && Object.keys(after).length === Object.keys(before).length) {
    throw new Error(`drizzle-kit generate neither wrote a migration nor found none to write:\n${stdout}`);
  }
  return Object.keys(after).filter((file) => after[file] !== before[file]);
}

/** A drizzle config's one schema file and migration folder. */
function paths(config: Config) {
  if (typeof config.schema !== "string" || !config.out)
    throw new Error("A config names one schema file and its out folder.");
  return { dialect: config.dialect, schema: config.schema, out: config.out };
}

const configs = { sqlite: paths(sqliteConfig), postgresql: paths(postgresConfig) };

/** A schema file that is the real one plus one table no migration creates. */
async function schemaWithOneMoreTable(dialect: keyof typeof configs) {
  const file = path.join(scratch, `${dialect}-probe.ts`);
  const core = path.join(
    root,
    "node_modules/drizzle-orm",
    dialect === "sqlite" ? "sqlite-core/index.js" : "pg-core/index.js",
  );
  const table = dialect === "sqlite" ? "sqliteTable" : "pgTable";
  await writeFile(
    file,
    [
      `export * from ${JSON.stringify(path.join(root, configs[dialect].schema))};`,
      `import { ${table}, text } from ${JSON.stringify(core)};`,
      `export const driftProbe = ${table}("drift_probe", { id: text("id").primaryKey() });`,
    ].join("\n"),
  );
  return file;
}

describe("the migrations are complete for each schema (drizzle-kit generate writes nothing)", () => {
  it.each(Object.keys(configs) as (keyof typeof configs)[])(
    "%s",
    async (dialect) => {
      expect(await pendingMigration(configs[dialect])).toEqual([]);
      // The check itself notices a table added to the schema without a migration.
      const drift = await pendingMigration(configs[dialect], await schemaWithOneMoreTable(dialect));
      expect(drift.some((file) => file.endsWith(".sql"))).toBe(true);
    },
    4 * GENERATE_MS,
  );
});
