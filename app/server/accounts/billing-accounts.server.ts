import { eq, isNotNull } from "drizzle-orm";
import { organizations } from "~/server/platform/database/tables.server";
import { db } from "~/server/platform/database/db.server";
import type { OrganizationRecord } from "./organizations.server";

/**
 * The account the portal's copy of billing data belongs to (subscriptions, invoices, the provider's events and the
 * jobs that apply them), and its billing customer: an organization, whose id is the owner id of that data and
 * whose billing customer it is. Every read and write of that data is scoped through these helpers.
 */
export interface BillingAccount {
  /** What owns the account's rows (`owner_id`): the organization. */
  ownerId: string;
  /** The billing provider's customer; null before the organization's first need of one. */
  customerId: string | null;
}

/** The organization's account (the signed-in member's, `member.organization`). */
export function billingAccountOf(organization: Pick<OrganizationRecord, "id" | "billingCustomerId">): BillingAccount {
  return { ownerId: organization.id, customerId: organization.billingCustomerId };
}

/** The account whose billing customer this is; null for a customer the portal does not know. */
export async function billingAccountOfCustomer(
  customerId: string,
): Promise<(BillingAccount & { customerId: string }) | null> {
  const [row] = await db
    .select({ ownerId: organizations.id })
    .from(organizations)
    .where(eq(organizations.billingCustomerId, customerId))
    .limit(1);
  return row ? { ownerId: row.ownerId, customerId } : null;
}

/** Every account that has a billing customer: what a full reconciliation reads. */
export async function billingAccounts(): Promise<(BillingAccount & { customerId: string })[]> {
  const rows = await db
    .select({ ownerId: organizations.id, customerId: organizations.billingCustomerId })
    .from(organizations)
    .where(isNotNull(organizations.billingCustomerId));
  return rows.flatMap((row) => (row.customerId ? [{ ownerId: row.ownerId, customerId: row.customerId }] : []));
}

/** The account a job or a row is owned by (`owner_id`), with its billing customer. */
export async function billingAccountOfOwner(ownerId: string): Promise<BillingAccount> {
  const [row] = await db
    .select({ customerId: organizations.billingCustomerId })
    .from(organizations)
    .where(eq(organizations.id, ownerId));
  return { ownerId, customerId: row?.customerId ?? null };
}
