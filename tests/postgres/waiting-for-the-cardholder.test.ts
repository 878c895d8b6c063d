import { and, count, eq, sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { openDatabase, type PortalConnection } from "~/server/platform/database/portal-database.server";
import { startInstanceProcess } from "../support/instance-process";
import { postgresTestDatabase } from "../support/postgres";
// Only its type: importing the harness itself would start a portal instance.
import type { Waiting } from "../support/present-payment-process";

/**
 * Every money-moving job whose card's bank asks the cardholder, across processes (each with its own pool, as portal
 * instances behind a load balancer): the instance that placed them exits while they wait on the bank's page (a
 * restart), another that never ran them runs what is due, and the bank's return reaches two instances at once (a
 * reload, a second tab). The other instance's runner leaves the waiting jobs alone, nothing charged; one return
 * starts each; each is charged once. The jobs share the instances: a process's start-up is most of its time.
 */
const database = postgresTestDatabase();

/** A portal instance on the test database (see tests/support/present-payment-process.ts), started now. */
const startInstance = () => startInstanceProcess("present-payment-process.ts", [], { DATABASE_URL: database.url });

type Connection = Extract<PortalConnection, { engine: "postgres" }>;
type JobRow = { input: Record<string, unknown>; steps: Record<string, unknown> };

/** A trial's hardware purchase as its job records it: its license (and Hub) are made before it waits. */
async function hardware(_: Connection, job: JobRow) {
  const purchase = job.steps["purchase-hardware"] as { status: string; result?: { status: string } };
  return purchase.result?.status ?? purchase.status;
}

/**
 * Each money-moving job the harness places, and `made`: what it has done with the customer's money, read from the
 * database, `before` while it waits and `after` once the bank's return ran it. A quote's order is no job of its own
 * (the new-license wizard places it as an order, its lines locked): the order's case is also the quote's.
 */
const CHARGES: {
  charge: string;
  made: (connection: Connection, job: JobRow) => Promise<unknown>;
  before: unknown;
  after: unknown;
}[] = [
  {
    charge: "order",
    made: async ({ db, tables }, job) =>
      (
        await db
          .select({ n: count() })
          .from(tables.licenses)
          .where(eq(tables.licenses.name, String(job.input.organization)))
      )[0].n,
    before: 0,
    after: 1,
  },
  {
    charge: "license-update",
    made: async ({ db, tables }, job) => {
      const { subscriptionId } = job.input.request as { subscriptionId: string };
      const [subscription] = await db
        .select({ users: tables.billingSubscriptions.planQuantity })
        .from(tables.billingSubscriptions)
        .where(eq(tables.billingSubscriptions.id, subscriptionId));
      return subscription.users;
    },
    before: 10,
    after: 15,
  },
  {
    charge: "pay-now",
    made: async ({ db, tables }, job) => {
      const [invoice] = await db
        .select({ status: tables.billingInvoices.status })
        .from(tables.billingInvoices)
        .where(eq(tables.billingInvoices.id, String(job.input.invoiceId)));
      return invoice.status;
    },
    before: "payment_due",
    after: "paid",
  },
  { charge: "trial", made: hardware, before: "waiting", after: "invoiced" },
  { charge: "cloud-trial", made: hardware, before: "waiting", after: "invoiced" },
];

/** The payments the engine took from `card`: its invoices' payment_succeeded events. */
async function chargesTo({ db, tables }: Connection, card: string): Promise<number> {
  const { billingEvents: events, billingInvoices: invoices } = tables;
  const [row] = await db
    .select({ n: count() })
    .from(events)
    .innerJoin(invoices, eq(invoices.id, sql`${events.content}->'invoice'->>'id'`))
    .where(and(eq(events.providerType, "payment_succeeded"), eq(invoices.paymentSourceId, card)));
  return row.n;
}

const said = (output: string, pattern: RegExp) => {
  const match = pattern.exec(output);
  if (!match) throw new Error(`Expected ${pattern} in:\n${output}`);
  return match;
};

/** A job as the test database has it at one point of the story. */
interface Observed {
  status: string;
  /** The payments the engine took from the job's card. */
  charged: number;
  /** What the job made of the customer's money (its charge's `made`). */
  made: unknown;
  /** When the job's row last changed: a runner that claimed it, or ran it again, changed it. */
  updatedAt: number;
  /** How the two instances answered the bank's return: "true" for the one that started the job. */
  resumed?: string[];
}

/** Each job at each point of the story, by its charge's name. */
const story = new Map<string, { placed: Observed; restarted?: Observed; returned?: Observed }>();

describe("every money-moving job waiting for the cardholder, across instances", () => {
  beforeAll(async () => {
    const connection = openDatabase(database.url, { poolMax: 2 });
    if (connection.engine !== "postgres") throw new Error("The test database is PostgreSQL.");
    const { db, tables } = connection;
    const observe = async (job: Waiting): Promise<Observed> => {
      const { made } = CHARGES.find(({ charge }) => charge === job.charge)!;
      const [row] = await db.select().from(tables.jobs).where(eq(tables.jobs.id, job.jobId));
      return {
        status: row.status,
        charged: await chargesTo(connection, job.card),
        made: await made(connection, row),
        updatedAt: row.updatedAt.getTime(),
      };
    };
    // Three instances start side by side (the file pays for one start-up, most of an instance's time): one places
    // the jobs and exits; one that never ran them (as one started since) runs what is due then, and takes the
    // bank's returns with the third.
    const [placing, restarted, other] = [startInstance(), startInstance(), startInstance()];
    try {
      await Promise.all([placing.ready, restarted.ready, other.ready]);
      placing.go(`place ${CHARGES.map(({ charge }) => charge).join(" ")}`);
      const placed = await placing.finished();
      const waiting = [...placed.matchAll(/^waiting (.+)$/gm)].map((line) => JSON.parse(line[1]) as Waiting);
      expect(waiting.map(({ charge }) => charge)).toEqual(CHARGES.map(({ charge }) => charge));
      for (const job of waiting) story.set(job.charge, { placed: await observe(job) });

      // Once the first exited, another instance runs what is due.
      await restarted.tell(`restart ${JSON.stringify(waiting)}`, /^restarted$/m);
      for (const job of waiting) story.get(job.charge)!.restarted = await observe(job);

      // The cardholder completes each bank page (the gateway's, which any instance serves).
      for (const { intent } of waiting) {
        await db.update(tables.cardSetups).set({ status: "succeeded" }).where(eq(tables.cardSetups.id, intent));
      }
      // Both take each return at once and run what is due; one starts each job, which one of them charges (the
      // other finds it claimed).
      const returning = [restarted, other];
      for (const instance of returning) instance.go(`return ${JSON.stringify(waiting)}`);
      const returned = await Promise.all(returning.map((instance) => instance.finished()));
      for (const job of waiting) {
        const resumed = returned.map((output) => said(output, new RegExp(`^resumed ${job.jobId} (\\S+)$`, "m"))[1]);
        story.get(job.charge)!.returned = { ...(await observe(job)), resumed: resumed.sort() };
      }
    } finally {
      for (const instance of [placing, restarted, other]) instance.stop();
      await connection.close();
    }
  }, 240_000);

  it.each(CHARGES)(
    "$charge: waits across a restart with nothing charged; of two returns at once one resumes it, charged once",
    ({ charge, before, after }) => {
      const { placed, restarted, returned } = story.get(charge)!;
      expect(placed).toMatchObject({ status: "waiting_for_cardholder", charged: 0, made: before });
      // The restarted instance's runner left the waiting job alone: it claimed and ran nothing of it.
      expect(restarted).toEqual(placed);
      expect(returned).toMatchObject({ status: "succeeded", charged: 1, made: after, resumed: ["false", "true"] });
    },
  );
});
