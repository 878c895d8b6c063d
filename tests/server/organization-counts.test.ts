import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { db } from "~/server/platform/database/db.server";
import { invoicePage } from "~/server/subscriptions/invoices.server";
import { memberPage } from "~/server/accounts/organizations.server";
import { customerPage } from "~/server/resellers/end-customers.server";
import { engine, invoices, memberships, organizations, tables, users } from "~/server/platform/database/tables.server";
import { invoiceCopyRows } from "../support/billing-copies";
import { allOrganizationsForAdmin, organizationTotals } from "../support/organization-totals";
import { rerunMigration } from "../support/sqlite-migrations";

/**
 * organization_counts: each organization's number of members, invoices and end customers, kept by triggers in the
 * statement that changes them (migrations 0016_organization_counts and 0036_end_customer_counts), and what the team,
 * invoices and end customers pages and the administrators' list show as totals. Every kept total is checked against
 * a real count.
 */
async function newOrganization(): Promise<string> {
  const id = randomUUID();
  await db.insert(organizations).values({ id, name: "Counted Ltd" });
  return id;
}

async function addMembers(organizationId: string, n: number): Promise<string[]> {
  const ids = Array.from({ length: n }, () => randomUUID());
  for (const id of ids) {
    await db
      .insert(users)
      .values({ id, email: `${id}@count.example`, passwordHash: "x", firstName: "Casey", lastName: id });
  }
  await db
    .insert(memberships)
    .values(
      ids.map((userId, i) => ({ organizationId, userId, role: i === 0 ? ("owner" as const) : ("viewer" as const) })),
    );
  return ids;
}

async function addInvoices(ownerId: string, n: number): Promise<string[]> {
  const rows = invoiceCopyRows(ownerId, n);
  await db.insert(invoices).values(rows);
  return rows.map((row) => row.id);
}

const totals = (organizationId: string) => organizationTotals(db, tables, organizationId);

const expectKept = async (organizationId: string, members: number, invoiceCount: number, endCustomers = 0) =>
  expect(await totals(organizationId)).toEqual({
    kept: { members, invoices: invoiceCount, endCustomers },
    counted: { members, invoices: invoiceCount, endCustomers },
  });

describe("an organization's member and invoice totals (organization_counts, kept by triggers)", () => {
  it("follow inserts and deletes, and are what the team and invoices pages and the administrators' list show", async () => {
    const organization = await newOrganization();
    expect((await totals(organization)).kept).toBeUndefined();
    expect((await memberPage(organization, 1, 10)).total).toBe(0);
    const members = await addMembers(organization, 7);
    const bills = await addInvoices(organization, 12);
    await expectKept(organization, 7, 12);
    await db.delete(memberships).where(eq(memberships.userId, members[3]));
    await db.delete(invoices).where(eq(invoices.id, bills[5]));
    await expectKept(organization, 6, 11);
    // A person deleted takes their membership, and the total, with them.
    await db.delete(users).where(eq(users.id, members[4]));
    await expectKept(organization, 5, 11);
    expect((await memberPage(organization, 2, 2)).total).toBe(5);
    expect((await invoicePage({ ownerId: organization, customerId: null }, 1, 5)).total).toBe(11);
    expect((await allOrganizationsForAdmin()).find((row) => row.id === organization)).toMatchObject({ members: 5 });
  });

  it("move with a member or an invoice that changes organization, and ignore other changes", async () => {
    const [from, to] = [await newOrganization(), await newOrganization()];
    const members = await addMembers(from, 3);
    const bills = await addInvoices(from, 4);
    await db.update(memberships).set({ organizationId: to }).where(eq(memberships.userId, members[1]));
    await db.update(invoices).set({ ownerId: to }).where(eq(invoices.id, bills[2]));
    await expectKept(from, 2, 3);
    await expectKept(to, 1, 1);
    // The organization it already has, or another column, changes no total.
    await db
      .update(memberships)
      .set({ organizationId: from, role: "billing_admin" })
      .where(eq(memberships.organizationId, from));
    await db.update(invoices).set({ ownerId: from, status: "voided" }).where(eq(invoices.ownerId, from));
    await expectKept(from, 2, 3);
    await expectKept(to, 1, 1);
  });

  it("go with a deleted organization, whose members and invoices go too", async () => {
    const organization = await newOrganization();
    await addMembers(organization, 2);
    await addInvoices(organization, 2);
    await db.delete(organizations).where(eq(organizations.id, organization));
    expect(await totals(organization)).toEqual({
      kept: undefined,
      counted: { members: 0, invoices: 0, endCustomers: 0 },
    });
  });

  // SQLite's migration's data step; tests/postgres/organization-counts.test.ts checks PostgreSQL's.
  it.skipIf(engine === "postgres")(
    "are filled for the members and invoices already there by the migration that adds the triggers",
    async () => {
      const [full, empty] = [await newOrganization(), await newOrganization()];
      await addMembers(full, 4);
      await addInvoices(full, 6);
      // The database as it was before that migration: neither the table nor its triggers; then the later migration
      // that adds end customers to it.
      rerunMigration("0016_organization_counts.sql", "organization_counts_", ["DROP TABLE organization_counts"]);
      rerunMigration("0036_end_customer_counts.sql", "organization_counts_after_end_customer_", []);
      await expectKept(full, 4, 6);
      await expectKept(empty, 0, 0);
      await addMembers(full, 1);
      await expectKept(full, 5, 6);
    },
  );
});

