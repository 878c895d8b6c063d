import { and, eq, inArray, isNull, ne } from "drizzle-orm";
import { z } from "zod";
import { formatCents } from "~/domain/format";
import type { ProviderEventType } from "~db/billing-values";
import { invoices, providerEvents, subscriptions } from "~/server/platform/database/tables.server";
import {
  GATEKEEPER,
  recordActivity,
  type ActivityEntry,
  billingAccountOfOwner,
  type BillingAccount,
} from "~/server/accounts/index.server";
import { eventResourcesOfJson } from "~/server/billing/event-json.server";
import { getBilling, type Invoice, type Subscription } from "~/server/billing/index.server";
import { db, type PortalDatabase, type PortalTransaction } from "~/server/platform/database/db.server";
import { resultOf, StepRefused, type JobKind } from "~/server/platform/jobs/runner.server";
import { saveInvoiceCopy, saveSubscriptionCopy } from "./copies.server";
import { licenseFollowsSubscription } from "./license-follows.server";
import { mailFailedRenewal } from "./failed-renewal-mail.server";
import { realNow } from "~/server/platform/real-time.server";
import { webhookEventLag, webhookEvents } from "~/server/platform/metrics.server";
import { logger } from "~/server/platform/log/log.server";

/**
 * The one consumer of the provider's events (decision 185): a durable job per stored event, owned by the account
 * the event is about, that applies it to the portal's copies and brings the subscription's license along. However
 * often an event arrives, its job is one (keyed by the event id) and applying it again changes nothing; events of
 * one resource applied in any order, by any number of processes, leave the newest copy (copies.server.ts).
 */

const eventInput = z.object({ eventId: z.string() });
type EventInput = z.infer<typeof eventInput>;

export type ProviderEventResults = {
  /**
   * The subscription the event was about, or whose invoice it was: its license follows next; and the renewal
   * invoice whose payment failed, when the event says so, which is mailed last.
   */
  apply: { subscriptionId: string | null; failedRenewal?: string | null };
  "follow-license": { licenseId: string | null; resigned: boolean };
  "mail-failed-renewal": { recipients: number };
};

/** A resource the event carried without a version (0) is read again from the provider, which has the current one. */
async function currentSubscription(account: BillingAccount & { customerId: string }, subscription: Subscription) {
  return subscription.resourceVersion > 0
    ? subscription
    : getBilling().retrieveSubscription(account.customerId, subscription.id);
}

async function currentInvoice(account: BillingAccount & { customerId: string }, invoice: Invoice) {
  return invoice.resourceVersion > 0 ? invoice : getBilling().retrieveInvoice(account.customerId, invoice.id);
}

/** The job's account with its customer: an event is only ever applied to the account of its own customer. */
async function accountOf(ownerId: string) {
  const account = await billingAccountOfOwner(ownerId);
  if (!account.customerId) throw new StepRefused("The account has no billing customer.");
  return { ...account, customerId: account.customerId };
}

/** What the organization's activity log says of an event: renewals, payments and their failures, cancellations. */
function activityOf(
  type: ProviderEventType,
  subscription: Subscription | null | undefined,
  invoice: Invoice | null | undefined,
): Pick<ActivityEntry, "action" | "summary"> | null {
  const amount = (cents: number) => formatCents(cents);
  switch (type) {
    case "subscription_renewed":
      return subscription
        ? { action: "subscription.renewed", summary: `Subscription ${subscription.id} renewed for another term.` }
        : null;
    case "subscription_cancelled":
      return subscription
        ? { action: "subscription.cancelled", summary: `Subscription ${subscription.id} was cancelled.` }
        : null;
    case "invoice_paid":
      return invoice
        ? { action: "payment.succeeded", summary: `Invoice ${invoice.number} was paid: ${amount(invoice.amountPaid)}.` }
        : null;
    case "payment_failed":
      return invoice
        ? {
            action: "payment.failed",
            summary: `The payment of invoice ${invoice.number} (${amount(invoice.total)}) failed.`,
          }
        : null;
    default:
      return null;
  }
}

/** What applying a stored event changes: the copies of its resources (as the provider has them now), its entry. */
export interface EventChange {
  eventId: string;
  account: BillingAccount & { customerId: string };
  subscription: Subscription | null;
  invoice: Invoice | null;
  entry: Pick<ActivityEntry, "action" | "summary"> | null;
}

/**
 * Whether the event's resources are another customer's: one that names another customer than the event's, or one
 * whose copy the portal holds for another organization (a subscription, an invoice, or the subscription an invoice
 * is of). Chargebee keeps a subscription with its customer; an event that would move one is not to be believed.
 */
