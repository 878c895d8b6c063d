import { and, eq, sql } from "drizzle-orm";
import { invoices, subscriptions } from "~/server/platform/database/tables.server";
import type { Invoice, Subscription } from "~/server/billing/index.server";
import type { BillingAccount } from "~/server/accounts/index.server";
import { db, type PortalExecutor } from "~/server/platform/database/db.server";
import { invoiceCopyRow, subscriptionCopyRow } from "./copy-rows.server";

/**
 * The portal's copies of its customers' subscriptions and invoices at the billing provider. Whoever learns of a
 * resource (an event, the reconciliation's re-read, a job's own call) saves it here the same way: a copy is
 * replaced only by a newer resource version of the same organization, in one statement, so events applied twice,
 * out of order or by two processes at once leave the newest copy, a late 'subscription changed' never brings back
 * what a later 'subscription cancelled' ended, and no copy changes hands.
 */

/**
 * Only a newer version of the same organization's copy replaces the stored one (`excluded` is the row that was
 * to be inserted): a copy never moves to another organization, whoever tells of it.
 */
const newerOfTheSameOwner = (table: typeof subscriptions | typeof invoices) =>
  sql`excluded.resource_version > ${table.resourceVersion} and excluded.owner_id = ${table.ownerId}`;

/**
 * Saves the subscription's copy for the account, with `store` (a transaction that records it too, or the
 * database); true when it was new or newer than the one kept.
 */
export async function saveSubscriptionCopy(
  account: BillingAccount,
  subscription: Subscription,
  store: PortalExecutor = db,
): Promise<boolean> {
  const row = subscriptionCopyRow(account.ownerId, subscription);
  const saved = await store
    .insert(subscriptions)
    .values({ id: subscription.id, ...row })
    .onConflictDoUpdate({ target: subscriptions.id, set: row, setWhere: newerOfTheSameOwner(subscriptions) })
    .returning({ id: subscriptions.id });
  return saved.length > 0;
}

/** Saves the invoice's copy for the account, with `store` as above; true when it was new or newer than the one kept. */
export async function saveInvoiceCopy(
  account: BillingAccount,
  invoice: Invoice,
  store: PortalExecutor = db,
): Promise<boolean> {
  const row = invoiceCopyRow(account.ownerId, invoice);
  const saved = await store
    .insert(invoices)
    .values({ id: invoice.id, ...row })
    .onConflictDoUpdate({ target: invoices.id, set: row, setWhere: newerOfTheSameOwner(invoices) })
    .returning({ id: invoices.id });
  return saved.length > 0;
}

/** The account's copy of one subscription, or null. */
export async function subscriptionCopy(account: BillingAccount, subscriptionId: string) {
  const [copy] = await db
    .select()
    .from(subscriptions)
    .where(and(eq(subscriptions.id, subscriptionId), eq(subscriptions.ownerId, account.ownerId)));
  return copy ?? null;
}
