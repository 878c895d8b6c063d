import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll } from "vitest";

/**
 * Every test file runs against a fresh SQLite file of its own, migrated and seeded with the demo
 * data when db.server is first imported, and removed afterwards.
 */
const directory = mkdtempSync(path.join(tmpdir(), "gk-portal-test-"));
process.env.DATABASE_URL = `file:${path.join(directory, "portal.sqlite")}`;
process.env.SEED_DEMO ??= "true";
process.env.NODE_ENV = "test";

afterAll(() => {
  rmSync(directory, { recursive: true, force: true });
});
