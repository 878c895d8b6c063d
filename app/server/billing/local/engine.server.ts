import { and, asc, desc, eq, gte, inArray, lte, sql } from "drizzle-orm";
import { addPeriod, COUPON_MESSAGES } from "~/domain/pricing";
import { INVALID_CUSTOMER_ID, parseGatewayReference } from "~/server/providers/card-gateway.server";
import { attachedCard, cardFromToken, chargeDeclineOf, gatewayCustomerFor } from "~/server/providers/card-vault.server";
import { newId, once, wholeSeconds, type EmbeddedStore } from "~/server/providers/embedded.server";
import {
  billingCustomers,
  billingIdempotencyKeys,
  billingInvoices,
  billingPaymentSources,
  billingSequences,
  billingSubscriptions,
} from "~/server/database/tables.server";
import { catalogue } from "../catalogue.server";
import { BillingError, notFound, refused } from "../errors.server";
import { checkOrderedOnce, hardwareCharges, oneTimeCharges, ordered, type OneTimeCharge } from "../orders.server";
import type {
  Address,
  BillingCall,
  BillingProvider,
  Coupon,
  Customer,
  CustomerProfile,
  Billed,
  Estimate,
  EventQuery,
  HardwareOrder,
  Invoice,
  InvoicePurpose,
  ItemQuantity,
  NewPaymentSource,
  NewSubscriptionEstimateRequest,
  NewSubscriptionRequest,
  PaymentCard,
  PaymentSource,
  Plan,
  ProviderEvent,
  Subscription,
  SubscriptionChange,
  SubscriptionUpdate,
} from "../port.server";
import { EngineClock } from "./clock.server";
import {
  changeEstimate,
  creationEstimate,
  oneTimeInvoice,
  renewalInvoice,
  sum,
  type PricedItem,
} from "./estimates.server";
import { listEvents, writeEvent, type EventFacts } from "./events.server";
import { withFaults } from "./faults.server";
import { renderInvoicePdf } from "./invoice-pdf.server";

type SubscriptionRow = typeof billingSubscriptions.$inferSelect;
type SourceRow = typeof billingPaymentSources.$inferSelect;
type InvoiceRow = typeof billingInvoices.$inferSelect;

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * What the engine does when a renewal's card is declined, as Chargebee's dunning does: it tries again this many
 * days after the failed renewal, and after the last failed retry the invoice is `not_paid` and the subscription
 * cancelled.
 */
export interface Dunning {
  retryAfterDays: number[];
}

/** Three retries over a week. */
export const DEFAULT_DUNNING: Dunning = { retryAfterDays: [1, 3, 7] };

/** Invoices that still ask for money: due, or given up on by dunning (a customer may still pay them). */
const UNPAID: Invoice["status"][] = ["payment_due", "not_paid"];
/** Subscriptions whose term end is due: renewed, or cancelled when their cancellation is scheduled. */
const RENEWING: SubscriptionRow["status"][] = ["active", "non_renewing"];

/** Chargebee's resource_version: a time in milliseconds, and always above the version it replaces. */
const nextVersion = (current: number, at: Date) => Math.max(current + 1, at.getTime());

/** A charge the card gateway declined, in its words; Chargebee's code for a failed payment. */
const DECLINED = "payment_processing_failed";
const declined = (message: string) =>
  new BillingError(`The card was declined: ${message}`, {
    kind: "final",
    providerMessage: message,
    code: DECLINED,
    field: "card",
  });
const isDecline = (error: unknown) => error instanceof BillingError && error.code === DECLINED;

/** A row another call changed since it was read: nothing was written; the next call sees the change. */
const changedMeanwhile = (what: string) =>
  new BillingError(`${what} changed while it was being updated.`, { kind: "retryable" });

/**
 * The earliest of each kind of thing due by a time (`now`, in milliseconds): a future subscription's start, a
 * term's end, a failed payment's retry. Every call of the engine asks, so they are prepared once.
 */
function dueQueries(store: EmbeddedStore) {
  const subs = billingSubscriptions;
  const now = sql.placeholder("now");
  return {
    starts: store
      .select({ id: subs.id, at: subs.currentTermStart })
      .from(subs)
      .where(and(eq(subs.status, "future"), lte(subs.currentTermStart, now)))
      .orderBy(asc(subs.currentTermStart))
      .limit(1)
      .prepare(),
    termEnds: store
      .select({ id: subs.id, at: subs.currentTermEnd })
      .from(subs)
      .where(and(inArray(subs.status, RENEWING), lte(subs.currentTermEnd, now)))
      .orderBy(asc(subs.currentTermEnd))
      .limit(1)
      .prepare(),
    retries: store
      .select({ id: billingInvoices.id, at: billingInvoices.nextRetryAt })
      .from(billingInvoices)
      .where(and(eq(billingInvoices.status, "payment_due"), lte(billingInvoices.nextRetryAt, now)))
      .orderBy(asc(billingInvoices.nextRetryAt))
      .limit(1)
      .prepare(),
  };
}

/** How an invoice was collected when it was made. */
type Collection = "settled" | "charged" | "declined" | "no_card";

/** An invoice as the engine keeps it, in the port's terms (the JSON line items give back ISO strings). */
function invoiceOfRow(row: InvoiceRow): Invoice {
  const dated = row.lineItems.map((item) => ({
    ...item,
    dateFrom: item.dateFrom ? new Date(item.dateFrom) : null,
    dateTo: item.dateTo ? new Date(item.dateTo) : null,
  }));
  return {
    id: row.id,
    customerId: row.customerId,
    subscriptionId: row.subscriptionId,
    status: row.status,
    lineItems: dated,
    discounts: row.discounts,
    subTotal: row.subTotal,
    total: row.total,
    creditsApplied: row.creditsApplied,
    amountPaid: row.amountPaid,
    amountDue: row.amountDue,
    date: row.date,
    // As on Chargebee, an invoice's id is its number.
    number: row.id,
    purpose: row.purpose,
    paidAt: row.paidAt,
    nextRetryAt: row.nextRetryAt,
    resourceVersion: row.resourceVersion,
  };
}

/** What the time machine did: the clock before and after, and the events of everything that fell due between. */
export interface ClockAdvance {
  from: Date;
  to: Date;
  events: ProviderEvent[];
}

/**
 * The embedded engine's calls beyond the port: its clock, which only it has (Chargebee's time runs at Chargebee).
 */
export interface EmbeddedBilling extends BillingProvider {
  readonly name: "local";
  /** The engine's date: real time plus how far the time machine moved it. */
  clockNow(): Promise<Date>;
  /**
   * The time machine: moves the clock `days` whole days forward and processes everything that falls due in
   * between, in time order, as the passing of real time would: renewals charged to the card on file, declined
   * renewals and their retries, scheduled cancellations; each with its events.
   */
  advanceClock(days: number): Promise<ClockAdvance>;
  /** Processes what is due by the engine's clock now (every call does first); the events it caused. */
  processDue(): Promise<ProviderEvent[]>;
}

