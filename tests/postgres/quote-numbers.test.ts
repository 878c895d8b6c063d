import { eq, like } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { openDatabase } from "~/server/platform/database/portal-database.server";
import { startInstanceProcess, waitingOnLocks } from "../support/instance-process";
import { postgresTestDatabase } from "../support/postgres";

/**
 * Quote numbers across portal instances: two processes, each with its own pool (as behind a load balancer), make
 * quotes at once for one organization, as 'Save as quote' makes them. Each quote takes the year's next number in
 * the transaction that writes it, by one upsert of the year's counter whose row lock makes the makers take turns:
 * every number is taken once and none is skipped. The test makes the overlap certain instead of lucky: it holds the
 * counter's row until makers of both instances wait on it.
 */
const database = postgresTestDatabase();
const PER_INSTANCE = 6;
const OWNER = "customer@example.com";
/** Each instance's pool (DATABASE_POOL_MAX), fewer than its makers, so that some of them wait for a connection. */
const POOL_MAX = 4;

/** A portal instance on the test database, ready to make its quotes once told to go. */
function startInstance() {
  const instance = startInstanceProcess("make-quotes-process.ts", [OWNER, String(PER_INSTANCE)], {
    DATABASE_URL: database.url,
    DATABASE_POOL_MAX: String(POOL_MAX),
  });
  return {
    ...instance,
    /** The numbers of the quotes the instance made. */
    async numbers(): Promise<string[]> {
      const output = await instance.finished();
      const said = /^numbers (.*)$/m.exec(output)?.[1];
      if (!said) throw new Error(`The instance made no quotes:\n${output}`);
      return JSON.parse(said) as string[];
    },
  };
}

describe("two instances making quotes at once", () => {
  it("give every quote a distinct number, consecutive from the year's last", async () => {
    const connection = openDatabase(database.url, { poolMax: 2 });
    if (connection.engine !== "postgres") throw new Error("The test database is PostgreSQL.");
    const { db, tables, pool } = connection;
    const instances = [startInstance(), startInstance()];
    const holder = await pool.connect();
    try {
      await Promise.all(instances.map((instance) => instance.ready));
      // The year's counter row, made (as the first quote of a year makes it) and held.
      const year = new Date().getUTCFullYear();
      await holder.query("begin");
      const { rows } = await holder.query<{ last: number }>(
        "insert into quote_counters (year, last) values ($1, 0) on conflict (year) do update set last = quote_counters.last returning last",
        [year],
      );
      const last = rows[0].last;
      const numbersOfTheYear = async () =>
        (
          await db
            .select({ number: tables.quotes.number })
            .from(tables.quotes)
            .where(like(tables.quotes.number, `Q-${year}-%`))
        ).map((quote) => quote.number);
      const before = await numbersOfTheYear();
      for (const instance of instances) instance.go();

      // Both instances' makers wait on the held row before it is let go: more waiting than one instance's pool holds.
      const until = Date.now() + 60_000;
      while ((await waitingOnLocks(pool)) <= POOL_MAX) {
        if (Date.now() > until) {
          throw new Error(
            `The two instances never both waited on the year's counter (${await waitingOnLocks(pool)} waiting):\n${instances.map((instance) => instance.said()).join("\n")}`,
          );
        }
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      await holder.query("commit");

      const [first, second] = await Promise.all(instances.map((instance) => instance.numbers()));
      expect(first).toHaveLength(PER_INSTANCE);
      expect(second).toHaveLength(PER_INSTANCE);
      const expected = Array.from(
        { length: 2 * PER_INSTANCE },
        (_, n) => `Q-${year}-${String(last + n + 1).padStart(4, "0")}`,
      );
      expect([...first, ...second].sort()).toEqual(expected);
      // The quotes' rows carry them, besides any the year had before.
      expect((await numbersOfTheYear()).sort()).toEqual([...before, ...expected].sort());
      const [counter] = await db.select().from(tables.quoteCounters).where(eq(tables.quoteCounters.year, year));
      expect(counter.last).toBe(last + 2 * PER_INSTANCE);
    } finally {
      await holder.query("rollback").catch(() => undefined);
      holder.release();
      for (const instance of instances) instance.stop();
      await connection.close();
    }
  }, 240_000);
});