async function foreignTo(
  tx: PortalTransaction,
  { account, subscription, invoice }: Pick<EventChange, "account" | "subscription" | "invoice">,
): Promise<boolean> {
  const customers = [subscription?.customerId, invoice?.customerId].filter((id) => id !== undefined);
  if (customers.some((customerId) => customerId !== account.customerId)) return true;
  const subscriptionIds = [subscription?.id, invoice?.subscriptionId].filter((id): id is string => Boolean(id));
  const elsewhere = (ownerId: typeof subscriptions.ownerId | typeof invoices.ownerId) => ne(ownerId, account.ownerId);
  const [heldSubscription] = subscriptionIds.length
    ? await tx
        .select({ id: subscriptions.id })
        .from(subscriptions)
        .where(and(inArray(subscriptions.id, subscriptionIds), elsewhere(subscriptions.ownerId)))
        .limit(1)
    : [];
  const [heldInvoice] = invoice
    ? await tx
        .select({ id: invoices.id })
        .from(invoices)
        .where(and(eq(invoices.id, invoice.id), elsewhere(invoices.ownerId)))
        .limit(1)
    : [];
  return heldSubscription !== undefined || heldInvoice !== undefined;
}

/** One line for an event that was kept and not applied because its resources are another customer's. */
function logForeignEvent({ eventId, account, subscription, invoice }: EventChange): void {
  logger.warn(
    {
      event: "provider-event-foreign-resource",
      eventId,
      customerId: account.customerId,
      subscriptionId: subscription?.id ?? invoice?.subscriptionId ?? null,
      invoiceId: invoice?.id ?? null,
    },
    "A billing provider's event names a subscription or invoice of another customer: it is kept, not applied. " +
      "Chargebee never moves one between customers, so this event may be forged with the webhook credentials.",
  );
}

/**
 * Applies a stored event on `database` (the portal's, or another connection to it): the mark that it was
 * applied, the copies it changes and its entry in the organization's log (by GateKeeper) commit together, so an
 * event applied twice, or by two processes at once, changes and records once. The mark is set only where it is not
 * yet: a second process's update waits on the first's row lock, then finds the mark set and changes nothing, and
 * only the transaction that set it goes on to the copies and the entry. An event whose resources are another
 * customer's (foreignTo) is marked `foreign_resource` instead, changes nothing and is logged. True when this call
 * applied it.
 */
export async function applyEvent(database: PortalDatabase, change: EventChange): Promise<boolean> {
  const { account, subscription, invoice, entry } = change;
  const appliedAt = realNow();
  const outcome = await database.transaction(async (tx) => {
    const foreign = await foreignTo(tx, change);
    const [marked] = await tx
      .update(providerEvents)
      .set({ appliedAt, outcome: foreign ? "foreign_resource" : "applied" })
      .where(and(eq(providerEvents.id, change.eventId), isNull(providerEvents.appliedAt)))
      .returning({ occurredAt: providerEvents.occurredAt });
    if (!marked) return "done before";
    if (foreign) return "foreign";
    if (subscription) await saveSubscriptionCopy(account, subscription, tx);
    if (invoice) await saveInvoiceCopy(account, invoice, tx);
    if (entry) await recordActivity(tx, { organizationId: account.ownerId, actor: GATEKEEPER, ...entry });
    return marked.occurredAt;
  });
  if (outcome === "done before") return false;
  if (outcome === "foreign") {
    logForeignEvent(change);
    webhookEvents.inc({ outcome: "set_aside" });
    return false;
  }
  webhookEvents.inc({ outcome: "applied" });
  // The embedded engine's events carry its clock's time, which the time machine moves ahead of real time.
  webhookEventLag.observe(Math.max(0, (appliedAt.getTime() - outcome.getTime()) / 1000));
  return true;
}

export const providerEventJob: JobKind<EventInput, ProviderEventResults> = {
  name: "provider-event",
  input: eventInput,
  steps: [
    {
      name: "apply",
      async run({ ownerId, input }) {
        const account = await accountOf(ownerId);
        const [row] = await db
          .select()
          .from(providerEvents)
          .where(and(eq(providerEvents.id, input.eventId), eq(providerEvents.customerId, account.customerId)));
        if (!row) throw new StepRefused(`The event ${input.eventId} is not this account's.`);
        const { subscription, invoice } = eventResourcesOfJson(row.payload);
        const subscriptionId = subscription?.id ?? invoice?.subscriptionId ?? null;
        if (row.appliedAt === null) {
          // The provider is asked (for a resource the event carried without a version) before the transaction.
          const copies = {
            subscription: subscription ? await currentSubscription(account, subscription) : null,
            invoice: invoice ? await currentInvoice(account, invoice) : null,
          };
          await applyEvent(db, {
            eventId: row.id,
            account,
            ...copies,
            entry: activityOf(row.type, subscription, invoice),
          });
        }
        const failedRenewal = row.type === "payment_failed" && invoice?.subscriptionId ? invoice.id : null;
        return { subscriptionId, failedRenewal };
      },
    },
    {
      name: "follow-license",
      async run({ ownerId, results }) {
        const { subscriptionId } = resultOf(results, "apply");
        const followed = subscriptionId
          ? await licenseFollowsSubscription(await accountOf(ownerId), subscriptionId)
          : null;
        return { licenseId: followed?.licenseId ?? null, resigned: followed?.resigned ?? false };
      },
    },
    {
      name: "mail-failed-renewal",
      async run({ ownerId, input, results }) {
        const { failedRenewal } = resultOf(results, "apply");
        return { recipients: failedRenewal ? await mailFailedRenewal(ownerId, input.eventId, failedRenewal) : 0 };
      },
    },
  ],
  failure: (step) => ({
    step,
    title: "Event not applied",
    message: "The billing provider's event is applied again later.",
  }),
};