/**
 * The embedded billing engine: Chargebee's behaviour for the calls the portal makes, on the portal's
 * SQLite. Each call runs in one transaction; creating calls record their idempotency key in the same
 * transaction, so a repeat returns what the first call made and never charges twice. Every change records its
 * events (Chargebee's) in the transaction that makes it.
 */
class LocalBilling implements EmbeddedBilling {
  readonly name = "local";
  /** Events of the write under way, kept once it commits. */
  private pending: ProviderEvent[] | null = null;
  /** Committed events not yet handed to the listener. */
  private committed: ProviderEvent[] = [];
  private readonly due: ReturnType<typeof dueQueries>;

  constructor(
    private readonly store: EmbeddedStore,
    private readonly clock: EngineClock,
    private readonly dunning: Dunning,
  ) {
    this.due = dueQueries(store);
  }

  private now(): Date {
    return this.clock.now();
  }

  // Copies, so that a caller cannot change the price list.
  async listPlans() {
    return catalogue.plans.map((plan) => ({ ...plan }));
  }

  async listAddons() {
    return catalogue.addons.map((addon) => ({ ...addon }));
  }

  async retrieveCoupon(code: string) {
    return catalogue.coupon(code) ?? this.missing(`Coupon ${code}`);
  }

  async ensureCustomer(customerId: string, profile: CustomerProfile, idempotencyKey: string) {
    return this.once(
      idempotencyKey,
      "ensureCustomer",
      (tx) => {
        if (!this.findCustomer(tx, customerId)) {
          tx.insert(billingCustomers)
            .values({ id: customerId, ...profile, createdAt: this.now() })
            .run();
        }
        return customerId;
      },
      (id) => this.customer(this.store, id),
    );
  }

  async retrieveCustomer(customerId: string) {
    return this.customer(this.store, customerId);
  }

  async updateCustomer(customerId: string, profile: CustomerProfile) {
    return this.changeCustomer(customerId, profile);
  }

  async updateBillingInfo(customerId: string, billingAddress: Address) {
    return this.changeCustomer(customerId, { billingAddress });
  }

  async listPaymentSources(customerId: string) {
    return (
      this.store
        .select()
        .from(billingPaymentSources)
        .where(eq(billingPaymentSources.customerId, customerId))
        // Oldest first, in the order they were added (rowid) when added in the same second.
        .orderBy(asc(billingPaymentSources.createdAt), sql`rowid`)
        .all()
        .map((row) => this.paymentSourceOf(row))
    );
  }

  async createPaymentSourceFromTempToken(source: NewPaymentSource & { tmpToken: string }, idempotencyKey: string) {
    return this.addPaymentSource(source, idempotencyKey, "createPaymentSourceFromTempToken", (tx) => {
      const gatewayCustomer = gatewayCustomerFor(source.customerId);
      const saved = cardFromToken(tx, source.tmpToken, gatewayCustomer, this.now());
      if (!saved) throw refused("The card token is invalid, expired or was already used.", "invalid_token");
      return { card: saved.card, referenceId: `${gatewayCustomer}/${saved.id}` };
    });
  }

  async createPaymentSourceFromPermanentToken(
    source: NewPaymentSource & { referenceId: string },
    idempotencyKey: string,
  ) {
    return this.addPaymentSource(source, idempotencyKey, "createPaymentSourceFromPermanentToken", (tx) => {
      const reference = parseGatewayReference(source.referenceId);
      if (!reference) throw refused(INVALID_CUSTOMER_ID, "invalid_reference");
      const card = attachedCard(tx, reference.paymentMethodId, reference.gatewayCustomer);
      if (!card) throw refused(`No such payment method: '${reference.paymentMethodId}'`, "invalid_reference");
      return { card, referenceId: source.referenceId };
    });
  }

  async deleteLocalPaymentSource(customerId: string, paymentSourceId: string) {
    this.write((tx) => {
      const source = this.paymentSourceOf(this.ownSource(tx, customerId, paymentSourceId));
      tx.delete(billingPaymentSources).where(eq(billingPaymentSources.id, paymentSourceId)).run();
      // A subscription paid with the deleted card has no card of its own any more, and is charged to the customer's
      // primary one, as Chargebee charges a subscription without one: a card replaced on the account page pays the
      // next renewal.
      tx.update(billingSubscriptions)
        .set({ paymentSourceId: null })
        .where(eq(billingSubscriptions.paymentSourceId, paymentSourceId))
        .run();
      const customer = this.customer(tx, customerId);
      if (customer.primaryPaymentSourceId === paymentSourceId) {
        // As Chargebee does, another card on file (if any) becomes the primary one.
        const next = tx
          .select({ id: billingPaymentSources.id })
          .from(billingPaymentSources)
          .where(eq(billingPaymentSources.customerId, customerId))
          .get();
        this.setPrimary(tx, customerId, next?.id ?? null);
      }
      this.record(tx, {
        type: "payment_source_deleted",
        providerType: "payment_source_locally_deleted",
        occurredAt: this.now(),
        customerId,
        paymentSource: source,
      });
    });
  }

  async retrieveSubscription(customerId: string, subscriptionId: string) {
    return this.subscriptionOf(this.store, this.ownSubscription(this.store, customerId, subscriptionId));
  }

  async estimateNewSubscription(request: NewSubscriptionEstimateRequest) {
    return this.priceNewSubscription(this.store, request, this.startOf(request));
  }

  async createSubscription(request: NewSubscriptionRequest, idempotencyKey: string) {
    return this.once(
      idempotencyKey,
      "createSubscription",
      (tx) => {
        const now = this.now();
        const start = this.startOf(request);
        const estimate = this.priceNewSubscription(tx, request, start);
        const source = this.chargeableSource(tx, request.customerId, request.paymentSourceId);
        const plan = this.plan(request.planId);
        const id = newId("sub");
        tx.insert(billingSubscriptions)
          .values({
            id,
            customerId: request.customerId,
            planId: plan.id,
            planQuantity: request.planQuantity,
            planUnitPrice: plan.price,
            addons: ordered(request.addons),
            status: start > now ? "future" : "active",
            currentTermStart: start,
            currentTermEnd: addPeriod(start, plan.period),
            nextBillingAt: addPeriod(start, plan.period),
            paymentSourceId: source.id,
            shippingAddress: request.shippingAddress ?? null,
            licenseAssignment: request.licenseAssignment,
            createdAt: now,
            resourceVersion: now.getTime(),
          })
          .run();
        const invoice = this.invoice(tx, {
          customerId: request.customerId,
          subscriptionId: id,
          purpose: "new_subscription",
          source,
          totals: estimate,
          at: now,
          shippingAddress: request.shippingAddress,
          whenDeclined: "refuse",
        });
        this.recordSubscription(tx, id, now, "subscription_created", "subscription_created", invoice.id);
        this.recordInvoice(tx, invoice, now);
        return id;
      },
      (id) => this.subscriptionOf(this.store, this.ownSubscription(this.store, request.customerId, id)),
    );
  }