describe("a distributor's number of end customers (organization_counts.end_customers, kept by triggers)", () => {
  async function newDistributor(): Promise<string> {
    const id = randomUUID();
    await db.insert(organizations).values({ id, name: "Counting Distribution", customerType: "distributor" });
    return id;
  }

  async function addEndCustomers(distributorId: string, names: string[]): Promise<string[]> {
    const ids = names.map(() => randomUUID());
    await db.insert(organizations).values(names.map((name, i) => ({ id: ids[i], name, managedBy: distributorId })));
    return ids;
  }

  const firstPage = (distributorId: string, search = "") =>
    customerPage(distributorId, { search, page: 1, pageSize: 2, now: new Date() });

  it("follows customers added and removed, and is the total of the customers page and the administrators' list", async () => {
    const distributor = await newDistributor();
    expect((await firstPage(distributor)).total).toBe(0);
    const customers = await addEndCustomers(distributor, ["Alder Clinic", "Birch Dental", "Cedar Labs"]);
    await expectKept(distributor, 0, 0, 3);
    await db.delete(organizations).where(eq(organizations.id, customers[1]));
    await expectKept(distributor, 0, 0, 2);
    expect((await firstPage(distributor)).total).toBe(2);
    // A search counts what matches, not the distributor's total.
    expect((await firstPage(distributor, "cedar")).total).toBe(1);
    expect((await allOrganizationsForAdmin()).find((row) => row.id === distributor)).toMatchObject({
      endCustomers: 2,
    });
  });

  it("moves with a customer given to another distributor, or to none, and ignores other changes", async () => {
    const [from, to] = [await newDistributor(), await newDistributor()];
    const customers = await addEndCustomers(from, ["Dogwood Ltd", "Elm Works", "Fir Partners"]);
    await db.update(organizations).set({ managedBy: to }).where(eq(organizations.id, customers[0]));
    await expectKept(from, 0, 0, 2);
    await expectKept(to, 0, 0, 1);
    await db.update(organizations).set({ managedBy: null }).where(eq(organizations.id, customers[1]));
    await expectKept(from, 0, 0, 1);
    await db.update(organizations).set({ managedBy: to }).where(eq(organizations.id, customers[1]));
    await expectKept(to, 0, 0, 2);
    // The distributor it already has, or another column, changes no total.
    await db
      .update(organizations)
      .set({ managedBy: from, name: "Fir Partners Ltd" })
      .where(eq(organizations.id, customers[2]));
    await expectKept(from, 0, 0, 1);
    await expectKept(to, 0, 0, 2);
  });

  // SQLite's migration's data step; tests/postgres/organization-counts.test.ts checks PostgreSQL's.
  it.skipIf(engine === "postgres")(
    "is filled for the end customers already there by the migration that adds it",
    async () => {
      const [full, empty] = [await newDistributor(), await newDistributor()];
      await addEndCustomers(full, ["Gum Tree Co", "Hazel Inc"]);
      await addMembers(full, 1);
      // The database as it was before that migration: no such total, nor its triggers.
      rerunMigration("0036_end_customer_counts.sql", "organization_counts_after_end_customer_", [
        "ALTER TABLE organization_counts DROP COLUMN end_customers",
      ]);
      await expectKept(full, 1, 0, 2);
      expect((await totals(empty)).kept).toBeUndefined();
      await addEndCustomers(empty, ["Ivy Group"]);
      await expectKept(empty, 0, 0, 1);
    },
  );
});
