/// <reference types="vite/client" />
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import pg from "pg";
import { expect, inject, it } from "vitest";
import { databaseChoice } from "~/server/platform/config/database-url.server";
import { withDatabase } from "../../scripts/postgres-cluster.mjs";

/**
 * Importing a module of app/ never writes to the database: the start-up (app/server/boot.server.ts) is the one
 * place that migrates, seeds, keeps secrets and starts the jobs. Every module is imported here, eagerly, before
 * the test setup's start-up runs (it runs in a beforeAll, after the file's imports), and the database, the setup's
 * copy of the seeded template, is looked at right after: on SQLite its file is still the template's, byte for
 * byte, and was never opened (opening it makes its write-ahead log); on PostgreSQL every table holds the rows the
 * template holds. The browser's entry points (they start running on import, in a browser) are left out.
 */
const modules = import.meta.glob(
  ["../../app/**/*.{ts,tsx}", "!../../app/**/*.d.ts", "!../../app/entry.client.tsx", "!../../app/ui/page-scripts/*"],
  { eager: true },
);

async function rowsPerTable(url: string): Promise<[string, number][]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ name: string }>(
      "select table_name as name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE'",
    );
    const counts: Record<string, number> = {};
    for (const { name } of rows) {
      if (name === "__drizzle_migrations") continue;
      const result = await client.query<{ n: string }>(`select count(*) as n from "${name}"`);
      counts[name] = Number(result.rows[0].n);
    }
    return Object.entries(counts).sort(([a], [b]) => a.localeCompare(b));
  } finally {
    await client.end();
  }
}

const choice = databaseChoice(process.env.DATABASE_URL ?? "")!;

async function databaseAfterImports() {
  if (choice.engine === "sqlite") {
    const template = readFileSync(path.join(inject("seededSqlite"), path.basename(choice.file)));
    return { sameAsTemplate: readFileSync(choice.file).equals(template), opened: existsSync(`${choice.file}-wal`) };
  }
  const { seeded } = inject("postgres");
  return {
    rows: await rowsPerTable(choice.url),
    templateRows: await rowsPerTable(withDatabase(choice.url, seeded!)),
  };
}
const afterImports = await databaseAfterImports();

it("imports every module of app/ without writing to the database", () => {
  expect(Object.keys(modules).length).toBeGreaterThan(300);
  if ("rows" in afterImports) expect(afterImports.rows).toEqual(afterImports.templateRows);
  else expect(afterImports).toEqual({ sameAsTemplate: true, opened: false });
});