  async findSubscriptionByKey(customerId: string, idempotencyKey: string) {
    const made = this.madeWith(idempotencyKey, "createSubscription");
    return made ? this.subscriptionOf(this.store, this.ownSubscription(this.store, customerId, made)) : null;
  }

  async estimateSubscriptionUpdate(customerId: string, subscriptionId: string, change: SubscriptionChange) {
    const row = this.changeable(this.ownSubscription(this.store, customerId, subscriptionId));
    return this.priceChange(this.store, row, change);
  }

  async updateSubscription(
    customerId: string,
    subscriptionId: string,
    update: SubscriptionUpdate,
    idempotencyKey: string,
  ) {
    return this.once(
      idempotencyKey,
      "updateSubscription",
      (tx) => {
        const row = this.changeable(this.ownSubscription(tx, customerId, subscriptionId));
        const estimate = this.priceChange(tx, row, update);
        const plan = this.plan(update.planId);
        const now = this.now();
        const invoice =
          estimate.lineItems.length > 0
            ? this.invoice(tx, {
                customerId,
                subscriptionId,
                purpose: "subscription_change",
                source: this.chargeableSource(
                  tx,
                  customerId,
                  row.paymentSourceId ?? this.customer(tx, customerId).primaryPaymentSourceId,
                ),
                totals: estimate,
                at: now,
                whenDeclined: "refuse",
              })
            : null;
        const adjusted = this.adjustUnpaid(tx, row, estimate.adjustments, now);
        const newTerm = plan.period !== this.plan(row.planId).period;
        this.changeSubscriptionRow(
          tx,
          row,
          {
            planId: plan.id,
            planQuantity: update.planQuantity,
            planUnitPrice: plan.price,
            addons: update.addons ? ordered(update.addons) : row.addons,
            ...(newTerm && estimate.nextBilling
              ? {
                  currentTermStart: now,
                  currentTermEnd: estimate.nextBilling.at,
                  nextBillingAt: estimate.nextBilling.at,
                  // A scheduled cancellation moves with the term it ends.
                  ...(row.status === "non_renewing" ? { cancelledAt: estimate.nextBilling.at } : {}),
                }
              : {}),
            ...(update.shippingAddress ? { shippingAddress: update.shippingAddress } : {}),
          },
          now,
        );
        // Chargebee keeps the billing address on the customer; a subscription update that sends one changes it.
        if (update.billingAddress) {
          tx.update(billingCustomers)
            .set({ billingAddress: update.billingAddress })
            .where(eq(billingCustomers.id, customerId))
            .run();
        }
        this.recordSubscription(tx, subscriptionId, now, "subscription_changed", "subscription_changed", invoice?.id);
        if (invoice) this.recordInvoice(tx, invoice, now);
        for (const id of adjusted) this.recordInvoiceChange(tx, id, now, "invoice_updated", "invoice_updated");
        return subscriptionId;
      },
      (id) => this.subscriptionOf(this.store, this.ownSubscription(this.store, customerId, id)),
    );
  }

  async overrideBillingProfile(
    customerId: string,
    subscriptionId: string,
    profile: { paymentSourceId: string; autoCollection: boolean },
  ) {
    return this.write((tx) => {
      const row = this.ownSubscription(tx, customerId, subscriptionId);
      this.ownSource(tx, customerId, profile.paymentSourceId);
      const now = this.now();
      this.changeSubscriptionRow(
        tx,
        row,
        { paymentSourceId: profile.paymentSourceId, autoCollection: profile.autoCollection },
        now,
      );
      return this.recordSubscription(tx, subscriptionId, now, "subscription_changed", "subscription_changed");
    });
  }

  async createHardwareInvoice(order: HardwareOrder, idempotencyKey: string) {
    return this.once(
      idempotencyKey,
      "createHardwareInvoice",
      (tx) => {
        const now = this.now();
        const balance = this.customer(tx, order.customerId).creditBalance;
        const totals = oneTimeInvoice(this.priced(hardwareCharges(order.hardware), order.hardware), now, balance);
        const source = this.chargeableSource(tx, order.customerId, order.paymentSourceId);
        const invoice = this.invoice(tx, {
          customerId: order.customerId,
          subscriptionId: null,
          purpose: "one_time",
          source,
          totals,
          at: now,
          shippingAddress: order.shippingAddress,
          whenDeclined: "refuse",
        });
        this.recordInvoice(tx, invoice, now);
        return invoice.id;
      },
      (id) => invoiceOfRow(this.ownInvoice(this.store, order.customerId, id)),
    );
  }

  async findInvoiceByKey(customerId: string, idempotencyKey: string) {
    const made = this.madeWith(idempotencyKey, "createHardwareInvoice");
    const row = made ? this.findInvoice(this.store, customerId, made) : undefined;
    return row ? invoiceOfRow(row) : null;
  }

  async listInvoices(customerId: string, filter: { subscriptionId?: string } = {}) {
    this.customer(this.store, customerId);
    return this.store
      .select()
      .from(billingInvoices)
      .where(
        and(
          eq(billingInvoices.customerId, customerId),
          filter.subscriptionId === undefined ? undefined : eq(billingInvoices.subscriptionId, filter.subscriptionId),
        ),
      )
      .orderBy(desc(billingInvoices.date), sql`rowid desc`)
      .all()
      .map(invoiceOfRow);
  }

  async retrieveInvoice(customerId: string, invoiceId: string) {
    return invoiceOfRow(this.ownInvoice(this.store, customerId, invoiceId));
  }

  async invoicePdf(customerId: string, invoiceId: string) {
    const row = this.ownInvoice(this.store, customerId, invoiceId);
    const customer = this.customer(this.store, customerId);
    const subscription = row.subscriptionId
      ? this.store.select().from(billingSubscriptions).where(eq(billingSubscriptions.id, row.subscriptionId)).get()
      : undefined;
    const invoice = invoiceOfRow(row);
    const bytes = await renderInvoicePdf({
      invoice,
      customer,
      billingAddress: row.billingAddress ?? customer.billingAddress,
      shippingAddress: row.shippingAddress ?? subscription?.shippingAddress ?? null,
    });
    return { kind: "document" as const, fileName: `invoice-${invoice.number}.pdf`, bytes };
  }

