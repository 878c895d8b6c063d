import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { TestProject } from "vitest/node";
import { seedTemplate } from "./seeded-template";

declare module "vitest" {
  export interface ProvidedContext {
    /** A folder with a migrated and seeded SQLite database and the secrets kept beside it, which each test file copies. */
    seededSqlite: string;
  }
}

/** Once per run of the SQLite tests: the seeded database each test file starts from (tests/setup.ts). */
export default async function setup(project: TestProject) {
  const folder = mkdtempSync(path.join(tmpdir(), "gk-portal-seeded-"));
  await seedTemplate(`file:${path.join(folder, "portal.sqlite")}`);
  project.provide("seededSqlite", folder);
  return () => rmSync(folder, { recursive: true, force: true });
}
