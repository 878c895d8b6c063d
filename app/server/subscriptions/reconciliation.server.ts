import { randomUUID } from "node:crypto";
import { hostname } from "node:os";
import { and, eq, isNotNull, isNull, lt, lte, ne, or } from "drizzle-orm";
import { z } from "zod";
import { licenses, providerEvents, providerSync, subscriptions } from "~/server/platform/database/tables.server";
import { getBilling, onBillingEvents, ProviderError } from "~/server/billing/index.server";
import { billingAccountOfOwner, billingAccounts, type BillingAccount } from "~/server/accounts/index.server";
import { db } from "~/server/platform/database/db.server";
import { env } from "~/server/platform/config/env.server";
import { enqueueJob, type JobKind } from "~/server/platform/jobs/runner.server";
import { saveInvoiceCopy, saveSubscriptionCopy } from "./copies.server";
import { queuePendingEvents, storeProviderEvents } from "./event-feed.server";
import { licenseFollowsSubscription } from "./license-follows.server";
import { realNow } from "~/server/platform/real-time.server";
import { errorFields, logger } from "~/server/platform/log/log.server";

/**
 * The reconciliation (decision 185): whatever an event missed (a webhook lost, the portal down, a process that
 * died between storing and applying), the portal's copy is repaired within one period (RECONCILIATION_MINUTES,
 * an hour by default). On schedule, one process at a time (a lease on the one provider_sync row): the provider's
 * events list is polled from where the last poll stopped, events stored but not applied are queued again, and a
 * reconciliation job re-reads each account's running subscriptions and their invoices. At start-up the run
 * that fell due while the portal was down runs at once.
 */

const SYNC_ROW = "provider";
const MINUTE_MS = 60_000;
const DAY_MS = 24 * 60 * MINUTE_MS;
/** What the provider keeps of its events (Chargebee: 90 days): the first poll starts there. */
const EVENTS_KEPT_MS = 90 * DAY_MS;
/** Each poll starts this far before where the last stopped: an event listed twice is stored once. */
const POLL_OVERLAP_MS = 60 * MINUTE_MS;
/** How long one process holds the run; another takes over after it, had this one died. */
const SYNC_LEASE_MS = 10 * MINUTE_MS;
/** How often each process looks whether a run is due. */
const TICK_MS = MINUTE_MS;

const reconciliationInput = z.object({
  /** The first run ever: every invoice of the account is read, not only its running subscriptions'. */
  full: z.boolean(),
});
type ReconciliationInput = z.infer<typeof reconciliationInput>;

export type ReconciliationResults = {
  subscriptions: { checked: number; repaired: number };
  invoices: { checked: number; repaired: number };
};

const isNotFound = (error: unknown) => error instanceof ProviderError && error.code === "not_found";

/** The account's subscriptions that may still change: those with a license, and copies not cancelled. */
async function runningSubscriptionsOf(account: BillingAccount): Promise<string[]> {
  const licensed = await db
    .select({ id: licenses.subscriptionId })
    .from(licenses)
    .leftJoin(subscriptions, eq(subscriptions.id, licenses.subscriptionId))
    .where(
      and(
        eq(licenses.ownerId, account.ownerId),
        isNotNull(licenses.subscriptionId),
        or(isNull(subscriptions.status), ne(subscriptions.status, "cancelled")),
      ),
    );
  const copied = await db
    .select({ id: subscriptions.id })
    .from(subscriptions)
    .where(and(eq(subscriptions.ownerId, account.ownerId), ne(subscriptions.status, "cancelled")));
  return [...new Set([...licensed, ...copied].flatMap((row) => (row.id ? [row.id] : [])))];
}

async function accountOf(ownerId: string) {
  const account = await billingAccountOfOwner(ownerId);
  return account.customerId ? { ...account, customerId: account.customerId } : null;
}

/** One account's reconciliation: its copies re-read from the provider, and its licenses brought along. */
export const reconciliation: JobKind<ReconciliationInput, ReconciliationResults> = {
  name: "reconciliation",
  input: reconciliationInput,
  steps: [
    {
      name: "subscriptions",
      async run({ ownerId }) {
        const account = await accountOf(ownerId);
        if (!account) return { checked: 0, repaired: 0 };
        const billing = getBilling();
        let [checked, repaired] = [0, 0];
        for (const subscriptionId of await runningSubscriptionsOf(account)) {
          try {
            const subscription = await billing.retrieveSubscription(account.customerId, subscriptionId);
            const invoices = await billing.listInvoices(account.customerId, { subscriptionId });
            checked += 1;
            let changed = await saveSubscriptionCopy(account, subscription);
            for (const invoice of invoices) changed = (await saveInvoiceCopy(account, invoice)) || changed;
            if (changed) repaired += 1;
          } catch (error) {
            // A subscription the provider does not have (a demo's, with a real provider) has nothing to repair.
            if (isNotFound(error)) continue;
            throw error;
          }
          await licenseFollowsSubscription(account, subscriptionId);
        }
        return { checked, repaired };
      },
    },
    {
      name: "invoices",
      async run({ ownerId, input }) {
        const account = await accountOf(ownerId);
        if (!account || !input.full) return { checked: 0, repaired: 0 };
        let repaired = 0;
        const invoices = await getBilling()
          .listInvoices(account.customerId)
          // A customer not made at the provider yet (it is, on first need) has no invoices.
          .catch((error: unknown) => (isNotFound(error) ? [] : Promise.reject(error)));
        for (const invoice of invoices) if (await saveInvoiceCopy(account, invoice)) repaired += 1;
        return { checked: invoices.length, repaired };
      },
    },
  ],
  failure: (step) => ({
    step,
    title: "Not reconciled",
    message: "The portal's copy of this account's billing is reconciled again at the next run.",
  }),
};

