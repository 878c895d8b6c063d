import { eq, isNotNull } from "drizzle-orm";
import { users } from "~db/schema";
import { db } from "./db.server";
import type { UserRecord } from "./users.server";

/**
 * The account the portal's copy of billing data belongs to (subscriptions, invoices, the provider's events and the
 * jobs that apply them), and its billing customer. Today an account is the signed-in user: its owner id is the
 * user's id and its customer the user's billing customer. Every read and write of that data is scoped through
 * these helpers, so that accounts becoming organizations is a change of this module.
 */
export interface BillingAccount {
  /** What owns the account's rows (`owner_id`). */
  ownerId: string;
  /** The billing provider's customer; null before the account's first need of one. */
  customerId: string | null;
}

/** The signed-in user's account. */
export function billingAccountOf(user: Pick<UserRecord, "id" | "billingCustomerId">): BillingAccount {
  return { ownerId: user.id, customerId: user.billingCustomerId };
}

/** The account whose billing customer this is; null for a customer the portal does not know. */
export async function billingAccountOfCustomer(
  customerId: string,
): Promise<(BillingAccount & { customerId: string }) | null> {
  const row = await db.select({ ownerId: users.id }).from(users).where(eq(users.billingCustomerId, customerId)).get();
  return row ? { ownerId: row.ownerId, customerId } : null;
}

/** Every account that has a billing customer: what a full reconciliation reads. */
export async function billingAccounts(): Promise<(BillingAccount & { customerId: string })[]> {
  const rows = await db
    .select({ ownerId: users.id, customerId: users.billingCustomerId })
    .from(users)
    .where(isNotNull(users.billingCustomerId))
    .all();
  return rows.flatMap((row) => (row.customerId ? [{ ownerId: row.ownerId, customerId: row.customerId }] : []));
}

/** The account a job or a row is owned by (`owner_id`), with its billing customer. */
export async function billingAccountOfOwner(ownerId: string): Promise<BillingAccount> {
  const row = await db.select({ customerId: users.billingCustomerId }).from(users).where(eq(users.id, ownerId)).get();
  return { ownerId, customerId: row?.customerId ?? null };
}