  async collectPayment(customerId: string, invoiceId: string, paymentSourceId: string, idempotencyKey: string) {
    try {
      return this.once(
        idempotencyKey,
        "collectPayment",
        (tx) => {
          const row = this.ownInvoice(tx, customerId, invoiceId);
          if (!UNPAID.includes(row.status) || row.amountDue === 0) {
            throw refused(`Invoice ${row.id} has nothing to pay.`, "invalid_state_for_request");
          }
          const source = this.chargeableSource(tx, customerId, paymentSourceId);
          const decline = chargeDeclineOf(tx, source.referenceId);
          if (decline) throw declined(decline.message);
          const now = this.now();
          this.settle(tx, row, source, now);
          this.recordInvoiceChange(tx, invoiceId, now, "invoice_paid", "payment_succeeded");
          return invoiceId;
        },
        (id) => invoiceOfRow(this.ownInvoice(this.store, customerId, id)),
      );
    } catch (error) {
      // The gateway refused the charge: Chargebee records the failed payment, though the invoice stays as it was.
      if (isDecline(error)) {
        this.write((tx) => this.recordInvoiceChange(tx, invoiceId, this.now(), "payment_failed", "payment_failed"));
      }
      throw error;
    }
  }

  async findInvoicePayment(customerId: string, invoiceId: string) {
    const row = this.ownInvoice(this.store, customerId, invoiceId);
    return row.status === "paid" ? invoiceOfRow(row) : null;
  }

  async cancelSubscriptionAtTermEnd(customerId: string, subscriptionId: string, idempotencyKey: string) {
    return this.once(
      idempotencyKey,
      "cancelSubscriptionAtTermEnd",
      (tx) => {
        const row = this.ownSubscription(tx, customerId, subscriptionId);
        if (row.status === "non_renewing") return row.id;
        this.changeable(row);
        const now = this.now();
        this.changeSubscriptionRow(tx, row, { status: "non_renewing", cancelledAt: row.currentTermEnd }, now);
        this.recordSubscription(
          tx,
          row.id,
          now,
          "subscription_cancellation_scheduled",
          "subscription_cancellation_scheduled",
        );
        return row.id;
      },
      (id) => this.subscriptionOf(this.store, this.ownSubscription(this.store, customerId, id)),
    );
  }

  async removeScheduledCancellation(customerId: string, subscriptionId: string, idempotencyKey: string) {
    return this.once(
      idempotencyKey,
      "removeScheduledCancellation",
      (tx) => {
        const row = this.changeable(this.ownSubscription(tx, customerId, subscriptionId));
        if (row.status !== "non_renewing") return row.id;
        const now = this.now();
        this.changeSubscriptionRow(tx, row, { status: "active", cancelledAt: null }, now);
        this.recordSubscription(
          tx,
          row.id,
          now,
          "subscription_scheduled_cancellation_removed",
          "subscription_scheduled_cancellation_removed",
        );
        return row.id;
      },
      (id) => this.subscriptionOf(this.store, this.ownSubscription(this.store, customerId, id)),
    );
  }

  async listEvents(query: EventQuery) {
    return listEvents(this.store, query);
  }

  async clockNow() {
    return this.now();
  }

  async advanceClock(days: number) {
    const from = this.now();
    const mark = this.committed.length;
    this.write((tx) => this.clock.advance(tx, days));
    this.catchUp();
    return { from, to: this.now(), events: this.committed.slice(mark) };
  }

  async processDue() {
    const mark = this.committed.length;
    this.catchUp();
    return this.committed.slice(mark);
  }

  // --- the passing of time ----------------------------------------------------------------------

  /**
   * Processes everything that has fallen due by the engine's clock, earliest first, one step per transaction:
   * a future subscription starts, a term ends (renewed, or cancelled when its cancellation is scheduled), a
   * failed payment is retried. So the engine's state and its events are what the passing of real time would have
   * made them, whoever calls first.
   */
  catchUp(): void {
    for (;;) {
      const now = this.now();
      const step = this.nextDue(now);
      if (!step) return;
      this.write((tx) => (step.kind === "invoice" ? this.retry(tx, step.id) : this.subscriptionDue(tx, step.id)));
    }
  }

  /** The earliest thing due by `now`: a subscription's start or term end, or an invoice's payment retry. */
  private nextDue(now: Date): { kind: "subscription" | "invoice"; id: string; at: Date } | null {
    const at = { now: now.getTime() };
    const start = this.due.starts.get(at);
    const termEnd = this.due.termEnds.get(at);
    const retry = this.due.retries.get(at);
    const candidates = [
      ...(start ? [{ kind: "subscription" as const, id: start.id, at: start.at }] : []),
      ...(termEnd ? [{ kind: "subscription" as const, id: termEnd.id, at: termEnd.at }] : []),
      ...(retry?.at ? [{ kind: "invoice" as const, id: retry.id, at: retry.at }] : []),
    ];
    return candidates.sort((a, b) => a.at.getTime() - b.at.getTime())[0] ?? null;
  }

  /** A subscription's start or term end, at the time it fell due (unless another process handled it first). */
  private subscriptionDue(tx: EmbeddedStore, subscriptionId: string): void {
    const row = tx.select().from(billingSubscriptions).where(eq(billingSubscriptions.id, subscriptionId)).get();
    const now = this.now();
    if (!row) return;
    if (row.status === "future" && row.currentTermStart <= now) {
      const at = row.currentTermStart;
      this.changeSubscriptionRow(tx, row, { status: "active" }, at);
      this.recordSubscription(tx, row.id, at, "subscription_changed", "subscription_started");
    } else if (RENEWING.includes(row.status) && row.currentTermEnd <= now) {
      if (row.status === "non_renewing") this.cancelAtTermEnd(tx, row);
      else this.renew(tx, row);
    }
  }

  /** Auto-renew was off: at the end of its term the subscription is cancelled, and nothing is charged. */
  private cancelAtTermEnd(tx: EmbeddedStore, row: SubscriptionRow): void {
    const at = row.currentTermEnd;
    this.changeSubscriptionRow(tx, row, { status: "cancelled", cancelledAt: at }, at);
    this.recordSubscription(tx, row.id, at, "subscription_cancelled", "subscription_cancelled");
  }

