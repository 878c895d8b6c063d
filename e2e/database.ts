import { randomUUID } from "node:crypto";
import { asc, desc, eq, is, sql } from "drizzle-orm";
import { PgDatabase } from "drizzle-orm/pg-core";
import {
  tablesOf,
  type Engine,
  type PortalDatabase,
  type PortalSchema,
  withDatabase,
} from "~/server/platform/database/portal-database.server";
import type { AsyncSqliteDatabase } from "~/server/platform/database/sqlite-async.server";
import { DEMO } from "./fixtures";

/**
 * How the e2e tests read and write a running portal's database (to arm a provider fault, to set up an account, to
 * count what an order left behind), the way an operator would: through drizzle and the portal's data layer, on
 * whichever engine the portal runs. `withDatabase(databaseUrl, async (db, t) => …)` opens a `file:` or
 * `postgres://` URL; `t` holds that engine's tables, typed as PostgreSQL's on both, so a test is written once.
 */
export { withDatabase };

export type TestDatabase = PortalDatabase;
export type TestTables = PortalSchema;

/** The engine a database opened by withDatabase runs on: the SQLite database only stands in for PostgreSQL's type. */
function engineOf(db: TestDatabase): Engine {
  return is(db, PgDatabase) ? "postgres" : "sqlite";
}

/** Runs statements written for the engine at hand, one at a time (node-postgres takes one per query with parameters). */
async function execute(db: TestDatabase, statements: Record<Engine, string[]>) {
  const engine = engineOf(db);
  for (const statement of statements[engine]) {
    if (engine === "postgres") await db.execute(sql.raw(statement));
    else await (db as unknown as AsyncSqliteDatabase).run(sql.raw(statement));
  }
}

/** A string literal in SQL, the same on both engines. */
const literal = (text: string) => `'${text.replaceAll("'", "''")}'`;

/**
 * The demo password's hash, as the demo seed made it (the demo customer's): an account a test adds signs in with
 * the demo password without a hash of its own, which at OWASP's cost is most of a second of CPU each.
 */
export async function demoPasswordHash(db: TestDatabase): Promise<string> {
  const { users } = tablesOf(engineOf(db));
  const [{ passwordHash }] = await db
    .select({ passwordHash: users.passwordHash })
    .from(users)
    .where(eq(users.email, DEMO.customer));
  return passwordHash;
}

/** The organization a person works in first (their own, for the demo accounts). */
export async function organizationIdOf(db: TestDatabase, email: string): Promise<string> {
  const { memberships, users } = tablesOf(engineOf(db));
  const [first] = await db
    .select({ id: memberships.organizationId })
    .from(memberships)
    .innerJoin(users, eq(users.id, memberships.userId))
    .where(eq(users.email, email))
    .orderBy(asc(memberships.createdAt), asc(memberships.organizationId))
    .limit(1);
  if (!first) throw new Error(`${email} belongs to no organization`);
  return first.id;
}

/** That organization's customer at the billing engine. */
export async function billingCustomerIdOf(db: TestDatabase, email: string): Promise<string | null> {
  const { organizations } = tablesOf(engineOf(db));
  const organizationId = await organizationIdOf(db, email);
  const [organization] = await db
    .select({ id: organizations.billingCustomerId })
    .from(organizations)
    .where(eq(organizations.id, organizationId));
  return organization.id;
}

/**
 * A new person who owns a new organization (its id is the person's, as for accounts from before organizations),
 * with a verified address: what sign-up and verification make, written straight into the portal's database. Their
 * password is the demo password.
 */
export async function insertAccount(
  db: TestDatabase,
  account: {
    id: string;
    email: string;
    firstName: string;
    lastName: string;
    company?: string;
    phone?: string;
    billingCustomerId?: string | null;
  },
) {
  const { memberships, organizations, users } = tablesOf(engineOf(db));
  const company = account.company ?? "";
  await db.insert(users).values({
    id: account.id,
    email: account.email,
    passwordHash: await demoPasswordHash(db),
    firstName: account.firstName,
    lastName: account.lastName,
    company,
    phone: account.phone ?? "",
    emailVerifiedAt: new Date(),
  });
  await db.insert(organizations).values({
    id: account.id,
    name: company || `${account.firstName} ${account.lastName}`,
    billingCustomerId: account.billingCustomerId ?? null,
  });
  await db.insert(memberships).values({ organizationId: account.id, userId: account.id, role: "owner" });
}