// --- the schedule ---------------------------------------------------------------------------------------------

const processId = `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;

/**
 * Takes the run when it is due and no other process holds it: the row with this run's lease, or null. The lease is
 * taken by one conditional update, so of two processes claiming at once one gets the row (on PostgreSQL the
 * second's update waits on the first's row lock, then finds the lease taken).
 */
async function claimRun(now: Date, lease: string) {
  await db
    .insert(providerSync)
    .values({ id: SYNC_ROW, eventsSince: new Date(now.getTime() - EVENTS_KEPT_MS), nextRunAt: new Date(0) })
    .onConflictDoNothing();
  const [run] = await db
    .update(providerSync)
    .set({ leaseHolder: lease, leaseUntil: new Date(now.getTime() + SYNC_LEASE_MS) })
    .where(
      and(
        eq(providerSync.id, SYNC_ROW),
        lte(providerSync.nextRunAt, now),
        or(isNull(providerSync.leaseUntil), lt(providerSync.leaseUntil, now)),
      ),
    )
    .returning();
  return run ?? null;
}

/** The provider's events since `since` (a little before, see POLL_OVERLAP_MS), stored; the latest one's time. */
async function pollEvents(since: Date): Promise<Date> {
  let latest = since;
  let pageToken: string | undefined;
  do {
    const page = await getBilling().listEvents({ since: new Date(since.getTime() - POLL_OVERLAP_MS), pageToken });
    await storeProviderEvents(page.events, "poll");
    for (const event of page.events) if (event.occurredAt > latest) latest = event.occurredAt;
    pageToken = page.nextPageToken ?? undefined;
  } while (pageToken);
  return latest;
}

/** Accounts with something to reconcile: a license paid by a subscription, or a subscription not cancelled. */
async function accountsToReconcile(): Promise<string[]> {
  const rows = await db
    .select({ ownerId: licenses.ownerId })
    .from(licenses)
    .where(isNotNull(licenses.subscriptionId))
    .union(
      db.select({ ownerId: subscriptions.ownerId }).from(subscriptions).where(ne(subscriptions.status, "cancelled")),
    );
  return rows.map((row) => row.ownerId);
}

/**
 * Runs the reconciliation if it is due and no other process runs it; true when this call ran it. A failure leaves
 * the schedule where it was, so the next tick (of any process) tries again once the lease is out. The events
 * cursor read with the lease is written back only while this run still holds it (the lease names the run, not
 * only its process): a run that outlived its lease, overtaken by another, cannot move the cursor under it.
 */
export async function reconcileWhenDue(now = realNow(), holder = processId): Promise<boolean> {
  const lease = `${holder}:${randomUUID().slice(0, 8)}`;
  const run = await claimRun(now, lease);
  if (!run) return false;
  try {
    const eventsSince = await pollEvents(run.eventsSince);
    const pending = await db
      .select({ id: providerEvents.id })
      .from(providerEvents)
      .where(isNull(providerEvents.appliedAt));
    await queuePendingEvents(pending.map((event) => event.id));
    const full = run.lastRunAt === null;
    const owners = full ? (await billingAccounts()).map((account) => account.ownerId) : await accountsToReconcile();
    for (const ownerId of owners) {
      await enqueueJob(reconciliation, {
        ownerId,
        idempotencyKey: `reconciliation:${ownerId}:${now.toISOString()}`,
        input: { full },
      });
    }
    await db
      .update(providerSync)
      .set({
        eventsSince,
        lastRunAt: now,
        nextRunAt: new Date(now.getTime() + env.RECONCILIATION_MINUTES * MINUTE_MS),
        leaseHolder: null,
        leaseUntil: null,
      })
      .where(and(eq(providerSync.id, SYNC_ROW), eq(providerSync.leaseHolder, lease)));
    return true;
  } catch (error) {
    await db
      .update(providerSync)
      .set({ leaseHolder: null, leaseUntil: null })
      .where(and(eq(providerSync.id, SYNC_ROW), eq(providerSync.leaseHolder, lease)));
    throw error;
  }
}

let started = false;

/**
 * Starts this process's part in following the provider: the embedded engine's events are stored as they are
 * made, and every minute the process looks whether the reconciliation is due (at once at start-up, so that a run
 * missed while the portal was down happens now).
 */
export function startProviderSync(): void {
  if (started) return;
  started = true;
  onBillingEvents((events) => storeProviderEvents(events, "engine"));
  const tick = (): void => {
    reconcileWhenDue().catch((error: unknown) => {
      logger.error({ event: "reconciliation-failed", ...errorFields(error) });
    });
  };
  tick();
  setInterval(tick, TICK_MS).unref();
}
