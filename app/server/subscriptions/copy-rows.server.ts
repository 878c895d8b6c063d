import type { invoices, subscriptions } from "~/server/platform/database/tables.server";
import type { Invoice, Subscription } from "~/server/billing/port.server";
import { realNow } from "~/server/platform/real-time.server";

/**
 * A provider's subscription and invoice as the rows of the portal's copies of them (db `subscriptions` and
 * `invoices`), for the account that owns them: one mapping for the copies the events keep and those the demo seed
 * starts with.
 */

export function subscriptionCopyRow(ownerId: string, subscription: Subscription) {
  return {
    ownerId,
    customerId: subscription.customerId,
    planId: subscription.planId,
    planQuantity: subscription.planQuantity,
    status: subscription.status,
    addons: subscription.addons,
    currentTermStart: subscription.currentTermStart,
    currentTermEnd: subscription.currentTermEnd,
    nextBillingAt: subscription.nextBillingAt,
    cancelledAt: subscription.cancelledAt,
    totalDues: subscription.totalDues,
    dueSince: subscription.dueSince,
    resourceVersion: subscription.resourceVersion,
    updatedAt: realNow(),
  } satisfies Omit<typeof subscriptions.$inferInsert, "id">;
}

export function invoiceCopyRow(ownerId: string, invoice: Invoice) {
  return {
    ownerId,
    customerId: invoice.customerId,
    subscriptionId: invoice.subscriptionId,
    number: invoice.number,
    date: invoice.date,
    purpose: invoice.purpose,
    status: invoice.status,
    total: invoice.total,
    amountPaid: invoice.amountPaid,
    amountDue: invoice.amountDue,
    paidAt: invoice.paidAt,
    nextRetryAt: invoice.nextRetryAt,
    paymentFailure: invoice.paymentFailure,
    resourceVersion: invoice.resourceVersion,
    updatedAt: realNow(),
  } satisfies Omit<typeof invoices.$inferInsert, "id">;
}