/**
 * The billing engine's invoices in the order they were made: by date, then by number (an invoice's id is its
 * number, 1, 2, … 10: shorter first, then by text), the same on both engines.
 */
export function invoicesInOrder(t: TestTables, direction: "oldest first" | "newest first") {
  const by = direction === "oldest first" ? asc : desc;
  const { date, id } = t.billingInvoices;
  return [by(date), by(sql`length(${id})`), by(id)];
}

/**
 * The embedded providers' fault tables (`t.billingFaults`, `t.hubFaults`, `t.taxIdFaults`): the billing engine's,
 * the Hub service's and the tax register simulator's.
 */
type FaultTable = TestTables["billingFaults"] | TestTables["hubFaults"] | TestTables["taxIdFaults"];
type Fault = TestTables["hubFaults"]["$inferInsert"];

/**
 * Arms a failure of one call of an embedded provider (replacing one armed before for that call). `remaining` is
 * how many calls fail (1 unless given; null: every call).
 */
export async function armFault(db: TestDatabase, table: FaultTable, fault: Fault) {
  const row = { kind: "final" as const, remaining: 1, hangMs: 0, ...fault };
  await db
    .insert(table as TestTables["hubFaults"])
    .values(row)
    .onConflictDoUpdate({ target: table.call, set: row });
}

/** Disarms every failure in a provider's fault table, or only the one of `call`. */
export async function clearFaults(db: TestDatabase, table: FaultTable, call?: string) {
  await db.delete(table).where(call === undefined ? undefined : eq(table.call, call));
}

/**
 * Arms a failure of the embedded billing engine's `call` in the running portal at `databaseUrl`: it fails (or, with
 * mode "hang", answers after 1.5 s) once, or every time with `remaining` null.
 */
export function armBillingFault(
  databaseUrl: string,
  call: string,
  fault: { message: string; mode?: "fail" | "hang"; remaining?: number | null },
) {
  return withDatabase(databaseUrl, (db, t) =>
    armFault(db, t.billingFaults, {
      call,
      mode: fault.mode ?? "fail",
      message: fault.message,
      remaining: fault.remaining === undefined ? 1 : fault.remaining,
      hangMs: 1500,
    }),
  );
}

/** Disarms the billing engine's failure of `call` in the running portal at `databaseUrl`. */
export function clearBillingFault(databaseUrl: string, call: string) {
  return withDatabase(databaseUrl, (db, t) => clearFaults(db, t.billingFaults, call));
}

/**
 * Makes every insert into `table` (that matches `when`, a condition on `new` valid on both engines) fail with
 * `message`, as a full disk would, until dropTrigger(name): a failure no provider fault can stand for. On
 * PostgreSQL a trigger runs a function, both named `name`.
 */
export async function refuseInserts(db: TestDatabase, name: string, table: string, message: string, when = "") {
  await execute(db, {
    sqlite: [
      `create trigger ${name} before insert on ${table} ${when ? `when ${when} ` : ""}begin select raise(abort, ${literal(message)}); end`,
    ],
    postgres: [
      `create function ${name}() returns trigger language plpgsql as $$ begin raise exception ${literal(message)}; end $$`,
      `create trigger ${name} before insert on ${table} for each row ${when ? `when (${when}) ` : ""}execute function ${name}()`,
    ],
  });
}

/**
 * Makes every insert into `table` wait (PostgreSQL only: a trigger that sleeps), so that a test can catch a portal
 * in the middle of that insert, until releaseHeldInserts. What sleeps is the instance's own statement, holding its
 * transaction open as a slow disk or a lock would.
 */
export async function holdInserts(db: TestDatabase, name: string, table: string) {
  if (engineOf(db) !== "postgres") throw new Error("Holding inserts is written for PostgreSQL.");
  await execute(db, {
    sqlite: [],
    postgres: [
      `create function ${name}() returns trigger language plpgsql as $$ begin perform pg_sleep(600); return new; end $$`,
      `create trigger ${name} before insert on ${table} for each row execute function ${name}()`,
    ],
  });
}

