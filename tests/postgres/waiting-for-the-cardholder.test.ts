import { count, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { openDatabase } from "~/server/platform/database/portal-database.server";
import { startInstanceProcess } from "../support/instance-process";
import { postgresTestDatabase } from "../support/postgres";

/**
 * An order whose card's bank asks the cardholder, across processes (each with its own pool, as portal instances
 * behind a load balancer): the instance that placed it exits while it waits on the bank's page (a restart), and the
 * bank's return reaches two other instances at once (a reload, a second tab). A restarted instance's runner leaves
 * the waiting job alone; one return starts it; it is charged once.
 */
const database = postgresTestDatabase();

/** A portal instance on the test database; what it printed once it exited. */
async function instance(args: string[]): Promise<string> {
  const started = startInstanceProcess("present-payment-process.ts", args, { DATABASE_URL: database.url });
  await started.ready;
  started.go();
  try {
    return await started.finished();
  } finally {
    started.stop();
  }
}

/** Two instances started together and let go at once; what each printed. */
async function twoInstances(args: string[]): Promise<string[]> {
  const instances = [0, 1].map(() =>
    startInstanceProcess("present-payment-process.ts", args, { DATABASE_URL: database.url }),
  );
  try {
    await Promise.all(instances.map((started) => started.ready));
    for (const started of instances) started.go();
    return await Promise.all(instances.map((started) => started.finished()));
  } finally {
    for (const started of instances) started.stop();
  }
}

const said = (output: string, pattern: RegExp) => {
  const match = pattern.exec(output);
  if (!match) throw new Error(`Expected ${pattern} in:\n${output}`);
  return match;
};

describe("an order waiting for the cardholder, across instances", () => {
  it("survives a restart, and the bank's return on two other instances charges it once", async () => {
    const connection = openDatabase(database.url, { poolMax: 2 });
    if (connection.engine !== "postgres") throw new Error("The test database is PostgreSQL.");
    const { db, tables } = connection;
    const invoices = async () => (await db.select({ n: count() }).from(tables.billingInvoices))[0].n;
    try {
      const placed = await instance(["place", "Northwind Two Instances"]);
      const [, ownerId, jobId, intent, status] = said(placed, /^waiting (\S+) (\S+) (\S+) (\S+)$/m);
      expect(status).toBe("waiting_for_cardholder");
      expect(intent).toMatch(/^pi_local/);
      const before = await invoices();
      // An instance started since runs what is due: the order still waits.
      expect(said(await instance(["restart", ownerId, jobId]), /^after restart (\S+)$/m)[1]).toBe(
        "waiting_for_cardholder",
      );
      expect(await invoices()).toBe(before);

      // The cardholder completes the bank's page (the gateway's, which any instance serves).
      await db.update(tables.cardSetups).set({ status: "succeeded" }).where(eq(tables.cardSetups.id, intent));
      const outputs = await twoInstances(["return", ownerId, jobId, intent]);
      // Both run what is due; one starts the job, which one of them charges (the other finds it claimed).
      expect(outputs.map((output) => said(output, /^resumed (\S+)$/m)[1]).sort()).toEqual(["false", "true"]);
      expect(await invoices()).toBe(before + 1);
      const licenses = await db
        .select({ id: tables.licenses.id })
        .from(tables.licenses)
        .where(eq(tables.licenses.name, "Northwind Two Instances"));
      expect(licenses).toHaveLength(1);
      const [job] = await db.select({ status: tables.jobs.status }).from(tables.jobs).where(eq(tables.jobs.id, jobId));
      expect(job.status).toBe("succeeded");
    } finally {
      await connection.close();
    }
  }, 240_000);
});
