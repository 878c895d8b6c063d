import { randomUUID } from "node:crypto";
import { count, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { db } from "~/server/db.server";
import { invoicePage } from "~/server/invoices.server";
import { listOrganizationsForAdmin, memberPage } from "~/server/organizations.server";
import { invoices, memberships, organizationCounts, organizations, users } from "~db/schema";
import { invoiceCopyRows } from "../support/billing-copies";
import { rerunMigration } from "../support/sqlite-migrations";

/**
 * organization_counts: each organization's number of members and invoices, kept by triggers in the statement that
 * changes them (migration 0016_organization_counts), and what the team and invoices pages and the administrators'
 * list show as totals. Every kept total is checked against a real count.
 */
function newOrganization(): string {
  const id = randomUUID();
  db.insert(organizations).values({ id, name: "Counted Ltd" }).run();
  return id;
}

function addMembers(organizationId: string, n: number): string[] {
  const ids = Array.from({ length: n }, () => randomUUID());
  for (const id of ids) {
    db.insert(users)
      .values({ id, email: `${id}@count.example`, passwordHash: "x", firstName: "Casey", lastName: id })
      .run();
  }
  db.insert(memberships)
    .values(
      ids.map((userId, i) => ({ organizationId, userId, role: i === 0 ? ("owner" as const) : ("viewer" as const) })),
    )
    .run();
  return ids;
}

function addInvoices(ownerId: string, n: number): string[] {
  const rows = invoiceCopyRows(ownerId, n);
  db.insert(invoices).values(rows).run();
  return rows.map((row) => row.id);
}

/** The kept totals (undefined: no row), and the real counts. */
function totals(organizationId: string) {
  const kept = db.select().from(organizationCounts).where(eq(organizationCounts.organizationId, organizationId)).get();
  return {
    kept: kept ? { members: kept.members, invoices: kept.invoices } : undefined,
    counted: {
      members: db.select({ n: count() }).from(memberships).where(eq(memberships.organizationId, organizationId)).get()!
        .n,
      invoices: db.select({ n: count() }).from(invoices).where(eq(invoices.ownerId, organizationId)).get()!.n,
    },
  };
}

const expectKept = (organizationId: string, members: number, invoiceCount: number) =>
  expect(totals(organizationId)).toEqual({
    kept: { members, invoices: invoiceCount },
    counted: { members, invoices: invoiceCount },
  });

describe("an organization's member and invoice totals (organization_counts, kept by triggers)", () => {
  it("follow inserts and deletes, and are what the team and invoices pages and the administrators' list show", async () => {
    const organization = newOrganization();
    expect(totals(organization).kept).toBeUndefined();
    expect((await memberPage(organization, 1, 10)).total).toBe(0);
    const members = addMembers(organization, 7);
    const bills = addInvoices(organization, 12);
    expectKept(organization, 7, 12);
    db.delete(memberships).where(eq(memberships.userId, members[3])).run();
    db.delete(invoices).where(eq(invoices.id, bills[5])).run();
    expectKept(organization, 6, 11);
    // A person deleted takes their membership, and the total, with them.
    db.delete(users).where(eq(users.id, members[4])).run();
    expectKept(organization, 5, 11);
    expect((await memberPage(organization, 2, 2)).total).toBe(5);
    expect((await invoicePage({ ownerId: organization, customerId: null }, 1, 5)).total).toBe(11);
    expect((await listOrganizationsForAdmin()).find((row) => row.id === organization)).toMatchObject({ members: 5 });
  });

  it("move with a member or an invoice that changes organization, and ignore other changes", () => {
    const [from, to] = [newOrganization(), newOrganization()];
    const members = addMembers(from, 3);
    const bills = addInvoices(from, 4);
    db.update(memberships).set({ organizationId: to }).where(eq(memberships.userId, members[1])).run();
    db.update(invoices).set({ ownerId: to }).where(eq(invoices.id, bills[2])).run();
    expectKept(from, 2, 3);
    expectKept(to, 1, 1);
    // The organization it already has, or another column, changes no total.
    db.update(memberships)
      .set({ organizationId: from, role: "billing_admin" })
      .where(eq(memberships.organizationId, from))
      .run();
    db.update(invoices).set({ ownerId: from, status: "voided" }).where(eq(invoices.ownerId, from)).run();
    expectKept(from, 2, 3);
    expectKept(to, 1, 1);
  });

  it("go with a deleted organization, whose members and invoices go too", () => {
    const organization = newOrganization();
    addMembers(organization, 2);
    addInvoices(organization, 2);
    db.delete(organizations).where(eq(organizations.id, organization)).run();
    expect(totals(organization)).toEqual({ kept: undefined, counted: { members: 0, invoices: 0 } });
  });

  it("are filled for the members and invoices already there by the migration that adds the triggers", () => {
    const [full, empty] = [newOrganization(), newOrganization()];
    addMembers(full, 4);
    addInvoices(full, 6);
    // The database as it was before that migration: neither the table nor its triggers.
    rerunMigration("0016_organization_counts.sql", "organization_counts_", ["DROP TABLE organization_counts"]);
    expectKept(full, 4, 6);
    expectKept(empty, 0, 0);
    addMembers(full, 1);
    expectKept(full, 5, 6);
  });
});