/**
 * Ends what holdInserts made: the trigger, and the statements still asleep in it, whose client may be gone (as
 * PostgreSQL would once it noticed), rolling back their transactions.
 */
export async function releaseHeldInserts(db: TestDatabase, name: string) {
  await execute(db, {
    sqlite: [],
    postgres: [
      // First the sleepers: dropping the trigger waits for every transaction that is inserting into its table.
      "select pg_terminate_backend(pid) from pg_stat_activity where wait_event = 'PgSleep' and pid <> pg_backend_pid()",
      `drop function if exists ${name}() cascade`,
    ],
  });
}

/** Leaves every job no automatic retry: a failed step reaches the customer at once, until dropTrigger(name). */
export async function exhaustJobRetries(db: TestDatabase, name: string) {
  const spendAttempts = "update jobs set attempts = 99 where id = new.id and new.attempts < 99;";
  await execute(db, {
    sqlite: [`create trigger ${name} after update of attempts on jobs begin ${spendAttempts} end`],
    postgres: [
      `create function ${name}() returns trigger language plpgsql as $$ begin ${spendAttempts} return null; end $$`,
      `create trigger ${name} after update of attempts on jobs for each row execute function ${name}()`,
    ],
  });
}

/** Removes what refuseInserts or exhaustJobRetries made under `name` (on PostgreSQL the function takes its trigger along). */
export async function dropTrigger(db: TestDatabase, name: string) {
  await execute(db, {
    sqlite: [`drop trigger if exists ${name}`],
    postgres: [`drop function if exists ${name}() cascade`],
  });
}

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * A license the demo distributor bought for `licenseeId`, its term ending in `inDays` days: a copy of Harbor Dental
 * Group's license and subscription under the license number given (the subscription's id is derived from it).
 */
export async function addRenewal(
  db: TestDatabase,
  t: TestTables,
  { licenseeId, externalLicenseId, inDays }: { licenseeId: string; externalLicenseId: string; inDays: number },
) {
  const [harbor] = await db
    .select({ license: t.licenses, subscription: t.subscriptions })
    .from(t.licenses)
    .innerJoin(t.subscriptions, eq(t.subscriptions.id, t.licenses.subscriptionId))
    .where(eq(t.licenses.externalLicenseId, "GK-SLR-2026-0101"));
  const subscriptionId = `sub_${externalLicenseId}`;
  const currentTermEnd = new Date(Date.now() + inDays * DAY_MS);
  await db
    .insert(t.subscriptions)
    .values({ ...harbor.subscription, id: subscriptionId, status: "active", currentTermEnd });
  await db.insert(t.licenses).values({
    ...harbor.license,
    id: randomUUID(),
    externalLicenseId,
    licenseCode: `${harbor.license.licenseCode}-${externalLicenseId}`,
    subscriptionId,
    licenseeId,
  });
}

type QuoteInsert = TestTables["quotes"]["$inferInsert"];

/**
 * A quote row as the quote pages read it, priced at 10 users of the Core plan for $100.00 and valid a month unless
 * `fields` say otherwise: its id and number, its maker and what else the test needs.
 */
export function quoteRow(
  fields: Pick<QuoteInsert, "ownerId" | "organizationName" | "madeByName"> & Partial<Omit<QuoteInsert, "estimate">>,
) {
  const id = fields.id ?? randomUUID();
  return {
    number: `Q-E2E-${id.slice(0, 8)}`,
    order: {},
    priceListVersion: "e2e",
    validUntil: new Date(Date.now() + 30 * DAY_MS),
    quotedAt: new Date(),
    ...fields,
    id,
    estimate: {
      lineItems: [{ description: "Core Plan", quantity: 10, unitAmount: 1_000, amount: 10_000 }],
      discounts: [],
      subTotal: 10_000,
      total: 10_000,
      creditsApplied: 0,
      amountDue: 10_000,
      nextBilling: null,
    },
  };
}