  /**
   * The next term, invoiced for the full term at its start and paid from the credit balance first, then the card
   * on file (when the subscription collects automatically). A declined card leaves the invoice due and starts
   * dunning; no usable card leaves it due (Chargebee does not try to charge without one).
   */
  private renew(tx: EmbeddedStore, row: SubscriptionRow): void {
    const plan = this.plan(row.planId);
    const recurring = this.recurringItems(plan, row.planQuantity, row.addons, row.planUnitPrice);
    const start = row.currentTermEnd;
    const end = addPeriod(start, plan.period);
    this.changeSubscriptionRow(tx, row, { currentTermStart: start, currentTermEnd: end, nextBillingAt: end }, start);
    const invoice = this.invoice(tx, {
      customerId: row.customerId,
      subscriptionId: row.id,
      purpose: "renewal",
      source: row.autoCollection ? this.usableSource(tx, row) : null,
      totals: renewalInvoice(recurring, start, end, this.customer(tx, row.customerId).creditBalance),
      at: start,
      whenDeclined: "dun",
    });
    this.recordSubscription(tx, row.id, start, "subscription_renewed", "subscription_renewed", invoice.id);
    this.recordInvoice(tx, invoice, start);
  }

  /**
   * A scheduled retry of a declined renewal, with the subscription's card on file now (the customer may have
   * replaced it). Paid: dunning ends. Declined: the next retry, or after the last the invoice is not_paid and
   * the subscription is cancelled.
   */
  private retry(tx: EmbeddedStore, invoiceId: string): void {
    const row = tx.select().from(billingInvoices).where(eq(billingInvoices.id, invoiceId)).get();
    if (!row?.nextRetryAt || row.status !== "payment_due" || row.nextRetryAt > this.now()) return;
    const at = row.nextRetryAt;
    const subscription = row.subscriptionId
      ? tx.select().from(billingSubscriptions).where(eq(billingSubscriptions.id, row.subscriptionId)).get()
      : undefined;
    const source = subscription ? this.usableSource(tx, subscription) : null;
    if (source && !chargeDeclineOf(tx, source.referenceId)) {
      this.settle(tx, row, source, at);
      this.recordInvoiceChange(tx, row.id, at, "invoice_paid", "payment_succeeded");
      return;
    }
    const attempts = row.paymentAttempts + 1;
    const next = this.retryAt(row.date, attempts);
    this.changeInvoiceRow(
      tx,
      row,
      { paymentAttempts: attempts, nextRetryAt: next, ...(next ? {} : { status: "not_paid" }) },
      at,
    );
    this.recordInvoiceChange(tx, row.id, at, "payment_failed", "payment_failed");
    if (next) return;
    this.recordInvoiceChange(tx, row.id, at, "invoice_updated", "invoice_updated");
    if (subscription && RENEWING.includes(subscription.status)) {
      this.changeSubscriptionRow(tx, subscription, { status: "cancelled", cancelledAt: at }, at);
      this.recordSubscription(tx, subscription.id, at, "subscription_cancelled", "subscription_cancelled");
    }
  }

  /** When dunning tries again after `attempts` failed attempts at an invoice of `date`; null when it gives up. */
  private retryAt(date: Date, attempts: number): Date | null {
    const days = this.dunning.retryAfterDays[attempts - 1];
    return days === undefined ? null : new Date(date.getTime() + days * DAY_MS);
  }

  // --- idempotency and transactions ----------------------------------------------------------------

  /** The id of what a creating call made with this key, or null when it made nothing. */
  private madeWith(idempotencyKey: string, call: BillingCall): string | null {
    const keys = billingIdempotencyKeys;
    const made = this.store
      .select()
      .from(keys)
      .where(and(eq(keys.key, idempotencyKey), eq(keys.call, call)))
      .get();
    return made ? String(made.result) : null;
  }

  /** A creating call, once per idempotency key; `read` gives back what it made, on the first call or a repeat. */
  private once<T>(key: string, call: BillingCall, create: (tx: EmbeddedStore) => string, read: (id: string) => T): T {
    return read(this.committing(() => once(this.store, key, call, this.now(), create)));
  }

  /**
   * A transaction whose events are kept once it commits. It takes SQLite's write lock up front: it reads before it
   * writes, and another process catching up on the same renewal must wait for this one and then see it done,
   * rather than fail on a read that went stale.
   */
  private write<T>(change: (tx: EmbeddedStore) => T): T {
    return this.committing(() => this.store.transaction(change, { behavior: "immediate" }));
  }

  private committing<T>(transaction: () => T): T {
    if (this.pending) return transaction();
    this.pending = [];
    try {
      const result = transaction();
      this.committed.push(...this.pending);
      return result;
    } finally {
      this.pending = null;
    }
  }

  /** The committed events nobody has been told of yet. */
  takeCommitted(): ProviderEvent[] {
    return this.committed.splice(0);
  }

  // --- events ---------------------------------------------------------------------------------------

  private record(tx: EmbeddedStore, facts: EventFacts): ProviderEvent {
    if (!this.pending) throw new Error("An event is recorded in the transaction of its change.");
    const event = writeEvent(tx, facts);
    this.pending.push(event);
    return event;
  }

  /** An event of a subscription, with the subscription as it is now (and its invoice, when the change made one). */
  private recordSubscription(
    tx: EmbeddedStore,
    subscriptionId: string,
    at: Date,
    type: EventFacts["type"],
    providerType: string,
    invoiceId?: string,
  ): Subscription {
    const row = tx.select().from(billingSubscriptions).where(eq(billingSubscriptions.id, subscriptionId)).get();
    if (!row) throw new Error(`Subscription ${subscriptionId} disappeared in its own transaction.`);
    const subscription = this.subscriptionOf(tx, row);
    const invoice = invoiceId ? invoiceOfRow(this.ownInvoice(tx, row.customerId, invoiceId)) : undefined;
    this.record(tx, { type, providerType, occurredAt: at, customerId: row.customerId, subscription, invoice });
    return subscription;
  }

  /** An event of an invoice, with the invoice as it is now and its subscription, if it has one. */
  private recordInvoiceChange(
    tx: EmbeddedStore,
    invoiceId: string,
    at: Date,
    type: EventFacts["type"],
    providerType: string,
  ): void {
    const row = tx.select().from(billingInvoices).where(eq(billingInvoices.id, invoiceId)).get();
    if (!row) throw new Error(`Invoice ${invoiceId} disappeared in its own transaction.`);
    const subscriptionRow = row.subscriptionId
      ? tx.select().from(billingSubscriptions).where(eq(billingSubscriptions.id, row.subscriptionId)).get()
      : undefined;
    this.record(tx, {
      type,
      providerType,
      occurredAt: at,
      customerId: row.customerId,
      invoice: invoiceOfRow(row),
      subscription: subscriptionRow ? this.subscriptionOf(tx, subscriptionRow) : undefined,
    });
  }

  /** A new invoice's events, as Chargebee sends them: generated, then the payment that succeeded or failed. */
  private recordInvoice(tx: EmbeddedStore, invoice: { id: string; collection: Collection }, at: Date): void {
    this.recordInvoiceChange(tx, invoice.id, at, "invoice_generated", "invoice_generated");
    if (invoice.collection === "charged") {
      this.recordInvoiceChange(tx, invoice.id, at, "invoice_paid", "payment_succeeded");
    }
    if (invoice.collection === "declined") {
      this.recordInvoiceChange(tx, invoice.id, at, "payment_failed", "payment_failed");
    }
  }

