import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { drizzle } from "drizzle-orm/better-sqlite3";
import { migrate } from "drizzle-orm/better-sqlite3/migrator";
import { afterAll, describe, expect, it } from "vitest";
import { migrateSqlite } from "~/server/platform/database/sqlite.server";

/**
 * The migration that moves the Hub administrator's token out of the jobs, run on a database as the portal left
 * it before: a finished deployment (its token goes to the Hub installation), one that stopped after set-up (its
 * token goes to its input, where the next steps read it), and a deployment still under way (it holds its
 * license from then on).
 */
const MIGRATION = "0011_mail_known_devices_one_time_tokens_hub_tokens";
const directory = mkdtempSync(path.join(tmpdir(), "gk-migration-"));
afterAll(() => rmSync(directory, { recursive: true, force: true }));

function migrationsUpTo(tag: string | null): string {
  const folder = path.join(directory, tag ? "before" : "all");
  cpSync(path.join(process.cwd(), "db", "migrations"), folder, { recursive: true });
  if (tag) {
    const journalFile = path.join(folder, "meta", "_journal.json");
    const journal = JSON.parse(readFileSync(journalFile, "utf8")) as { entries: { tag: string }[] };
    journal.entries = journal.entries.slice(
      0,
      journal.entries.findIndex((entry) => entry.tag === tag),
    );
    writeFileSync(journalFile, JSON.stringify(journal));
  }
  return folder;
}

describe(`migration ${MIGRATION}`, () => {
  it("moves the sealed token onto the Hub installation or into the input, strips it from every job, and holds running deployments' licenses", () => {
    const sqlite = new Database(path.join(directory, "portal.sqlite"));
    const db = drizzle(sqlite);
    migrate(db, { migrationsFolder: migrationsUpTo(MIGRATION) });
    const steps = (done: string[]) =>
      JSON.stringify(
        Object.fromEntries(
          done.map((step) => [
            step,
            {
              status: "done",
              result:
                step === "set-up-admin"
                  ? { jwt: `v1.sealed-${done.length}` }
                  : step === "record-hub"
                    ? { hubId: "hub_one", url: "https://one.example" }
                    : null,
            },
          ]),
        ),
      );
    sqlite.exec(`
      insert into users (id, email, password_hash, first_name, last_name) values ('u', 'u@example.com', 'x', 'U', 'U');
      insert into licenses (id, owner_id, external_license_id, name, nodes, plan_type, type, valid_from, valid_to, license_code)
        values ('running-license', 'u', 'GK-1', 'One', 5, 'core', 'recurring', 0, 9999999999999, '{}');
      insert into hub_installations (id, owner_id, type) values ('hub_one', 'u', 'cloud');
    `);
    const insertJob = sqlite.prepare(
      "insert into jobs (id, kind, owner_id, idempotency_key, input, steps, status, result) values (?, 'cloud-hub', 'u', ?, ?, ?, ?, ?)",
    );
    const finishedSteps = steps(["create-tenant", "set-up-admin", "upload-license", "record-hub"]);
    insertJob.run(
      "finished",
      "k1",
      "{}",
      finishedSteps,
      "succeeded",
      JSON.stringify(
        Object.fromEntries(
          Object.entries(JSON.parse(finishedSteps)).map(([name, state]) => [
            name,
            (state as { result: unknown }).result,
          ]),
        ),
      ),
    );
    insertJob.run("stopped", "k2", "{}", steps(["create-tenant", "set-up-admin"]), "failed", null);
    insertJob.run("running", "k3", JSON.stringify({ licenseId: "running-license" }), "{}", "queued", null);

    // The rest as the portal applies them (the later ones rebuild tables, so with foreign keys off).
    migrateSqlite(sqlite, migrationsUpTo(null));
    const job = (id: string) =>
      sqlite.prepare("select input, steps, result from jobs where id = ?").get(id) as Record<string, string | null>;
    expect(sqlite.prepare("select admin_token from hub_installations").get()).toEqual({ admin_token: "v1.sealed-4" });
    expect(JSON.parse(job("stopped").input ?? "")).toEqual({ adminToken: "v1.sealed-2" });
    expect(JSON.parse(job("finished").input ?? "")).toEqual({});
    for (const id of ["finished", "stopped"]) {
      expect(JSON.stringify([job(id).steps, job(id).result])).not.toContain("sealed");
    }
    expect(JSON.parse(job("finished").steps ?? "")["set-up-admin"]).toEqual({ status: "done", result: {} });
    expect(sqlite.prepare("select hub_job_id from licenses").get()).toEqual({ hub_job_id: "running" });
    sqlite.close();
  });
});
