import { randomBytes } from "node:crypto";
import { cp, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { migrate } from "drizzle-orm/node-postgres/migrator";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, expect, inject } from "vitest";
import type { PostgresDatabase } from "~/server/platform/database/postgres.server";
import { createDatabase, dropDatabase } from "../../scripts/postgres-cluster.mjs";

/**
 * A PostgreSQL database of this test file's own, made before its tests and dropped after them: a copy of the
 * migrated template (tests/support/postgres-global-setup.ts), or an empty one for a test that migrates it
 * itself. `url` is set once the tests run.
 */
export function postgresTestDatabase(kind: "migrated" | "empty" = "migrated") {
  const database = { url: "", name: `portal_test_${randomBytes(6).toString("hex")}` };
  const { server, template } = inject("postgres");
  beforeAll(async () => {
    database.url = await createDatabase(server, database.name, kind === "migrated" ? template : undefined);
  }, 30_000);
  afterAll(() => dropDatabase(server, database.name), 30_000);
  return database;
}

/**
 * The portal started on this database (its start-up, without the jobs: migrations, secrets, the demo seed), for a
 * file whose modules must run on it: the modules choose their engine and tables when they load, so they are loaded
 * after DATABASE_URL names it.
 */
export async function startPortalOn(url: string): Promise<void> {
  process.env.DATABASE_URL = url;
  const { boot } = await import("~/server/boot.server");
  await boot({ jobs: false });
}

/**
 * Migrates `db` as it was before the migration whose tag ends with `tagEnding` (every migration of the journal
 * before that one), for a test that adds rows to the schema of then and checks what that migration makes of them.
 */
export async function migrateBefore(db: PostgresDatabase, tagEnding: string) {
  const folder = await mkdtemp(path.join(tmpdir(), "gk-migrations-"));
  try {
    await cp(path.join(process.cwd(), "db/migrations-postgres"), folder, { recursive: true });
    const journalFile = path.join(folder, "meta/_journal.json");
    const journal = JSON.parse(await readFile(journalFile, "utf8")) as { entries: { tag: string }[] };
    const at = journal.entries.findIndex((entry) => entry.tag.endsWith(tagEnding));
    expect(at, `a migration whose tag ends with ${tagEnding}`).toBeGreaterThan(0);
    journal.entries = journal.entries.slice(0, at);
    await writeFile(journalFile, JSON.stringify(journal));
    await migrate(db, { migrationsFolder: folder });
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
}

/**
 * Inserts people naming only the columns every version of the users table has (a later migration adds
 * search_email, which the start-up fills), with a placeholder password hash.
 */
export async function insertUsers(
  db: PostgresDatabase,
  rows: { id: string; email: string; firstName: string; lastName: string }[],
) {
  const values = rows.map((row) => sql`(${row.id}, ${row.email}, 'x', ${row.firstName}, ${row.lastName})`);
  await db.execute(
    sql`insert into "users" ("id", "email", "password_hash", "first_name", "last_name") values ${sql.join(values, sql`, `)}`,
  );
}

/**
 * Inserts memberships naming only the columns every version of the table has, so a test can add members to the
 * schema of before a later migration (drizzle's insert names every column of today's schema).
 */
export async function insertMemberships(
  db: PostgresDatabase,
  rows: { organizationId: string; userId: string; role: string }[],
) {
  const values = rows.map((row) => sql`(${row.organizationId}, ${row.userId}, ${row.role})`);
  await db.execute(
    sql`insert into "memberships" ("organization_id", "user_id", "role") values ${sql.join(values, sql`, `)}`,
  );
}