  // --- customers and payment sources ------------------------------------------------------------

  private findCustomer(store: EmbeddedStore, customerId: string) {
    return store.select().from(billingCustomers).where(eq(billingCustomers.id, customerId)).get();
  }

  private customer(store: EmbeddedStore, customerId: string): Customer {
    const row = this.findCustomer(store, customerId) ?? this.missing(`Customer ${customerId}`);
    const { id, firstName, lastName, email, phone, company, billingAddress, primaryPaymentSourceId, creditBalance } =
      row;
    return { id, firstName, lastName, email, phone, company, billingAddress, primaryPaymentSourceId, creditBalance };
  }

  private changeCustomer(
    customerId: string,
    change: Partial<CustomerProfile> & { billingAddress?: Address },
  ): Customer {
    return this.write((tx) => {
      this.customer(tx, customerId);
      tx.update(billingCustomers).set(change).where(eq(billingCustomers.id, customerId)).run();
      return this.customer(tx, customerId);
    });
  }

  private setPrimary(store: EmbeddedStore, customerId: string, paymentSourceId: string | null) {
    store
      .update(billingCustomers)
      .set({ primaryPaymentSourceId: paymentSourceId })
      .where(eq(billingCustomers.id, customerId))
      .run();
  }

  private addPaymentSource(
    source: NewPaymentSource,
    idempotencyKey: string,
    call: BillingCall,
    card: (tx: EmbeddedStore) => { card: PaymentCard; referenceId: string },
  ): PaymentSource {
    return this.once(
      idempotencyKey,
      call,
      (tx) => {
        const customer = this.customer(tx, source.customerId);
        const made = card(tx);
        const id = newId("src");
        const now = this.now();
        tx.insert(billingPaymentSources)
          .values({
            id,
            customerId: source.customerId,
            status: "valid",
            referenceId: made.referenceId,
            ...made.card,
            createdAt: now,
          })
          .run();
        if (source.setAsPrimary || !customer.primaryPaymentSourceId) this.setPrimary(tx, source.customerId, id);
        this.record(tx, {
          type: "payment_source_added",
          providerType: "payment_source_added",
          occurredAt: now,
          customerId: source.customerId,
          paymentSource: this.paymentSourceOf(this.ownSource(tx, source.customerId, id)),
        });
        return id;
      },
      (id) => this.paymentSourceOf(this.ownSource(this.store, source.customerId, id)),
    );
  }

  private ownSource(store: EmbeddedStore, customerId: string, paymentSourceId: string): SourceRow {
    return (
      store
        .select()
        .from(billingPaymentSources)
        .where(and(eq(billingPaymentSources.id, paymentSourceId), eq(billingPaymentSources.customerId, customerId)))
        .get() ?? this.missing(`Payment source ${paymentSourceId}`)
    );
  }

  private paymentSourceOf(row: SourceRow): PaymentSource {
    const { id, customerId, referenceId, brand, last4, firstName, lastName, expiryMonth, expiryYear } = row;
    const now = this.now();
    // A card is good through the last day of its expiry month.
    const expired = Date.UTC(expiryYear, expiryMonth, 1) <= now.getTime();
    return {
      id,
      customerId,
      type: "card",
      status: row.status === "valid" && expired ? "expired" : row.status,
      referenceId,
      card: { brand, last4, firstName, lastName, expiryMonth, expiryYear },
    };
  }

  /** The customer's payment source to charge; it must be theirs and usable. */
  private chargeableSource(store: EmbeddedStore, customerId: string, paymentSourceId: string | null): PaymentSource {
    if (!paymentSourceId) throw refused("The customer has no payment method to charge.", "payment_method_missing");
    const source = this.paymentSourceOf(this.ownSource(store, customerId, paymentSourceId));
    if (source.status !== "valid") {
      throw refused(
        `The payment method ending in ${source.card?.last4} is ${source.status}.`,
        "payment_method_not_usable",
      );
    }
    return source;
  }

  /** The card a renewal is paid with, or null when there is none usable (the invoice is then left due). */
  private usableSource(store: EmbeddedStore, row: SubscriptionRow): PaymentSource | null {
    try {
      return this.chargeableSource(
        store,
        row.customerId,
        row.paymentSourceId ?? this.customer(store, row.customerId).primaryPaymentSourceId,
      );
    } catch (error) {
      if (error instanceof BillingError) return null;
      throw error;
    }
  }

  // --- subscriptions ----------------------------------------------------------------------------

  private ownSubscription(store: EmbeddedStore, customerId: string, subscriptionId: string): SubscriptionRow {
    return (
      store
        .select()
        .from(billingSubscriptions)
        .where(and(eq(billingSubscriptions.id, subscriptionId), eq(billingSubscriptions.customerId, customerId)))
        .get() ?? this.missing(`Subscription ${subscriptionId}`)
    );
  }

  /** A subscription that can still be changed: a cancelled one is refused, as Chargebee refuses it. */
  private changeable(row: SubscriptionRow): SubscriptionRow {
    if (row.status === "cancelled") {
      throw refused(`Subscription ${row.id} is cancelled.`, "invalid_state_for_request");
    }
    return row;
  }

  /** Writes a change to a subscription read in this transaction, with a new resource version. */
  private changeSubscriptionRow(
    tx: EmbeddedStore,
    row: SubscriptionRow,
    change: Partial<SubscriptionRow>,
    at: Date,
  ): void {
    const { changes } = tx
      .update(billingSubscriptions)
      .set({ ...change, resourceVersion: nextVersion(row.resourceVersion, at) })
      .where(and(eq(billingSubscriptions.id, row.id), eq(billingSubscriptions.resourceVersion, row.resourceVersion)))
      .run();
    if (changes !== 1) throw changedMeanwhile(`Subscription ${row.id}`);
  }

  private subscriptionOf(store: EmbeddedStore, row: SubscriptionRow): Subscription {
    const unpaid = store
      .select({ amountDue: billingInvoices.amountDue, date: billingInvoices.date })
      .from(billingInvoices)
      .where(and(eq(billingInvoices.subscriptionId, row.id), inArray(billingInvoices.status, UNPAID)))
      .orderBy(asc(billingInvoices.date))
      .all();
    const renews = row.status === "active" || row.status === "future";
    return {
      id: row.id,
      customerId: row.customerId,
      planId: row.planId,
      planQuantity: row.planQuantity,
      planUnitPrice: row.planUnitPrice,
      status: row.status,
      addons: row.addons,
      currentTermStart: row.currentTermStart,
      currentTermEnd: row.currentTermEnd,
      // Nothing is billed next on a subscription that will not renew.
      nextBillingAt: renews ? row.nextBillingAt : null,
      paymentSourceId: row.paymentSourceId,
      autoCollection: row.autoCollection,
      shippingAddress: row.shippingAddress,
      licenseAssignment: row.licenseAssignment,
      cancelledAt: row.cancelledAt,
      totalDues: sum(unpaid.map((invoice) => invoice.amountDue)),
      dueSince: unpaid[0]?.date ?? null,
      resourceVersion: row.resourceVersion,
    };
  }

