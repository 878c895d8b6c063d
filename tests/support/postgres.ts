import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, inject } from "vitest";
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
