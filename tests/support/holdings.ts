import { asc } from "drizzle-orm";
import { db } from "~/server/platform/database/db.server";
import { invoices, licenses, organizations, users } from "~/server/platform/database/tables.server";

/** What a portal holds that a restore must bring back whole: accounts, licenses, invoices. */
export async function holdings() {
  return {
    accounts: await db.select({ id: users.id, email: users.email }).from(users).orderBy(asc(users.id)),
    organizations: await db
      .select({ id: organizations.id, name: organizations.name })
      .from(organizations)
      .orderBy(asc(organizations.id)),
    licenses: (
      await db
        .select({ id: licenses.id, code: licenses.licenseCode, validTo: licenses.validTo })
        .from(licenses)
        .orderBy(asc(licenses.id))
    ).map((license) => ({ ...license, validTo: license.validTo.toISOString() })),
    invoices: await db
      .select({ id: invoices.id, total: invoices.total, status: invoices.status })
      .from(invoices)
      .orderBy(asc(invoices.id)),
  };
}
