import { randomUUID } from "node:crypto";
import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { openDatabase } from "~/server/platform/database/portal-database.server";
import { startInstanceProcess, waitingOnLocks } from "../support/instance-process";
import { postgresTestDatabase } from "../support/postgres";

/**
 * Two tabs starting a trial, each answered by another portal instance (two processes, each with its own pool, as
 * behind a load balancer): the organization gets one trial. Each instance counts the organization's trials and
 * inserts its license in one transaction; without the trial lock both could count none before either inserts.
 * The test makes that interleaving certain instead of lucky: it holds the organization's row of license_counts,
 * which the insert's trigger must update, so a transaction that got as far as its insert waits there. Only once
 * both instances wait (both past their count without the lock; one at its insert and one at the lock with it) is
 * the row let go.
 */
const database = postgresTestDatabase();

/** A portal instance on the test database, ready to start the trial once told to go. */
function startInstance(organizationId: string) {
  const instance = startInstanceProcess("start-trial-process.ts", [organizationId, randomUUID()], {
    DATABASE_URL: database.url,
  });
  return {
    ...instance,
    /** What the instance said once it exited: "licensed <id>" or "used up". */
    async outcome() {
      const output = await instance.finished();
      return /^(licensed|used up)\b/m.exec(output)?.[1] ?? output;
    },
  };
}

describe("two instances starting a trial at once for one organization", () => {
  it("make one trial: the second counts the first's license and is refused", async () => {
    const connection = openDatabase(database.url, { poolMax: 2 });
    if (connection.engine !== "postgres") throw new Error("The test database is PostgreSQL.");
    const { db, tables, pool } = connection;
    const organizationId = randomUUID();
    await db.insert(tables.organizations).values({ id: organizationId, name: "Two Tabs Ltd" });
    await db.insert(tables.licenseCounts).values({ ownerId: organizationId, total: 0 });
    const instances = [startInstance(organizationId), startInstance(organizationId)];
    const holder = await pool.connect();
    try {
      await Promise.all(instances.map((instance) => instance.ready));
      await holder.query("begin");
      await holder.query("select total from license_counts where owner_id = $1 for update", [organizationId]);
      for (const instance of instances) instance.go();

      const until = Date.now() + 120_000;
      while ((await waitingOnLocks(pool)) < 2) {
        if (Date.now() > until) throw new Error("The two instances never both reached the trial's transaction.");
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      await holder.query("commit");

      const outcomes = await Promise.all(instances.map((instance) => instance.outcome()));
      expect(outcomes.sort()).toEqual(["licensed", "used up"]);
      const trialLicenses = await db
        .select({ id: tables.licenses.id })
        .from(tables.licenses)
        .where(and(eq(tables.licenses.ownerId, organizationId), eq(tables.licenses.type, "trial")));
      expect(trialLicenses).toHaveLength(1);
    } finally {
      await holder.query("rollback").catch(() => undefined);
      holder.release();
      for (const instance of instances) instance.stop();
      await connection.close();
    }
  }, 240_000);
});
