/// <reference types="vite/client" />
import { existsSync } from "node:fs";
import pg from "pg";
import { expect, it } from "vitest";
import { databaseChoice } from "~/server/platform/config/database-url.server";

/**
 * Importing a module of app/ never writes to the database: the start-up (app/server/boot.server.ts) is the one
 * place that migrates, seeds, keeps secrets and starts the jobs. Every module is imported here, eagerly, before
 * the test setup's start-up runs (it runs in a beforeAll, after the file's imports), and the database is looked
 * at right after: on SQLite its file was never made; on PostgreSQL (a copy of the migrated, empty template) no
 * table holds a row. The browser's entry points (they start running on import, in a browser) are left out.
 */
const modules = import.meta.glob(
  ["../../app/**/*.{ts,tsx}", "!../../app/**/*.d.ts", "!../../app/entry.client.tsx", "!../../app/ui/page-scripts/*"],
  { eager: true },
);

async function rowsPerTable(url: string): Promise<Record<string, number>> {
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
    return counts;
  } finally {
    await client.end();
  }
}

const choice = databaseChoice(process.env.DATABASE_URL ?? "")!;
const afterImports =
  choice.engine === "sqlite"
    ? { sqliteFileMade: existsSync(choice.file) }
    : { tablesWithRows: Object.entries(await rowsPerTable(choice.url)).filter(([, rows]) => rows > 0) };

it("imports every module of app/ without writing to the database", () => {
  expect(Object.keys(modules).length).toBeGreaterThan(300);
  expect(afterImports).toEqual(choice.engine === "sqlite" ? { sqliteFileMade: false } : { tablesWithRows: [] });
});