  // --- pricing ----------------------------------------------------------------------------------

  private plan(planId: string): Plan {
    return catalogue.plan(planId) ?? this.missing(`Plan ${planId}`);
  }

  private planItem(plan: Plan, quantity: number, unitPrice = plan.price): PricedItem {
    if (!Number.isInteger(quantity) || quantity < 1)
      throw refused("The number of users must be at least 1.", undefined, "plan_quantity");
    return { entityType: "plan", id: plan.id, description: plan.name, unitPrice, quantity };
  }

  /** The plan and its recurring add-ons, which must bill on the plan's period; add-ons sorted by id. */
  private recurringItems(plan: Plan, quantity: number, addons: ItemQuantity[], planUnitPrice?: number): PricedItem[] {
    const addonItems = ordered(addons)
      .map((item) => {
        const addon = catalogue.addon(item.id);
        if (!addon || addon.addonType !== "recurring") return this.missing(`Recurring add-on ${item.id}`);
        if (addon.period !== plan.period) {
          throw refused(`The add-on ${addon.id} is not billed on the same period as the plan ${plan.id}.`);
        }
        checkOrderedOnce(addon, item.quantity);
        return {
          entityType: "addon" as const,
          id: addon.id,
          description: addon.name,
          unitPrice: addon.price,
          quantity: item.quantity,
        };
      })
      .sort((a, b) => a.id.localeCompare(b.id));
    return [this.planItem(plan, quantity, planUnitPrice), ...addonItems];
  }

  /** One-time charges priced from the catalogue; the hardware must be hardware, the rest one-time add-ons. */
  private priced(charges: OneTimeCharge[], hardware: ItemQuantity[] | undefined): PricedItem[] {
    const hardwareIds = new Set(ordered(hardware).map((item) => item.id));
    return charges.map((charge) => {
      const addon = catalogue.addon(charge.id);
      const expected = hardwareIds.has(charge.id) ? ["hardware"] : ["non-recurring", "shipping"];
      if (!addon || !expected.includes(addon.addonType)) return this.missing(`One-time add-on ${charge.id}`);
      checkOrderedOnce(addon, charge.quantity);
      return {
        entityType: "addon",
        id: addon.id,
        description: addon.name,
        unitPrice: charge.unitPrice ?? addon.price,
        quantity: charge.quantity,
      };
    });
  }

  private coupons(couponIds: string[] | undefined): Coupon[] {
    return (couponIds ?? []).map((id) => {
      const coupon = catalogue.coupon(id) ?? this.missing(`Coupon ${id}`);
      if (coupon.status !== "active") throw refused(COUPON_MESSAGES.inactive, "coupon_not_active", "coupon_ids");
      return coupon;
    });
  }

  /** When a new subscription starts: its start date when that is ahead of the engine's clock, else now. */
  private startOf(request: NewSubscriptionEstimateRequest): Date {
    const now = this.now();
    return request.startDate && request.startDate > now ? wholeSeconds(request.startDate) : now;
  }

  private priceNewSubscription(store: EmbeddedStore, request: NewSubscriptionEstimateRequest, start: Date): Estimate {
    const plan = this.plan(request.planId);
    return creationEstimate({
      // Before the customer exists (their first order's Review) there is no balance to use.
      creditBalance: request.customerId ? this.customer(store, request.customerId).creditBalance : 0,
      recurring: this.recurringItems(plan, request.planQuantity, request.addons ?? []),
      oneTime: this.priced(oneTimeCharges(request), request.hardware),
      period: plan.period,
      coupons: this.coupons(request.couponIds),
      start,
    });
  }

  private priceChange(store: EmbeddedStore, row: SubscriptionRow, change: SubscriptionChange): Estimate {
    const currentPlan = this.plan(row.planId);
    const nextPlan = this.plan(change.planId);
    return changeEstimate({
      current: {
        recurring: this.recurringItems(currentPlan, row.planQuantity, row.addons, row.planUnitPrice),
        period: currentPlan.period,
        termStart: row.currentTermStart,
        termEnd: row.currentTermEnd,
      },
      next: {
        recurring: this.recurringItems(nextPlan, change.planQuantity, change.addons ?? row.addons),
        period: nextPlan.period,
      },
      coupons: this.coupons(change.couponIds),
      now: this.now(),
      creditBalance: this.customer(store, row.customerId).creditBalance,
      unpaid: sum(this.unpaidInTerm(store, row).map((invoice) => invoice.amountDue)),
    });
  }

  /** The subscription's invoices of its current term that are still unpaid (a renewal no card could pay), oldest first. */
  private unpaidInTerm(store: EmbeddedStore, row: SubscriptionRow): InvoiceRow[] {
    return store
      .select()
      .from(billingInvoices)
      .where(
        and(
          eq(billingInvoices.subscriptionId, row.id),
          eq(billingInvoices.status, "payment_due"),
          gte(billingInvoices.date, row.currentTermStart),
        ),
      )
      .orderBy(asc(billingInvoices.date), sql`rowid`)
      .all();
  }

  /**
   * A change's adjustments lower what the term's unpaid invoices ask for, oldest first; one asking nothing is
   * settled (and its dunning ends). The ids of the invoices it changed.
   */
  private adjustUnpaid(tx: EmbeddedStore, row: SubscriptionRow, adjustments: number, at: Date): string[] {
    let left = adjustments;
    const adjusted: string[] = [];
    for (const invoice of this.unpaidInTerm(tx, row)) {
      if (left === 0) break;
      const taken = Math.min(left, invoice.amountDue);
      left -= taken;
      const amountDue = invoice.amountDue - taken;
      this.changeInvoiceRow(
        tx,
        invoice,
        amountDue === 0 ? { amountDue, status: "paid", paidAt: at, nextRetryAt: null } : { amountDue },
        at,
      );
      adjusted.push(invoice.id);
    }
    return adjusted;
  }

  // --- invoices ---------------------------------------------------------------------------------

  private findInvoice(store: EmbeddedStore, customerId: string, invoiceId: string) {
    return store
      .select()
      .from(billingInvoices)
      .where(and(eq(billingInvoices.id, invoiceId), eq(billingInvoices.customerId, customerId)))
      .get();
  }

