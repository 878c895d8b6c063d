import Database from "better-sqlite3";
import { asc, eq, sql } from "drizzle-orm";
import { asyncSqlite, type AsyncSqliteDatabase } from "~/server/database/sqlite-async.server";
import { type billingFaults, type hubFaults, memberships, organizations, users } from "~db/schema";

/**
 * How the e2e tests read and write a running portal's database (to arm a provider fault, to set up an account, to
 * count what an order left behind), the way an operator would: through drizzle and the portal's schema, every
 * call awaited, so that the tests speak to the database as the portal does and not in one engine's SQL.
 */
export type TestDatabase = AsyncSqliteDatabase;

/** Opens the database a portal runs on (its DATABASE_URL), runs `work` on it and closes it. */
export async function withDatabase<T>(databaseUrl: string, work: (db: TestDatabase) => Promise<T>): Promise<T> {
  if (!databaseUrl.startsWith("file:"))
    throw new Error(`The e2e database helper opens SQLite files only: ${databaseUrl}`);
  const sqlite = new Database(databaseUrl.slice("file:".length));
  // The running portal writes too: wait for its lock instead of failing with SQLITE_BUSY.
  sqlite.pragma("busy_timeout = 5000");
  try {
    return await work(asyncSqlite(sqlite));
  } finally {
    sqlite.close();
  }
}

/** The organization a person works in first (their own, for the demo accounts). */
export async function organizationIdOf(db: TestDatabase, email: string): Promise<string> {
  const [first] = await db
    .select({ id: memberships.organizationId })
    .from(memberships)
    .innerJoin(users, eq(users.id, memberships.userId))
    .where(eq(users.email, email))
    .orderBy(asc(memberships.createdAt))
    .limit(1);
  if (!first) throw new Error(`${email} belongs to no organization`);
  return first.id;
}

/** That organization's customer at the billing engine. */
export async function billingCustomerIdOf(db: TestDatabase, email: string): Promise<string | null> {
  const organizationId = await organizationIdOf(db, email);
  const [organization] = await db
    .select({ id: organizations.billingCustomerId })
    .from(organizations)
    .where(eq(organizations.id, organizationId));
  return organization.id;
}

/**
 * A new person who owns a new organization (its id is the person's, as for accounts from before organizations),
 * with a verified address: what sign-up and verification make, written straight into the portal's database.
 */
export async function insertAccount(
  db: TestDatabase,
  account: {
    id: string;
    email: string;
    passwordHash: string;
    firstName: string;
    lastName: string;
    company?: string;
    phone?: string;
    billingCustomerId?: string | null;
  },
) {
  const company = account.company ?? "";
  await db.insert(users).values({
    id: account.id,
    email: account.email,
    passwordHash: account.passwordHash,
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

/** The embedded providers' fault tables: the billing engine's and the Hub service's. */
type FaultTable = typeof billingFaults | typeof hubFaults;
type Fault = typeof hubFaults.$inferInsert;

/**
 * Arms a failure of one call of an embedded provider (replacing one armed before for that call). `remaining` is
 * how many calls fail (1 unless given; null: every call).
 */
export async function armFault(db: TestDatabase, table: FaultTable, fault: Fault) {
  const row = { kind: "final" as const, remaining: 1, hangMs: 0, ...fault };
  await db
    .insert(table as typeof hubFaults)
    .values(row)
    .onConflictDoUpdate({ target: table.call, set: row });
}

/** Disarms every failure in a provider's fault table, or only the one of `call`. */
export async function clearFaults(db: TestDatabase, table: FaultTable, call?: string) {
  await db.delete(table).where(call === undefined ? undefined : eq(table.call, call));
}

/**
 * Makes every insert into `table` (that matches `when`, an SQL condition on `new`) fail with `message`, as a full
 * disk would, until dropTrigger(name): a failure no provider fault can stand for.
 */
export async function refuseInserts(db: TestDatabase, name: string, table: string, message: string, when = "") {
  await db.run(
    sql.raw(
      `create trigger ${name} before insert on ${table} ${when ? `when ${when} ` : ""}begin select raise(abort, '${message}'); end`,
    ),
  );
}

/** Leaves every job no automatic retry: a failed step reaches the customer at once, until dropTrigger(name). */
export async function exhaustJobRetries(db: TestDatabase, name: string) {
  await db.run(
    sql.raw(
      `create trigger ${name} after update of attempts on jobs begin update jobs set attempts = 99 where id = new.id and new.attempts < 99; end`,
    ),
  );
}

export async function dropTrigger(db: TestDatabase, name: string) {
  await db.run(sql.raw(`drop trigger if exists ${name}`));
}
