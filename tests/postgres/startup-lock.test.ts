import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { migratePostgres, openPostgres } from "~/server/platform/database/postgres.server";
import { withStartupLock } from "~/server/platform/database/startup-lock.server";
import { postgresTestDatabase } from "../support/postgres";

/**
 * The start-up lock's PostgreSQL side: ten instances starting at once on one empty database each migrate it under
 * the lock (an advisory lock on a connection of its own); drizzle's migrator takes none itself.
 */
const database = postgresTestDatabase("empty");
const journal = JSON.parse(readFileSync("db/migrations-postgres/meta/_journal.json", "utf8")) as { entries: unknown[] };

describe("the start-up lock on PostgreSQL", () => {
  it("lets ten instances migrate one empty database at once, one after another, each migration applied once", async () => {
    const instances = Array.from({ length: 10 }, () => openPostgres(database.url, { max: 2 }));
    let holders = 0;
    let mostAtOnce = 0;
    try {
      await Promise.all(
        instances.map(({ db }) =>
          withStartupLock({ engine: "postgres", url: database.url }, async () => {
            mostAtOnce = Math.max(mostAtOnce, ++holders);
            try {
              await migratePostgres(db);
            } finally {
              holders--;
            }
          }),
        ),
      );
      const { rows } = await instances[0].pool.query<{ n: number }>(
        "select count(*)::int as n from drizzle.__drizzle_migrations",
      );
      expect(rows[0].n).toBe(journal.entries.length);
      expect(mostAtOnce).toBe(1);
    } finally {
      await Promise.all(instances.map(({ pool }) => pool.end()));
    }
  }, 120_000);

  it("is free again once its holder's work fails", async () => {
    const lock = { engine: "postgres", url: database.url } as const;
    await expect(withStartupLock(lock, () => Promise.reject(new Error("the migration failed")))).rejects.toThrow(
      "the migration failed",
    );
    await expect(withStartupLock(lock, () => Promise.resolve("taken again"))).resolves.toBe("taken again");
  }, 60_000);

  it("fails start-up in one line, without an unhandled error, when its connection is lost while it is held", async () => {
    const { pool: admin } = openPostgres(database.url, { max: 1 });
    try {
      const held = withStartupLock({ engine: "postgres", url: database.url }, async () => {
        const { rows } = await admin.query<{ pid: number }>(
          "select pid from pg_locks where locktype = 'advisory' and granted and database = " +
            "(select oid from pg_database where datname = current_database())",
        );
        await admin.query("select pg_terminate_backend($1)", [rows[0].pid]);
        // The server's goodbye reaches the lock's client while the work goes on.
        await new Promise((resolve) => setTimeout(resolve, 300));
      });
      await expect(held).rejects.toThrow("The start-up lock's connection to PostgreSQL was lost while it was held");
    } finally {
      await admin.end();
    }
  });
});