  private ownInvoice(store: EmbeddedStore, customerId: string, invoiceId: string): InvoiceRow {
    return this.findInvoice(store, customerId, invoiceId) ?? this.missing(`Invoice ${invoiceId}`);
  }

  /**
   * The next invoice number, which is the invoice's id as on Chargebee (1, 2, 3, ...): one counter, incremented in
   * the transaction that makes the invoice, so numbers are never skipped or given twice.
   */
  private nextInvoiceNumber(tx: EmbeddedStore): string {
    const counter = tx
      .insert(billingSequences)
      .values({ name: "invoice", value: 1 })
      .onConflictDoUpdate({ target: billingSequences.name, set: { value: sql`${billingSequences.value} + 1` } })
      .returning({ value: billingSequences.value })
      .get();
    return String(counter.value);
  }

  /**
   * Records the invoice and collects it: the customer's credits first (their balance becomes what the invoice
   * left of it), then the card. A declined card refuses the whole call for an order (nothing is made, as Chargebee
   * refuses a subscription it cannot charge), and starts dunning for a renewal.
   */
  private invoice(
    tx: EmbeddedStore,
    invoice: {
      customerId: string;
      subscriptionId: string | null;
      purpose: InvoicePurpose;
      source: PaymentSource | null;
      totals: Billed;
      at: Date;
      shippingAddress?: Address;
      whenDeclined: "refuse" | "dun";
    },
  ): { id: string; collection: Collection } {
    const { lineItems, discounts, subTotal, total, creditsApplied, amountDue, creditBalance } = invoice.totals;
    const { source, at } = invoice;
    const decline = amountDue > 0 && source ? chargeDeclineOf(tx, source.referenceId) : null;
    if (decline && invoice.whenDeclined === "refuse") throw declined(decline.message);
    const collection: Collection = amountDue === 0 ? "settled" : !source ? "no_card" : decline ? "declined" : "charged";
    const paid = collection === "settled" || collection === "charged";
    const customer = this.customer(tx, invoice.customerId);
    const id = this.nextInvoiceNumber(tx);
    tx.insert(billingInvoices)
      .values({
        id,
        customerId: invoice.customerId,
        subscriptionId: invoice.subscriptionId,
        purpose: invoice.purpose,
        status: paid ? "paid" : "payment_due",
        lineItems,
        discounts,
        subTotal,
        total,
        creditsApplied,
        amountPaid: paid ? amountDue : 0,
        amountDue: paid ? 0 : amountDue,
        paymentSourceId: source?.id ?? null,
        shippingAddress: invoice.shippingAddress ?? null,
        billingAddress: customer.billingAddress,
        date: at,
        paidAt: paid ? at : null,
        paymentAttempts: collection === "charged" || collection === "declined" ? 1 : 0,
        nextRetryAt: collection === "declined" ? this.retryAt(at, 1) : null,
        resourceVersion: at.getTime(),
      })
      .run();
    tx.update(billingCustomers).set({ creditBalance }).where(eq(billingCustomers.id, invoice.customerId)).run();
    return { id, collection };
  }

  /** An unpaid invoice paid in full from the source now: dunning ends. */
  private settle(tx: EmbeddedStore, row: InvoiceRow, source: PaymentSource, at: Date): void {
    this.changeInvoiceRow(
      tx,
      row,
      {
        status: "paid",
        amountPaid: row.amountPaid + row.amountDue,
        amountDue: 0,
        paidAt: at,
        nextRetryAt: null,
        paymentSourceId: source.id,
        paymentAttempts: row.paymentAttempts + 1,
      },
      at,
    );
    // The subscription's dues changed with it (Chargebee's subscription carries total_dues and due_since), so its
    // resource has a new version too: a copy kept by version learns that the renewal was paid.
    const subscription = row.subscriptionId
      ? tx.select().from(billingSubscriptions).where(eq(billingSubscriptions.id, row.subscriptionId)).get()
      : undefined;
    if (subscription) this.changeSubscriptionRow(tx, subscription, {}, at);
  }

  /** Writes a change to an invoice read in this transaction, with a new resource version. */
  private changeInvoiceRow(tx: EmbeddedStore, row: InvoiceRow, change: Partial<InvoiceRow>, at: Date): void {
    const { changes } = tx
      .update(billingInvoices)
      .set({ ...change, resourceVersion: nextVersion(row.resourceVersion, at) })
      .where(and(eq(billingInvoices.id, row.id), eq(billingInvoices.resourceVersion, row.resourceVersion)))
      .run();
    if (changes !== 1) throw changedMeanwhile(`Invoice ${row.id}`);
  }

  private missing(what: string): never {
    throw notFound(what);
  }
}

export interface LocalBillingOptions {
  store: EmbeddedStore;
  /** Real time, under the time machine's advance; tests pin it to get exact proration. */
  now?: () => Date;
  dunning?: Dunning;
  /**
   * Told, after each call, of the events its transactions committed (also those of what fell due first), in
   * the order they were written. A listener that fails is logged: the events stay in listEvents.
   */
  onEvents?: (events: ProviderEvent[]) => void | Promise<void>;
}

/**
 * Calls that do not catch up first: those that process what is due themselves (and report what that did), and
 * reading the clock, which every page judging a license's dates asks and must stay one read.
 */
const WITHOUT_CATCH_UP = new Set<string>(["advanceClock", "processDue", "clockNow"]);

/**
 * The engine with every call brought up to the engine's clock first (what fell due is processed, in time order),
 * and the events each call committed handed to the listener after it.
 */
function upToDate(engine: LocalBilling, onEvents: LocalBillingOptions["onEvents"]): EmbeddedBilling {
  return new Proxy(engine, {
    get(target, property, receiver) {
      const value: unknown = Reflect.get(target, property, receiver);
      if (typeof value !== "function" || typeof property !== "string") return value;
      return async (...args: unknown[]) => {
        try {
          if (!WITHOUT_CATCH_UP.has(property)) target.catchUp();
          return await value.apply(target, args);
        } finally {
          await deliver(target.takeCommitted(), onEvents);
        }
      };
    },
  });
}

async function deliver(events: ProviderEvent[], onEvents: LocalBillingOptions["onEvents"]) {
  if (!onEvents || events.length === 0) return;
  try {
    await onEvents(events);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    console.error(JSON.stringify({ level: "error", event: "billing-events-listener-failed", message }));
  }
}

/** The embedded billing engine, with fault injection in front of every call. */
export function createLocalBilling({
  store,
  now = () => new Date(),
  dunning = DEFAULT_DUNNING,
  onEvents,
}: LocalBillingOptions): EmbeddedBilling {
  const engine = new LocalBilling(store, new EngineClock(store, now), dunning);
  return withFaults(upToDate(engine, onEvents), store);
}
