import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import type pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { migratePostgres, openPostgres, type PostgresDatabase } from "~/server/platform/database/postgres.server";
import * as schema from "~db/postgres/schema";
import { invoices, memberships, organizations, users } from "~db/postgres/schema";
import { insertMemberships, insertUsers, migrateBefore, postgresTestDatabase } from "../support/postgres";
import { invoiceCopyRows } from "../support/billing-copies";
import { organizationTotals } from "../support/organization-totals";

/**
 * organization_counts on PostgreSQL: kept by the plpgsql triggers of migrations organization_counts and
 * end_customer_counts, filled by them for the members, invoices and end customers already there, and right under
 * concurrent inserts. Checked against real counts.
 */
const database = postgresTestDatabase("empty");
let db: PostgresDatabase;
let pool: pg.Pool;

async function newOrganization() {
  const id = randomUUID();
  await db.insert(organizations).values({ id, name: "Counted Ltd" });
  return id;
}

async function addMembers(organizationId: string, n: number) {
  const ids = Array.from({ length: n }, () => randomUUID());
  await insertUsers(
    db,
    ids.map((id) => ({ id, email: `${id}@count.example`, firstName: "Casey", lastName: id })),
  );
  await insertMemberships(
    db,
    ids.map((userId) => ({ organizationId, userId, role: "viewer" })),
  );
  return ids;
}

/** Invoice copies, in the columns every version of the table has (the schema module's insert names later ones). */
async function addInvoices(ownerId: string, n: number) {
  const rows = invoiceCopyRows(ownerId, n);
  const columns = [
    "id",
    "owner_id",
    "customer_id",
    "number",
    "date",
    "purpose",
    "status",
    "total",
    "amount_paid",
    "amount_due",
    "resource_version",
  ];
  const values = rows.map((_, row) => `(${columns.map((_, i) => `$${row * columns.length + i + 1}`).join(", ")})`);
  await pool.query(
    `insert into invoices (${columns.join(", ")}) values ${values.join(", ")}`,
    rows.flatMap((row) => [
      row.id,
      row.ownerId,
      row.customerId,
      row.number,
      row.date,
      row.purpose,
      row.status,
      row.total,
      row.amountPaid,
      row.amountDue,
      row.resourceVersion,
    ]),
  );
  return rows.map((row) => row.id);
}

const totals = (organizationId: string) => organizationTotals(db, schema, organizationId);

const both = (members: number, invoiceCount: number, endCustomers = 0) => ({
  kept: { members, invoices: invoiceCount, endCustomers },
  counted: { members, invoices: invoiceCount, endCustomers },
});

/** An organization with members and invoices from before the migration: its data step must count them. */
let before: string;

beforeAll(async () => {
  ({ db, pool } = openPostgres(database.url));
  // The schema as it was before the organization_counts migration.
  await migrateBefore(db, "_organization_counts");
  before = randomUUID();
  // In the columns of then: the schema module's insert names columns later migrations add.
  await pool.query("insert into organizations (id, name) values ($1, $2)", [before, "Counted before Ltd"]);
  await addMembers(before, 3);
  await addInvoices(before, 5);
  await migratePostgres(db);
}, 60_000);

afterAll(() => pool?.end());

describe("organization_counts on PostgreSQL (kept by the plpgsql triggers of the PostgreSQL migrations)", () => {
  it("is filled by the migration for the members and invoices already there", async () => {
    expect(await totals(before)).toEqual(both(3, 5));
  });

  it("follows inserts and deletes, and goes with a deleted organization", async () => {
    const organization = await newOrganization();
    expect((await totals(organization)).kept).toBeUndefined();
    const members = await addMembers(organization, 7);
    const bills = await addInvoices(organization, 12);
    expect(await totals(organization)).toEqual(both(7, 12));
    await db.delete(memberships).where(eq(memberships.userId, members[2]));
    await db.delete(users).where(eq(users.id, members[3]));
    await db.delete(invoices).where(eq(invoices.id, bills[0]));
    expect(await totals(organization)).toEqual(both(5, 11));
    await db.delete(organizations).where(eq(organizations.id, organization));
    expect(await totals(organization)).toEqual({
      kept: undefined,
      counted: { members: 0, invoices: 0, endCustomers: 0 },
    });
  });

  it("counts every member and invoice inserted at once over several connections for a new organization", async () => {
    const organization = await newOrganization();
    await Promise.all(
      Array.from({ length: 10 }, (_, i) => (i % 2 ? addMembers(organization, 1) : addInvoices(organization, 1))),
    );
    expect(await totals(organization)).toEqual(both(5, 5));
  });

  it("moves with a member or an invoice that changes organization, and ignores other changes", async () => {
    const [from, to] = [await newOrganization(), await newOrganization()];
    const members = await addMembers(from, 3);
    const bills = await addInvoices(from, 4);
    await db.update(memberships).set({ organizationId: to }).where(eq(memberships.userId, members[1]));
    await db.update(invoices).set({ ownerId: to }).where(eq(invoices.id, bills[2]));
    expect([await totals(from), await totals(to)]).toEqual([both(2, 3), both(1, 1)]);
    await db
      .update(memberships)
      .set({ organizationId: from, role: "owner" })
      .where(eq(memberships.organizationId, from));
    await db.update(invoices).set({ ownerId: from, status: "voided" }).where(eq(invoices.ownerId, from));
    expect([await totals(from), await totals(to)]).toEqual([both(2, 3), both(1, 1)]);
  });
});

describe("a distributor's number of end customers on PostgreSQL (migration end_customer_counts)", () => {
  const earlier = postgresTestDatabase("empty");
  let before: PostgresDatabase;
  let beforePool: pg.Pool;
  const distributor = randomUUID();
  const customers = [randomUUID(), randomUUID()];
  const endCustomerTotals = () => organizationTotals(before, schema, distributor);

  beforeAll(async () => {
    ({ db: before, pool: beforePool } = openPostgres(earlier.url));
    // The schema as it was before the migration, with a distributor and its end customers in the columns of then.
    await migrateBefore(before, "_end_customer_counts");
    await beforePool.query("insert into organizations (id, name, customer_type) values ($1, $2, 'distributor')", [
      distributor,
      "Counting Distribution",
    ]);
    await beforePool.query("insert into organizations (id, name, managed_by) values ($1, $2, $5), ($3, $4, $5)", [
      customers[0],
      "Alder Clinic",
      customers[1],
      "Birch Dental",
      distributor,
    ]);
    await migratePostgres(before);
  }, 60_000);

  afterAll(() => beforePool?.end());

  it("is filled by the migration, then follows customers added, moved and removed", async () => {
    expect(await endCustomerTotals()).toEqual(both(0, 0, 2));
    await beforePool.query("insert into organizations (id, name, managed_by) values ($1, $2, $3)", [
      randomUUID(),
      "Cedar Labs",
      distributor,
    ]);
    expect(await endCustomerTotals()).toEqual(both(0, 0, 3));
    await before.update(organizations).set({ managedBy: null }).where(eq(organizations.id, customers[0]));
    expect(await endCustomerTotals()).toEqual(both(0, 0, 2));
    await before.delete(organizations).where(eq(organizations.id, customers[1]));
    expect(await endCustomerTotals()).toEqual(both(0, 0, 1));
  });
});
