import { execFile } from "node:child_process";
import { promisify } from "node:util";

/**
 * Migrates and seeds the database `url` names as the portal's start-up does in a test (SEED_DEMO, NODE_ENV=test),
 * in a child process. Each test file then starts from a copy of it instead of seeding its own: the demo seed
 * (password hashes, the billing engine's and Hub simulator's records) is most of a start-up's time, and a file
 * that boots on the copy finds it migrated and seeded.
 */
export async function seedTemplate(url: string, env: Record<string, string> = {}): Promise<void> {
  await promisify(execFile)(process.execPath, ["--import", "tsx", "tests/support/seed-database.ts"], {
    env: { ...process.env, ...env, DATABASE_URL: url, SEED_DEMO: "true", NODE_ENV: "test" },
  });
}
