import { count, eq } from "drizzle-orm";
import type { PortalDatabase, PortalSchema } from "~/server/platform/database/portal-database.server";
import { searchOrganizationsForAdmin } from "~/server/accounts/organizations.server";

/** An organization's totals as organization_counts keeps them (undefined: no row), and as counted from the rows. */
export async function organizationTotals(db: PortalDatabase, t: PortalSchema, organizationId: string) {
  const [kept] = await db
    .select()
    .from(t.organizationCounts)
    .where(eq(t.organizationCounts.organizationId, organizationId));
  const [members] = await db
    .select({ n: count() })
    .from(t.memberships)
    .where(eq(t.memberships.organizationId, organizationId));
  const [bills] = await db.select({ n: count() }).from(t.invoices).where(eq(t.invoices.ownerId, organizationId));
  const [endCustomers] = await db
    .select({ n: count() })
    .from(t.organizations)
    .where(eq(t.organizations.managedBy, organizationId));
  return {
    kept: kept ? { members: kept.members, invoices: kept.invoices, endCustomers: kept.endCustomers } : undefined,
    counted: { members: members.n, invoices: bills.n, endCustomers: endCustomers.n },
  };
}

/** Every organization as /admin/customers lists them, page after page. */
export async function allOrganizationsForAdmin() {
  const all = [];
  for (let page = 1; ; page += 1) {
    const { organizations, total } = await searchOrganizationsForAdmin("", page);
    all.push(...organizations);
    if (all.length >= total || organizations.length === 0) return all;
  }
}
