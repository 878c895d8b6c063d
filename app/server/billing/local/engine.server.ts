import { and, asc, desc, eq, gte, inArray, isNull, lte, sql } from "drizzle-orm";
import { lockFor } from "~/server/platform/database/dialect.server";
import { DEMO_SELLER } from "~/server/platform/config/env.server";
import { affectedRows, type PortalTransaction } from "~/server/platform/database/portal-database.server";
import { ScopedStorage } from "~/server/platform/async/scoped-storage.server";
import { addPeriod, COUPON_MESSAGES } from "~/domain/pricing";
import { INVALID_CUSTOMER_ID, parseGatewayReference } from "~/server/providers/card-gateway.server";
import {
  asksOnPayment,
  attachedCard,
  bankPageUrl,
  cardFromToken,
  chargeDeclineOf,
  gatewayCustomerFor,
  PAYMENT_ID_PREFIX,
  paymentExpired,
  setupOf,
  spendPaymentAuthentication,
  startPaymentAuthentication,
  type VaultSetup,
} from "~/server/providers/card-vault.server";
import { CARD_MESSAGES } from "~/server/providers/test-cards.server";
import { newId, once, wholeSeconds, type EmbeddedStore } from "~/server/providers/embedded.server";
import {
  billingCustomers,
  billingEvents,
  billingIdempotencyKeys,
  billingInvoiceRevisions,
  billingInvoices,
  billingPaymentSources,
  billingSequences,
  billingSubscriptions,
} from "~/server/platform/database/tables.server";
import { catalogue } from "../catalogue.server";
import { BillingError, CREDIT_NOTE_REQUIRED, notFound, refused } from "../errors.server";
import {
  checkOrderedOnce,
  hardwareCharges,
  oneTimeCharges,
  ordered,
  type OneTimeCharge,
} from "~/server/billing/one-time-charges.server";
import {
  AUTHENTICATION_REQUIRED,
  PAYMENT_INTENT_EXPIRED,
  PAYMENT_INTENT_EXPIRED_MESSAGE,
  PAYMENT_INTENT_INVALID,
  type Address,
  type BillingCall,
  type BillingInfo,
  type BillingProvider,
  type Coupon,
  type Customer,
  type CustomerProfile,
  type Billed,
  type Estimate,
  type EventQuery,
  type HardwareOrder,
  type Invoice,
  type InvoiceCorrection,
  type InvoiceParty,
  type InvoicePurpose,
  type ItemQuantity,
  type NewPaymentSource,
  type NewSubscriptionEstimateRequest,
  type NewSubscriptionRequest,
  type PaymentCard,
  type PaymentIntent,
  type PaymentIntentRequest,
  type PaymentSource,
  type Plan,
  type ProviderEvent,
  type Subscription,
  type SubscriptionChange,
  type SubscriptionUpdate,
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
import { renderInvoicePdf, type InvoiceDocument } from "./invoice-pdf.server";
import { errorFields, logger } from "~/server/platform/log/log.server";

type SubscriptionRow = typeof billingSubscriptions.$inferSelect;
type SourceRow = typeof billingPaymentSources.$inferSelect;
type InvoiceRow = typeof billingInvoices.$inferSelect;

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * Payment sources in the order they were added, as Chargebee lists them. The engine's clock counts whole seconds,
 * and the table keeps no order of its own: cards added in one second follow the order of the events that recorded
 * them (an event's sequence number is the order of the writes), found by the time index.
 */
const SOURCE_ADDED_SEQ = sql`coalesce((select ${billingEvents.seq} from ${billingEvents}
  where ${billingEvents.occurredAt} = ${billingPaymentSources.createdAt}
    and ${billingEvents.resourceType} = 'payment_source' and ${billingEvents.resourceId} = ${billingPaymentSources.id}
    and ${billingEvents.type} = 'payment_source_added'), 0)`;
const SOURCES_OLDEST_FIRST = [
  asc(billingPaymentSources.createdAt),
  asc(SOURCE_ADDED_SEQ),
  asc(billingPaymentSources.id),
];
/** An invoice's id is its number (1, 2, ... 10): shorter first, then by text, orders them by number. */
const INVOICE_NUMBER_ORDER = [sql`length(${billingInvoices.id})`, billingInvoices.id];

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

/** What a payment intent's failure is, in the gateway's words, by its status. */
const INTENT_FAILURES: Partial<Record<PaymentIntent["status"], string>> = {
  failed: CARD_MESSAGES.authenticationFailed,
  expired: PAYMENT_INTENT_EXPIRED_MESSAGE,
};

/** A payment authentication of the vault as the port's payment intent: spent, expired by `now`, or as answered. */
function intentStatus(intent: VaultSetup, now: Date): PaymentIntent["status"] {
  if (intent.usedAt) return "consumed";
  if (paymentExpired(intent, now)) return "expired";
  return intent.status === "succeeded" ? "authorized" : intent.status;
}

/** A charge the card's bank asks the present cardholder to authenticate first, refused in Stripe's words. */
const authenticationRequired = () => {
  const message = "Your card was declined. This transaction requires authentication.";
  return new BillingError(message, {
    kind: "final",
    providerMessage: message,
    code: AUTHENTICATION_REQUIRED,
    field: "card",
  });
};

/** A row another call changed since it was read: nothing was written; the next call sees the change. */
const changedMeanwhile = (what: string) =>
  new BillingError(`${what} changed while it was being updated.`, { kind: "retryable" });

/**
 * The earliest of each kind of thing due by a time (`now`): a future subscription's start, a term's end, a failed
 * payment's retry. Every call of the engine asks, so they are prepared once.
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
      .prepare("billing_due_start"),
    termEnds: store
      .select({ id: subs.id, at: subs.currentTermEnd })
      .from(subs)
      .where(and(inArray(subs.status, RENEWING), lte(subs.currentTermEnd, now)))
      .orderBy(asc(subs.currentTermEnd))
      .limit(1)
      .prepare("billing_due_term_end"),
    retries: store
      .select({ id: billingInvoices.id, at: billingInvoices.nextRetryAt })
      .from(billingInvoices)
      .where(and(eq(billingInvoices.status, "payment_due"), lte(billingInvoices.nextRetryAt, now)))
      .orderBy(asc(billingInvoices.nextRetryAt))
      .limit(1)
      .prepare("billing_due_retry"),
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
    paymentFailure: row.paymentFailure,
    resourceVersion: row.resourceVersion,
    billedTo: row.billedTo,
    poNumber: row.poNumber,
  };
}

/** The buyer as an invoice names them: the customer's billing profile of the moment. */
function buyerOf(customer: Customer): InvoiceParty {
  const contact = [customer.firstName, customer.lastName].filter(Boolean).join(" ");
  return {
    name: customer.company || contact,
    contact,
    email: customer.email,
    address: customer.billingAddress,
    vatNumber: customer.vatNumber,
    vatNumberValid: customer.vatNumber !== null && customer.vatNumberStatus === "valid",
  };
}

/** The seller of a demo's invoices (env.server's), which tests' engines name too. */
export const DEMO_INVOICE_SELLER: InvoiceParty = {
  name: DEMO_SELLER.SELLER_LEGAL_NAME,
  address: null,
  addressLines: DEMO_SELLER.SELLER_ADDRESS,
  vatNumber: DEMO_SELLER.SELLER_VAT_NUMBER,
  vatNumberValid: true,
};

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
  /**
   * Names the engine's seller on the invoices issued before invoices kept their parties (the data migration
   * recorded their buyer; the seller is configuration, which only the running portal knows): once, at start-up.
   * How many it named.
   */
  recordSellerOnEarlierInvoices(): Promise<number>;
}

/**
 * The embedded billing engine: Chargebee's behaviour for the calls the portal makes, on the portal's
 * database. Each call runs in one transaction; creating calls record their idempotency key in the same
 * transaction, so a repeat returns what the first call made and never charges twice. Every change records its
 * events (Chargebee's) in the transaction that makes it. A transaction about a customer takes that customer's
 * lock before it reads anything of theirs, so two calls (or two portal instances) moving one customer's credit
 * balance or cards run one after the other instead of both writing what they read.
 */
class LocalBilling implements EmbeddedBilling {
  readonly name = "local";
  /** Events of the write under way (each async chain has its own), kept once it commits. */
  private readonly pending = new ScopedStorage<ProviderEvent[]>();
  /** Committed events of the call under way, not yet handed to the listener. */
  private readonly calls = new ScopedStorage<ProviderEvent[]>();
  /** Committed events of work done outside a call (none in practice), not yet handed to the listener. */
  private readonly uncalled: ProviderEvent[] = [];
  private readonly due: ReturnType<typeof dueQueries>;

  constructor(
    private readonly store: EmbeddedStore,
    private readonly clock: EngineClock,
    private readonly dunning: Dunning,
    private readonly seller: InvoiceParty,
  ) {
    this.due = dueQueries(store);
  }

  /** The engine's time; inside a transaction, read through it. */
  private now(tx?: EmbeddedStore): Promise<Date> {
    return this.clock.now(tx);
  }

  /** Holds the customer's lock until the transaction ends (see the class's comment). */
  private lockCustomer(tx: PortalTransaction, customerId: string): Promise<void> {
    return lockFor(tx, `billing-customer:${customerId}`);
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
      async (tx) => {
        await this.lockCustomer(tx, customerId);
        if (!(await this.findCustomer(tx, customerId))) {
          await tx.insert(billingCustomers).values({ id: customerId, ...profile, createdAt: await this.now(tx) });
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

  async updateBillingInfo(customerId: string, { billingAddress, vatNumber, vatNumberStatus }: BillingInfo) {
    return this.changeCustomer(customerId, {
      billingAddress,
      vatNumber,
      vatNumberStatus: vatNumber ? vatNumberStatus : null,
    });
  }

  async listPaymentSources(customerId: string) {
    const now = await this.now();
    const rows = await this.store
      .select()
      .from(billingPaymentSources)
      .where(eq(billingPaymentSources.customerId, customerId))
      .orderBy(...SOURCES_OLDEST_FIRST);
    return rows.map((row) => this.paymentSourceOf(row, now));
  }

  async createPaymentSourceFromTempToken(source: NewPaymentSource & { tmpToken: string }, idempotencyKey: string) {
    return this.addPaymentSource(source, idempotencyKey, "createPaymentSourceFromTempToken", async (tx, now) => {
      const gatewayCustomer = gatewayCustomerFor(source.customerId);
      const saved = await cardFromToken(tx, source.tmpToken, gatewayCustomer, now);
      if (!saved) throw refused("The card token is invalid, expired or was already used.", "invalid_token");
      return { card: saved.card, referenceId: `${gatewayCustomer}/${saved.id}` };
    });
  }

  async createPaymentSourceFromPermanentToken(
    source: NewPaymentSource & { referenceId: string },
    idempotencyKey: string,
  ) {
    return this.addPaymentSource(source, idempotencyKey, "createPaymentSourceFromPermanentToken", async (tx) => {
      const reference = parseGatewayReference(source.referenceId);
      if (!reference) throw refused(INVALID_CUSTOMER_ID, "invalid_reference");
      const card = await attachedCard(tx, reference.paymentMethodId, reference.gatewayCustomer);
      if (!card) throw refused(`No such payment method: '${reference.paymentMethodId}'`, "invalid_reference");
      return { card, referenceId: source.referenceId };
    });
  }

  async deleteLocalPaymentSource(customerId: string, paymentSourceId: string) {
    await this.write(async (tx) => {
      await this.lockCustomer(tx, customerId);
      const now = await this.now(tx);
      const source = this.paymentSourceOf(await this.ownSource(tx, customerId, paymentSourceId), now);
      await tx.delete(billingPaymentSources).where(eq(billingPaymentSources.id, paymentSourceId));
      // A subscription paid with the deleted card has no card of its own any more, and is charged to the customer's
      // primary one, as Chargebee charges a subscription without one: a card replaced on the account page pays the
      // next renewal.
      await tx
        .update(billingSubscriptions)
        .set({ paymentSourceId: null })
        .where(eq(billingSubscriptions.paymentSourceId, paymentSourceId));
      const customer = await this.customer(tx, customerId);
      if (customer.primaryPaymentSourceId === paymentSourceId) {
        // As Chargebee does, another card on file (if any) becomes the primary one: the oldest.
        const [next] = await tx
          .select({ id: billingPaymentSources.id })
          .from(billingPaymentSources)
          .where(eq(billingPaymentSources.customerId, customerId))
          .orderBy(...SOURCES_OLDEST_FIRST)
          .limit(1);
        await this.setPrimary(tx, customerId, next?.id ?? null);
      }
      await this.record(tx, {
        type: "payment_source_deleted",
        providerType: "payment_source_locally_deleted",
        occurredAt: now,
        customerId,
        paymentSource: source,
      });
    });
  }

  async retrieveSubscription(customerId: string, subscriptionId: string) {
    return this.subscriptionOf(this.store, await this.ownSubscription(this.store, customerId, subscriptionId));
  }

  async estimateNewSubscription(request: NewSubscriptionEstimateRequest) {
    return this.priceNewSubscription(this.store, request, this.startOf(request, await this.now()));
  }

  async createSubscription(request: NewSubscriptionRequest, idempotencyKey: string) {
    return this.once(
      idempotencyKey,
      "createSubscription",
      async (tx) => {
        await this.lockCustomer(tx, request.customerId);
        const now = await this.now(tx);
        const start = this.startOf(request, now);
        const estimate = await this.priceNewSubscription(tx, request, start);
        const source = await this.chargeableSource(tx, request.customerId, request.paymentSourceId, now);
        const plan = this.plan(request.planId);
        const id = newId("sub");
        await tx.insert(billingSubscriptions).values({
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
          poNumber: request.poNumber ?? null,
          createdAt: now,
          resourceVersion: now.getTime(),
        });
        const invoice = await this.invoice(tx, {
          customerId: request.customerId,
          subscriptionId: id,
          purpose: "new_subscription",
          source,
          totals: estimate,
          at: now,
          shippingAddress: request.shippingAddress,
          poNumber: request.poNumber ?? null,
          whenDeclined: "refuse",
          paymentIntentId: request.paymentIntentId,
        });
        await this.recordSubscription(tx, id, now, "subscription_created", "subscription_created", invoice.id);
        await this.recordInvoice(tx, invoice, now);
        return id;
      },
      async (id) => this.subscriptionOf(this.store, await this.ownSubscription(this.store, request.customerId, id)),
    );
  }

  async createPaymentIntent(request: PaymentIntentRequest, idempotencyKey: string) {
    return this.once(
      idempotencyKey,
      "createPaymentIntent",
      async (tx, now) => {
        const source = await this.chargeableSource(tx, request.customerId, request.paymentSourceId, now);
        const { amount, returnUrl } = request;
        return startPaymentAuthentication(
          tx,
          { referenceId: source.referenceId, amount, currency: "USD", returnUrl },
          now,
        );
      },
      (id) => this.retrievePaymentIntent(request.customerId, id),
    );
  }

  async retrievePaymentIntent(customerId: string, paymentIntentId: string): Promise<PaymentIntent> {
    const intent = paymentIntentId.startsWith(PAYMENT_ID_PREFIX) ? await setupOf(this.store, paymentIntentId) : null;
    const reference = intent ? parseGatewayReference(intent.tokenId) : null;
    if (!intent || intent.amount === null || reference?.gatewayCustomer !== gatewayCustomerFor(customerId)) {
      return this.missing(`Payment intent ${paymentIntentId}`);
    }
    const [source] = await this.store
      .select({ id: billingPaymentSources.id })
      .from(billingPaymentSources)
      .where(
        and(eq(billingPaymentSources.customerId, customerId), eq(billingPaymentSources.referenceId, intent.tokenId)),
      );
    const status = intentStatus(intent, await this.now());
    return {
      id: intent.id,
      status,
      amount: intent.amount,
      paymentSourceId: source?.id ?? "",
      redirectUrl: bankPageUrl(intent.id),
      failure: INTENT_FAILURES[status] ?? null,
      // Its bank page is the portal's own test page, which reads the intent itself.
      browserIntent: null,
    };
  }

  async findSubscriptionByKey(customerId: string, idempotencyKey: string) {
    const made = await this.madeWith(idempotencyKey, "createSubscription");
    return made ? this.subscriptionOf(this.store, await this.ownSubscription(this.store, customerId, made)) : null;
  }

  async estimateSubscriptionUpdate(customerId: string, subscriptionId: string, change: SubscriptionChange) {
    const row = this.changeable(await this.ownSubscription(this.store, customerId, subscriptionId));
    return this.priceChange(this.store, row, change, await this.now());
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
      async (tx) => {
        await this.lockCustomer(tx, customerId);
        const now = await this.now(tx);
        const row = this.changeable(await this.ownSubscription(tx, customerId, subscriptionId));
        const estimate = await this.priceChange(tx, row, update, now);
        const plan = this.plan(update.planId);
        const invoice =
          estimate.lineItems.length > 0
            ? await this.invoice(tx, {
                customerId,
                subscriptionId,
                purpose: "subscription_change",
                source: await this.chargeableSource(
                  tx,
                  customerId,
                  row.paymentSourceId ?? (await this.customer(tx, customerId)).primaryPaymentSourceId,
                  now,
                ),
                totals: estimate,
                at: now,
                poNumber: update.poNumber ?? row.poNumber,
                whenDeclined: "refuse",
                paymentIntentId: update.paymentIntentId,
              })
            : null;
        const adjusted = await this.adjustUnpaid(tx, row, estimate.adjustments, now);
        const newTerm = plan.period !== this.plan(row.planId).period;
        await this.changeSubscriptionRow(
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
            ...(update.poNumber ? { poNumber: update.poNumber } : {}),
          },
          now,
        );
        // Chargebee keeps the billing address on the customer; a subscription update that sends one changes it.
        if (update.billingAddress) {
          await tx
            .update(billingCustomers)
            .set({ billingAddress: update.billingAddress })
            .where(eq(billingCustomers.id, customerId));
        }
        await this.recordSubscription(
          tx,
          subscriptionId,
          now,
          "subscription_changed",
          "subscription_changed",
          invoice?.id,
        );
        if (invoice) await this.recordInvoice(tx, invoice, now);
        for (const id of adjusted) await this.recordInvoiceChange(tx, id, now, "invoice_updated", "invoice_updated");
        return subscriptionId;
      },
      async (id) => this.subscriptionOf(this.store, await this.ownSubscription(this.store, customerId, id)),
    );
  }

  async overrideBillingProfile(
    customerId: string,
    subscriptionId: string,
    profile: { paymentSourceId: string; autoCollection: boolean },
  ) {
    return this.write(async (tx) => {
      await this.lockCustomer(tx, customerId);
      const row = await this.ownSubscription(tx, customerId, subscriptionId);
      await this.ownSource(tx, customerId, profile.paymentSourceId);
      const now = await this.now(tx);
      await this.changeSubscriptionRow(
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
      async (tx) => {
        await this.lockCustomer(tx, order.customerId);
        const now = await this.now(tx);
        const balance = (await this.customer(tx, order.customerId)).creditBalance;
        const totals = oneTimeInvoice(this.priced(hardwareCharges(order.hardware), order.hardware), now, balance);
        const source = await this.chargeableSource(tx, order.customerId, order.paymentSourceId, now);
        const invoice = await this.invoice(tx, {
          customerId: order.customerId,
          subscriptionId: null,
          purpose: "one_time",
          source,
          totals,
          at: now,
          shippingAddress: order.shippingAddress,
          poNumber: null,
          whenDeclined: "refuse",
          paymentIntentId: order.paymentIntentId,
        });
        await this.recordInvoice(tx, invoice, now);
        return invoice.id;
      },
      async (id) => invoiceOfRow(await this.ownInvoice(this.store, order.customerId, id)),
    );
  }

  async findInvoiceByKey(customerId: string, idempotencyKey: string) {
    const made = await this.madeWith(idempotencyKey, "createHardwareInvoice");
    const row = made ? await this.findInvoice(this.store, customerId, made) : undefined;
    return row ? invoiceOfRow(row) : null;
  }

  async listInvoices(customerId: string, filter: { subscriptionId?: string } = {}) {
    await this.customer(this.store, customerId);
    const rows = await this.store
      .select()
      .from(billingInvoices)
      .where(
        and(
          eq(billingInvoices.customerId, customerId),
          filter.subscriptionId === undefined ? undefined : eq(billingInvoices.subscriptionId, filter.subscriptionId),
        ),
      )
      // Newest first; of one date, the later number first.
      .orderBy(desc(billingInvoices.date), ...INVOICE_NUMBER_ORDER.map((by) => desc(by)));
    return rows.map(invoiceOfRow);
  }

  async retrieveInvoice(customerId: string, invoiceId: string) {
    return invoiceOfRow(await this.ownInvoice(this.store, customerId, invoiceId));
  }

  /**
   * The document as it was issued (or last corrected), from what the invoice keeps: its parties, never the
   * customer's profile of today. An earlier revision is made again from the parties it showed.
   */
  async invoicePdf(customerId: string, invoiceId: string, revision?: number) {
    const row = await this.ownInvoice(this.store, customerId, invoiceId);
    const revisions = await this.revisionsOf(this.store, row.id);
    const current = {
      revision: row.revision,
      seller: row.seller,
      billedTo: row.billedTo,
      poNumber: row.poNumber,
      issuedAt: row.revisedAt ?? row.date,
    };
    const chosen =
      revision === undefined || revision === row.revision
        ? current
        : (revisions.find((earlier) => earlier.revision === revision) ??
          this.missing(`Revision ${revision} of invoice ${invoiceId}`));
    const replaced = [...revisions, current].find((earlier) => earlier.revision === chosen.revision - 1);
    const invoice = invoiceOfRow(row);
    const document: InvoiceDocument = {
      invoice,
      seller: chosen.seller ?? this.seller,
      billedTo: chosen.billedTo,
      poNumber: chosen.poNumber,
      shippingAddress: row.shippingAddress,
      revision: replaced ? { number: chosen.revision, replaces: replaced.issuedAt } : null,
    };
    const bytes = await renderInvoicePdf(document);
    const suffix = chosen.revision > 1 ? `-revision-${chosen.revision}` : "";
    return { kind: "document" as const, fileName: `invoice-${invoice.number}${suffix}.pdf`, bytes };
  }

  async correctInvoice(customerId: string, invoiceId: string, correction: InvoiceCorrection, idempotencyKey: string) {
    return this.once(
      idempotencyKey,
      "correctInvoice",
      async (tx, now) => {
        await this.lockCustomer(tx, customerId);
        const row = await this.ownInvoice(tx, customerId, invoiceId);
        const issuedCountry = row.billedTo?.address?.country;
        if (issuedCountry && correction.billingAddress.country !== issuedCountry) {
          throw refused(
            `The country of invoice ${row.id} cannot be changed: that changes its tax.`,
            CREDIT_NOTE_REQUIRED,
            "country",
          );
        }
        await tx.insert(billingInvoiceRevisions).values({
          invoiceId: row.id,
          revision: row.revision,
          seller: row.seller ?? this.seller,
          billedTo: row.billedTo,
          poNumber: row.poNumber,
          issuedAt: row.revisedAt ?? row.date,
        });
        const { billingAddress, vatNumber, vatNumberStatus, company, poNumber } = correction;
        const contact = [billingAddress.firstName, billingAddress.lastName].filter(Boolean).join(" ");
        await this.changeInvoiceRow(
          tx,
          row,
          {
            seller: row.seller ?? this.seller,
            billedTo: {
              name: company || contact,
              contact,
              email: billingAddress.email ?? row.billedTo?.email ?? "",
              address: billingAddress,
              vatNumber,
              vatNumberValid: vatNumber !== null && vatNumberStatus === "valid",
            },
            poNumber,
            revision: row.revision + 1,
            revisedAt: now,
          },
          now,
        );
        await this.recordInvoiceChange(tx, row.id, now, "invoice_updated", "invoice_updated");
        return row.id;
      },
      async (id) => invoiceOfRow(await this.ownInvoice(this.store, customerId, id)),
    );
  }

  async listInvoiceRevisions(customerId: string, invoiceId: string) {
    const row = await this.ownInvoice(this.store, customerId, invoiceId);
    return (await this.revisionsOf(this.store, row.id)).map(({ revision, issuedAt }) => ({ revision, issuedAt }));
  }

  async recordSellerOnEarlierInvoices() {
    return this.write(async (tx) =>
      affectedRows(await tx.update(billingInvoices).set({ seller: this.seller }).where(isNull(billingInvoices.seller))),
    );
  }

  private revisionsOf(store: EmbeddedStore, invoiceId: string) {
    return store
      .select()
      .from(billingInvoiceRevisions)
      .where(eq(billingInvoiceRevisions.invoiceId, invoiceId))
      .orderBy(asc(billingInvoiceRevisions.revision));
  }

  async collectPayment(
    customerId: string,
    invoiceId: string,
    paymentSourceId: string,
    idempotencyKey: string,
    paymentIntentId?: string,
  ) {
    try {
      return await this.once(
        idempotencyKey,
        "collectPayment",
        async (tx) => {
          await this.lockCustomer(tx, customerId);
          const now = await this.now(tx);
          const row = await this.ownInvoice(tx, customerId, invoiceId);
          if (!UNPAID.includes(row.status) || row.amountDue === 0) {
            throw refused(`Invoice ${row.id} has nothing to pay.`, "invalid_state_for_request");
          }
          const source = await this.chargeableSource(tx, customerId, paymentSourceId, now);
          // The customer pays now, on the page: their bank may ask them first, as for any present charge.
          await this.authenticated(tx, source, row.amountDue, paymentIntentId);
          const decline = await chargeDeclineOf(tx, source.referenceId);
          if (decline) throw declined(decline.message);
          await this.settle(tx, row, source, now);
          await this.recordInvoiceChange(tx, invoiceId, now, "invoice_paid", "payment_succeeded");
          return invoiceId;
        },
        async (id) => invoiceOfRow(await this.ownInvoice(this.store, customerId, id)),
      );
    } catch (error) {
      // The gateway refused the charge: Chargebee records the failed payment, though the invoice stays as it was.
      if (isDecline(error)) {
        await this.write(async (tx) =>
          this.recordInvoiceChange(tx, invoiceId, await this.now(tx), "payment_failed", "payment_failed"),
        );
      }
      throw error;
    }
  }

  async findInvoicePayment(customerId: string, invoiceId: string) {
    const row = await this.ownInvoice(this.store, customerId, invoiceId);
    return row.status === "paid" ? invoiceOfRow(row) : null;
  }

  async cancelSubscriptionAtTermEnd(customerId: string, subscriptionId: string, idempotencyKey: string) {
    return this.once(
      idempotencyKey,
      "cancelSubscriptionAtTermEnd",
      async (tx) => {
        await this.lockCustomer(tx, customerId);
        const row = await this.ownSubscription(tx, customerId, subscriptionId);
        if (row.status === "non_renewing") return row.id;
        this.changeable(row);
        const now = await this.now(tx);
        await this.changeSubscriptionRow(tx, row, { status: "non_renewing", cancelledAt: row.currentTermEnd }, now);
        await this.recordSubscription(
          tx,
          row.id,
          now,
          "subscription_cancellation_scheduled",
          "subscription_cancellation_scheduled",
        );
        return row.id;
      },
      async (id) => this.subscriptionOf(this.store, await this.ownSubscription(this.store, customerId, id)),
    );
  }

  async removeScheduledCancellation(customerId: string, subscriptionId: string, idempotencyKey: string) {
    return this.once(
      idempotencyKey,
      "removeScheduledCancellation",
      async (tx) => {
        await this.lockCustomer(tx, customerId);
        const row = this.changeable(await this.ownSubscription(tx, customerId, subscriptionId));
        if (row.status !== "non_renewing") return row.id;
        const now = await this.now(tx);
        await this.changeSubscriptionRow(tx, row, { status: "active", cancelledAt: null }, now);
        await this.recordSubscription(
          tx,
          row.id,
          now,
          "subscription_scheduled_cancellation_removed",
          "subscription_scheduled_cancellation_removed",
        );
        return row.id;
      },
      async (id) => this.subscriptionOf(this.store, await this.ownSubscription(this.store, customerId, id)),
    );
  }

  async listEvents(query: EventQuery) {
    return listEvents(this.store, query);
  }

  async clockNow() {
    return this.now();
  }

  async advanceClock(days: number) {
    const from = await this.now();
    const committed = this.committed();
    const mark = committed.length;
    await this.write((tx) => this.clock.advance(tx, days));
    await this.catchUp();
    return { from, to: await this.now(), events: committed.slice(mark) };
  }

  async processDue() {
    const committed = this.committed();
    const mark = committed.length;
    await this.catchUp();
    return committed.slice(mark);
  }

  // --- the passing of time ----------------------------------------------------------------------

  /**
   * Processes everything that has fallen due by the engine's clock, earliest first, one step per transaction:
   * a future subscription starts, a term ends (renewed, or cancelled when its cancellation is scheduled), a
   * failed payment is retried. So the engine's state and its events are what the passing of real time would have
   * made them, whoever calls first.
   */
  async catchUp(): Promise<void> {
    for (;;) {
      const step = await this.nextDue(await this.now());
      if (!step) return;
      await this.write((tx) => (step.kind === "invoice" ? this.retry(tx, step.id) : this.subscriptionDue(tx, step.id)));
    }
  }

  /** The earliest thing due by `now`: a subscription's start or term end, or an invoice's payment retry. */
  private async nextDue(now: Date): Promise<{ kind: "subscription" | "invoice"; id: string; at: Date } | null> {
    // A placeholder's value skips the column's encoding, so the column encodes the date itself (milliseconds on
    // SQLite, ISO text on PostgreSQL), as it would a date written inline.
    const at = { now: billingSubscriptions.currentTermEnd.mapToDriverValue(now) };
    const [[start], [termEnd], [retry]] = await Promise.all([
      this.due.starts.execute(at),
      this.due.termEnds.execute(at),
      this.due.retries.execute(at),
    ]);
    const candidates = [
      ...(start ? [{ kind: "subscription" as const, id: start.id, at: start.at }] : []),
      ...(termEnd ? [{ kind: "subscription" as const, id: termEnd.id, at: termEnd.at }] : []),
      ...(retry?.at ? [{ kind: "invoice" as const, id: retry.id, at: retry.at }] : []),
    ];
    return candidates.sort((a, b) => a.at.getTime() - b.at.getTime())[0] ?? null;
  }

  /**
   * A subscription's start or term end, at the time it fell due (unless another process handled it first: the
   * customer's lock makes it wait for that one, and then it finds nothing due).
   */
  private async subscriptionDue(tx: PortalTransaction, subscriptionId: string): Promise<void> {
    const subs = billingSubscriptions;
    const [owner] = await tx.select({ customerId: subs.customerId }).from(subs).where(eq(subs.id, subscriptionId));
    if (!owner) return;
    await this.lockCustomer(tx, owner.customerId);
    const [row] = await tx.select().from(subs).where(eq(subs.id, subscriptionId));
    const now = await this.now(tx);
    if (!row) return;
    if (row.status === "future" && row.currentTermStart <= now) {
      const at = row.currentTermStart;
      await this.changeSubscriptionRow(tx, row, { status: "active" }, at);
      await this.recordSubscription(tx, row.id, at, "subscription_changed", "subscription_started");
    } else if (RENEWING.includes(row.status) && row.currentTermEnd <= now) {
      if (row.status === "non_renewing") await this.cancelAtTermEnd(tx, row);
      else await this.renew(tx, row);
    }
  }

  /** Auto-renew was off: at the end of its term the subscription is cancelled, and nothing is charged. */
  private async cancelAtTermEnd(tx: EmbeddedStore, row: SubscriptionRow): Promise<void> {
    const at = row.currentTermEnd;
    await this.changeSubscriptionRow(tx, row, { status: "cancelled", cancelledAt: at }, at);
    await this.recordSubscription(tx, row.id, at, "subscription_cancelled", "subscription_cancelled");
  }

  /**
   * The next term, invoiced for the full term at its start and paid from the credit balance first, then the card
   * on file (when the subscription collects automatically). A declined card leaves the invoice due and starts
   * dunning; no usable card leaves it due (Chargebee does not try to charge without one).
   */
  private async renew(tx: EmbeddedStore, row: SubscriptionRow): Promise<void> {
    const plan = this.plan(row.planId);
    const recurring = this.recurringItems(plan, row.planQuantity, row.addons, row.planUnitPrice);
    const start = row.currentTermEnd;
    const end = addPeriod(start, plan.period);
    await this.changeSubscriptionRow(
      tx,
      row,
      { currentTermStart: start, currentTermEnd: end, nextBillingAt: end },
      start,
    );
    const balance = (await this.customer(tx, row.customerId)).creditBalance;
    const invoice = await this.invoice(tx, {
      customerId: row.customerId,
      subscriptionId: row.id,
      purpose: "renewal",
      source: row.autoCollection ? await this.usableSource(tx, row, await this.now(tx)) : null,
      totals: renewalInvoice(recurring, start, end, balance),
      at: start,
      poNumber: row.poNumber,
      whenDeclined: "dun",
    });
    await this.recordSubscription(tx, row.id, start, "subscription_renewed", "subscription_renewed", invoice.id);
    await this.recordInvoice(tx, invoice, start);
  }

  /**
   * A scheduled retry of a declined renewal, with the subscription's card on file now (the customer may have
   * replaced it). Paid: dunning ends. Declined: the next retry, or after the last the invoice is not_paid and
   * the subscription is cancelled.
   */
  private async retry(tx: PortalTransaction, invoiceId: string): Promise<void> {
    const invoices = billingInvoices;
    const [owner] = await tx
      .select({ customerId: invoices.customerId })
      .from(invoices)
      .where(eq(invoices.id, invoiceId));
    if (!owner) return;
    await this.lockCustomer(tx, owner.customerId);
    const [row] = await tx.select().from(invoices).where(eq(invoices.id, invoiceId));
    const now = await this.now(tx);
    if (!row?.nextRetryAt || row.status !== "payment_due" || row.nextRetryAt > now) return;
    const at = row.nextRetryAt;
    const [subscription] = row.subscriptionId
      ? await tx.select().from(billingSubscriptions).where(eq(billingSubscriptions.id, row.subscriptionId))
      : [];
    const source = subscription ? await this.usableSource(tx, subscription, now) : null;
    const failure = source ? await this.offSessionFailure(tx, source) : null;
    if (source && !failure) {
      await this.settle(tx, row, source, at);
      await this.recordInvoiceChange(tx, row.id, at, "invoice_paid", "payment_succeeded");
      return;
    }
    const attempts = row.paymentAttempts + 1;
    const next = this.retryAt(row.date, attempts);
    await this.changeInvoiceRow(
      tx,
      row,
      {
        paymentAttempts: attempts,
        nextRetryAt: next,
        paymentFailure: failure,
        ...(next ? {} : { status: "not_paid" }),
      },
      at,
    );
    await this.recordInvoiceChange(tx, row.id, at, "payment_failed", "payment_failed");
    if (next) return;
    await this.recordInvoiceChange(tx, row.id, at, "invoice_updated", "invoice_updated");
    if (subscription && RENEWING.includes(subscription.status)) {
      await this.changeSubscriptionRow(tx, subscription, { status: "cancelled", cancelledAt: at }, at);
      await this.recordSubscription(tx, subscription.id, at, "subscription_cancelled", "subscription_cancelled");
    }
  }

  /** When dunning tries again after `attempts` failed attempts at an invoice of `date`; null when it gives up. */
  private retryAt(date: Date, attempts: number): Date | null {
    const days = this.dunning.retryAfterDays[attempts - 1];
    return days === undefined ? null : new Date(date.getTime() + days * DAY_MS);
  }

  // --- idempotency and transactions ----------------------------------------------------------------

  /** The id of what a creating call made with this key, or null when it made nothing. */
  private async madeWith(idempotencyKey: string, call: BillingCall): Promise<string | null> {
    const keys = billingIdempotencyKeys;
    const [made] = await this.store
      .select()
      .from(keys)
      .where(and(eq(keys.key, idempotencyKey), eq(keys.call, call)));
    return made ? String(made.result) : null;
  }

  /**
   * A creating call, once per idempotency key; `read` gives back what it made, on the first call or a repeat.
   * `create` writes only through its transaction, and is given the engine's time read there.
   */
  private async once<T>(
    key: string,
    call: BillingCall,
    create: (tx: PortalTransaction, now: Date) => Promise<string>,
    read: (id: string) => Promise<T>,
  ): Promise<T> {
    const now = await this.now();
    const id = await this.committing(() =>
      once(this.store, key, call, now, async (tx) => create(tx, await this.now(tx))),
    );
    return read(id);
  }

  /**
   * A transaction whose events are kept once it commits. On SQLite it takes the write lock up front (every
   * transaction does); on PostgreSQL a transaction that reads what it then changes takes the customer's lock
   * first. Either way another process catching up on the same renewal waits for this one and then sees it done,
   * rather than write on a read that went stale.
   */
  private write<T>(change: (tx: PortalTransaction) => Promise<T>): Promise<T> {
    return this.committing(() => this.store.transaction(change));
  }

  private async committing<T>(transaction: () => Promise<T>): Promise<T> {
    if (this.pending.getStore()) return transaction();
    const pending: ProviderEvent[] = [];
    const result = await this.pending.run(pending, transaction);
    this.committed().push(...pending);
    return result;
  }

  /** The committed events of the call under way. */
  private committed(): ProviderEvent[] {
    return this.calls.getStore() ?? this.uncalled;
  }

  /** Runs one call of the engine, keeping the events it commits apart from those of calls running beside it. */
  duringCall<T>(call: () => Promise<T>): Promise<T> {
    return this.calls.run([], call);
  }

  /** The committed events of this call that nobody has been told of yet. */
  takeCommitted(): ProviderEvent[] {
    return this.committed().splice(0);
  }

  // --- events ---------------------------------------------------------------------------------------

  private async record(tx: EmbeddedStore, facts: EventFacts): Promise<ProviderEvent> {
    const pending = this.pending.getStore();
    if (!pending) throw new Error("An event is recorded in the transaction of its change.");
    const event = await writeEvent(tx, facts);
    pending.push(event);
    return event;
  }

  /** An event of a subscription, with the subscription as it is now (and its invoice, when the change made one). */
  private async recordSubscription(
    tx: EmbeddedStore,
    subscriptionId: string,
    at: Date,
    type: EventFacts["type"],
    providerType: string,
    invoiceId?: string,
  ): Promise<Subscription> {
    const [row] = await tx.select().from(billingSubscriptions).where(eq(billingSubscriptions.id, subscriptionId));
    if (!row) throw new Error(`Subscription ${subscriptionId} disappeared in its own transaction.`);
    const subscription = await this.subscriptionOf(tx, row);
    const invoice = invoiceId ? invoiceOfRow(await this.ownInvoice(tx, row.customerId, invoiceId)) : undefined;
    await this.record(tx, { type, providerType, occurredAt: at, customerId: row.customerId, subscription, invoice });
    return subscription;
  }

  /** An event of an invoice, with the invoice as it is now and its subscription, if it has one. */
  private async recordInvoiceChange(
    tx: EmbeddedStore,
    invoiceId: string,
    at: Date,
    type: EventFacts["type"],
    providerType: string,
  ): Promise<void> {
    const [row] = await tx.select().from(billingInvoices).where(eq(billingInvoices.id, invoiceId));
    if (!row) throw new Error(`Invoice ${invoiceId} disappeared in its own transaction.`);
    const [subscriptionRow] = row.subscriptionId
      ? await tx.select().from(billingSubscriptions).where(eq(billingSubscriptions.id, row.subscriptionId))
      : [];
    await this.record(tx, {
      type,
      providerType,
      occurredAt: at,
      customerId: row.customerId,
      invoice: invoiceOfRow(row),
      subscription: subscriptionRow ? await this.subscriptionOf(tx, subscriptionRow) : undefined,
    });
  }

  /** A new invoice's events, as Chargebee sends them: generated, then the payment that succeeded or failed. */
  private async recordInvoice(
    tx: EmbeddedStore,
    invoice: { id: string; collection: Collection },
    at: Date,
  ): Promise<void> {
    await this.recordInvoiceChange(tx, invoice.id, at, "invoice_generated", "invoice_generated");
    if (invoice.collection === "charged") {
      await this.recordInvoiceChange(tx, invoice.id, at, "invoice_paid", "payment_succeeded");
    }
    if (invoice.collection === "declined") {
      await this.recordInvoiceChange(tx, invoice.id, at, "payment_failed", "payment_failed");
    }
  }

  // --- customers and payment sources ------------------------------------------------------------

  private async findCustomer(store: EmbeddedStore, customerId: string) {
    const [row] = await store.select().from(billingCustomers).where(eq(billingCustomers.id, customerId));
    return row;
  }

  private async customer(store: EmbeddedStore, customerId: string): Promise<Customer> {
    const row = (await this.findCustomer(store, customerId)) ?? this.missing(`Customer ${customerId}`);
    const { id, firstName, lastName, email, phone, company, billingAddress, primaryPaymentSourceId, creditBalance } =
      row;
    const { vatNumber, vatNumberStatus } = row;
    return {
      id,
      firstName,
      lastName,
      email,
      phone,
      company,
      billingAddress,
      vatNumber,
      vatNumberStatus,
      primaryPaymentSourceId,
      creditBalance,
    };
  }

  private async changeCustomer(
    customerId: string,
    change: Partial<CustomerProfile> & Partial<Pick<Customer, "billingAddress" | "vatNumber" | "vatNumberStatus">>,
  ): Promise<Customer> {
    return this.write(async (tx) => {
      await this.customer(tx, customerId);
      await tx.update(billingCustomers).set(change).where(eq(billingCustomers.id, customerId));
      return this.customer(tx, customerId);
    });
  }

  private async setPrimary(store: EmbeddedStore, customerId: string, paymentSourceId: string | null) {
    await store
      .update(billingCustomers)
      .set({ primaryPaymentSourceId: paymentSourceId })
      .where(eq(billingCustomers.id, customerId));
  }

  private async addPaymentSource(
    source: NewPaymentSource,
    idempotencyKey: string,
    call: BillingCall,
    card: (tx: EmbeddedStore, now: Date) => Promise<{ card: PaymentCard; referenceId: string }>,
  ): Promise<PaymentSource> {
    return this.once(
      idempotencyKey,
      call,
      async (tx, now) => {
        await this.lockCustomer(tx, source.customerId);
        const customer = await this.customer(tx, source.customerId);
        const made = await card(tx, now);
        const id = newId("src");
        await tx.insert(billingPaymentSources).values({
          id,
          customerId: source.customerId,
          status: "valid",
          referenceId: made.referenceId,
          ...made.card,
          createdAt: now,
        });
        if (source.setAsPrimary || !customer.primaryPaymentSourceId) await this.setPrimary(tx, source.customerId, id);
        await this.record(tx, {
          type: "payment_source_added",
          providerType: "payment_source_added",
          occurredAt: now,
          customerId: source.customerId,
          paymentSource: this.paymentSourceOf(await this.ownSource(tx, source.customerId, id), now),
        });
        return id;
      },
      async (id) => this.paymentSourceOf(await this.ownSource(this.store, source.customerId, id), await this.now()),
    );
  }

  private async ownSource(store: EmbeddedStore, customerId: string, paymentSourceId: string): Promise<SourceRow> {
    const [row] = await store
      .select()
      .from(billingPaymentSources)
      .where(and(eq(billingPaymentSources.id, paymentSourceId), eq(billingPaymentSources.customerId, customerId)));
    return row ?? this.missing(`Payment source ${paymentSourceId}`);
  }

  /** A payment source as the port reports it at `now` (a card past its expiry month is expired). */
  private paymentSourceOf(row: SourceRow, now: Date): PaymentSource {
    const { id, customerId, referenceId, brand, last4, firstName, lastName, expiryMonth, expiryYear } = row;
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
  private async chargeableSource(
    store: EmbeddedStore,
    customerId: string,
    paymentSourceId: string | null,
    now: Date,
  ): Promise<PaymentSource> {
    if (!paymentSourceId) throw refused("The customer has no payment method to charge.", "payment_method_missing");
    const source = this.paymentSourceOf(await this.ownSource(store, customerId, paymentSourceId), now);
    if (source.status !== "valid") {
      throw refused(
        `The payment method ending in ${source.card?.last4} is ${source.status}.`,
        "payment_method_not_usable",
      );
    }
    return source;
  }

  /** The card a renewal is paid with, or null when there is none usable (the invoice is then left due). */
  private async usableSource(store: EmbeddedStore, row: SubscriptionRow, now: Date): Promise<PaymentSource | null> {
    try {
      return await this.chargeableSource(
        store,
        row.customerId,
        row.paymentSourceId ?? (await this.customer(store, row.customerId)).primaryPaymentSourceId,
        now,
      );
    } catch (error) {
      if (error instanceof BillingError) return null;
      throw error;
    }
  }

  // --- subscriptions ----------------------------------------------------------------------------

  private async ownSubscription(
    store: EmbeddedStore,
    customerId: string,
    subscriptionId: string,
  ): Promise<SubscriptionRow> {
    const [row] = await store
      .select()
      .from(billingSubscriptions)
      .where(and(eq(billingSubscriptions.id, subscriptionId), eq(billingSubscriptions.customerId, customerId)));
    return row ?? this.missing(`Subscription ${subscriptionId}`);
  }

  /** A subscription that can still be changed: a cancelled one is refused, as Chargebee refuses it. */
  private changeable(row: SubscriptionRow): SubscriptionRow {
    if (row.status === "cancelled") {
      throw refused(`Subscription ${row.id} is cancelled.`, "invalid_state_for_request");
    }
    return row;
  }

  /** Writes a change to a subscription read in this transaction, with a new resource version. */
  private async changeSubscriptionRow(
    tx: EmbeddedStore,
    row: SubscriptionRow,
    change: Partial<SubscriptionRow>,
    at: Date,
  ): Promise<void> {
    const result = await tx
      .update(billingSubscriptions)
      .set({ ...change, resourceVersion: nextVersion(row.resourceVersion, at) })
      .where(and(eq(billingSubscriptions.id, row.id), eq(billingSubscriptions.resourceVersion, row.resourceVersion)));
    if (affectedRows(result) !== 1) throw changedMeanwhile(`Subscription ${row.id}`);
  }

  private async subscriptionOf(store: EmbeddedStore, row: SubscriptionRow): Promise<Subscription> {
    const unpaid = await store
      .select({ amountDue: billingInvoices.amountDue, date: billingInvoices.date })
      .from(billingInvoices)
      .where(and(eq(billingInvoices.subscriptionId, row.id), inArray(billingInvoices.status, UNPAID)))
      .orderBy(asc(billingInvoices.date));
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
  private startOf(request: NewSubscriptionEstimateRequest, now: Date): Date {
    return request.startDate && request.startDate > now ? wholeSeconds(request.startDate) : now;
  }

  private async priceNewSubscription(
    store: EmbeddedStore,
    request: NewSubscriptionEstimateRequest,
    start: Date,
  ): Promise<Estimate> {
    const plan = this.plan(request.planId);
    return creationEstimate({
      // Before the customer exists (their first order's Review) there is no balance to use.
      creditBalance: request.customerId ? (await this.customer(store, request.customerId)).creditBalance : 0,
      recurring: this.recurringItems(plan, request.planQuantity, request.addons ?? []),
      oneTime: this.priced(oneTimeCharges(request), request.hardware),
      period: plan.period,
      coupons: this.coupons(request.couponIds),
      start,
    });
  }

  private async priceChange(
    store: EmbeddedStore,
    row: SubscriptionRow,
    change: SubscriptionChange,
    now: Date,
  ): Promise<Estimate> {
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
      now,
      creditBalance: (await this.customer(store, row.customerId)).creditBalance,
      unpaid: sum((await this.unpaidInTerm(store, row)).map((invoice) => invoice.amountDue)),
    });
  }

  /** The subscription's invoices of its current term that are still unpaid (a renewal no card could pay), oldest first. */
  private unpaidInTerm(store: EmbeddedStore, row: SubscriptionRow): Promise<InvoiceRow[]> {
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
      .orderBy(asc(billingInvoices.date), ...INVOICE_NUMBER_ORDER);
  }

  /**
   * A change's adjustments lower what the term's unpaid invoices ask for, oldest first; one asking nothing is
   * settled (and its dunning ends). The ids of the invoices it changed.
   */
  private async adjustUnpaid(
    tx: EmbeddedStore,
    row: SubscriptionRow,
    adjustments: number,
    at: Date,
  ): Promise<string[]> {
    let left = adjustments;
    const adjusted: string[] = [];
    for (const invoice of await this.unpaidInTerm(tx, row)) {
      if (left === 0) break;
      const taken = Math.min(left, invoice.amountDue);
      left -= taken;
      const amountDue = invoice.amountDue - taken;
      await this.changeInvoiceRow(
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

  private async findInvoice(store: EmbeddedStore, customerId: string, invoiceId: string) {
    const [row] = await store
      .select()
      .from(billingInvoices)
      .where(and(eq(billingInvoices.id, invoiceId), eq(billingInvoices.customerId, customerId)));
    return row;
  }

  private async ownInvoice(store: EmbeddedStore, customerId: string, invoiceId: string): Promise<InvoiceRow> {
    return (await this.findInvoice(store, customerId, invoiceId)) ?? this.missing(`Invoice ${invoiceId}`);
  }

  /**
   * The next invoice number, which is the invoice's id as on Chargebee (1, 2, 3, ...): one counter, incremented in
   * the transaction that makes the invoice, so numbers are never skipped or given twice. The increment is one
   * upsert that returns the new value: the counter's row stays locked until the transaction ends, so two
   * transactions making invoices at once take turns at it instead of reading one number.
   */
  private async nextInvoiceNumber(tx: EmbeddedStore): Promise<string> {
    const [counter] = await tx
      .insert(billingSequences)
      .values({ name: "invoice", value: 1 })
      .onConflictDoUpdate({ target: billingSequences.name, set: { value: sql`${billingSequences.value} + 1` } })
      .returning({ value: billingSequences.value });
    return String(counter.value);
  }

  /**
   * Records the invoice and collects it: the customer's credits first (their balance becomes what the invoice
   * left of it), then the card. A declined card refuses the whole call for an order (nothing is made, as Chargebee
   * refuses a subscription it cannot charge), and starts dunning for a renewal.
   */
  private async invoice(
    tx: EmbeddedStore,
    invoice: {
      customerId: string;
      subscriptionId: string | null;
      purpose: InvoicePurpose;
      source: PaymentSource | null;
      totals: Billed;
      at: Date;
      shippingAddress?: Address;
      poNumber: string | null;
      /** Refuse: the customer is present, and a declined charge refuses the call; dun: a renewal's dunning. */
      whenDeclined: "refuse" | "dun";
      /** The payment intent the present cardholder authorized, for a card whose bank asks on every payment. */
      paymentIntentId?: string;
    },
  ): Promise<{ id: string; collection: Collection }> {
    const { lineItems, discounts, subTotal, total, creditsApplied, amountDue, creditBalance } = invoice.totals;
    const { source, at } = invoice;
    if (amountDue > 0 && source && invoice.whenDeclined === "refuse") {
      await this.authenticated(tx, source, amountDue, invoice.paymentIntentId);
      const decline = await chargeDeclineOf(tx, source.referenceId);
      if (decline) throw declined(decline.message);
    }
    // A renewal is charged without the cardholder: a card whose bank asks on every payment is refused then.
    const failure =
      amountDue > 0 && source && invoice.whenDeclined === "dun" ? await this.offSessionFailure(tx, source) : null;
    const collection: Collection = amountDue === 0 ? "settled" : !source ? "no_card" : failure ? "declined" : "charged";
    const paid = collection === "settled" || collection === "charged";
    const customer = await this.customer(tx, invoice.customerId);
    const id = await this.nextInvoiceNumber(tx);
    await tx.insert(billingInvoices).values({
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
      // The document's parties as of now: later changes to the customer leave this invoice as it was issued.
      seller: this.seller,
      billedTo: buyerOf(customer),
      poNumber: invoice.poNumber,
      date: at,
      paidAt: paid ? at : null,
      paymentAttempts: collection === "charged" || collection === "declined" ? 1 : 0,
      nextRetryAt: collection === "declined" ? this.retryAt(at, 1) : null,
      paymentFailure: collection === "declined" ? failure : null,
      resourceVersion: at.getTime(),
    });
    await tx.update(billingCustomers).set({ creditBalance }).where(eq(billingCustomers.id, invoice.customerId));
    return { id, collection };
  }

  /**
   * A charge while the cardholder is present, to a card whose bank asks on every payment: refused unless it spends
   * a payment intent they authorized for this card and amount, which pays this charge only. The bank is asked
   * before the card is charged, so a card that authenticates and is then declined is declined after this. An
   * intent expires by the engine's clock now, not by the invoice's date (a subscription may start later).
   */
  private async authenticated(
    tx: EmbeddedStore,
    source: PaymentSource,
    amount: number,
    paymentIntentId: string | undefined,
  ): Promise<void> {
    if (!(await asksOnPayment(tx, source.referenceId))) return;
    if (!paymentIntentId) throw authenticationRequired();
    const now = await this.now(tx);
    if (!(await spendPaymentAuthentication(tx, paymentIntentId, { referenceId: source.referenceId, amount }, now))) {
      const intent = await setupOf(tx, paymentIntentId);
      if (intent && paymentExpired(intent, now)) {
        throw refused(PAYMENT_INTENT_EXPIRED_MESSAGE, PAYMENT_INTENT_EXPIRED, "card");
      }
      throw refused(
        "The payment intent is not authorized for this payment, or it was used already.",
        PAYMENT_INTENT_INVALID,
        "card",
      );
    }
  }

  /**
   * Why a charge made without the cardholder (a renewal, dunning's retry) to the source fails, as the provider's
   * code; null when it is charged. A card whose bank asks on every payment cannot be charged without them: the
   * invoice waits for Pay now, where they are asked.
   */
  private async offSessionFailure(tx: EmbeddedStore, source: PaymentSource): Promise<string | null> {
    if (await asksOnPayment(tx, source.referenceId)) return AUTHENTICATION_REQUIRED;
    return (await chargeDeclineOf(tx, source.referenceId)) ? DECLINED : null;
  }

  /** An unpaid invoice paid in full from the source now: dunning ends. */
  private async settle(tx: EmbeddedStore, row: InvoiceRow, source: PaymentSource, at: Date): Promise<void> {
    await this.changeInvoiceRow(
      tx,
      row,
      {
        status: "paid",
        amountPaid: row.amountPaid + row.amountDue,
        amountDue: 0,
        paidAt: at,
        nextRetryAt: null,
        paymentFailure: null,
        paymentSourceId: source.id,
        paymentAttempts: row.paymentAttempts + 1,
      },
      at,
    );
    // The subscription's dues changed with it (Chargebee's subscription carries total_dues and due_since), so its
    // resource has a new version too: a copy kept by version learns that the renewal was paid.
    const [subscription] = row.subscriptionId
      ? await tx.select().from(billingSubscriptions).where(eq(billingSubscriptions.id, row.subscriptionId))
      : [];
    if (subscription) await this.changeSubscriptionRow(tx, subscription, {}, at);
  }

  /** Writes a change to an invoice read in this transaction, with a new resource version. */
  private async changeInvoiceRow(
    tx: EmbeddedStore,
    row: InvoiceRow,
    change: Partial<InvoiceRow>,
    at: Date,
  ): Promise<void> {
    const result = await tx
      .update(billingInvoices)
      .set({ ...change, resourceVersion: nextVersion(row.resourceVersion, at) })
      .where(and(eq(billingInvoices.id, row.id), eq(billingInvoices.resourceVersion, row.resourceVersion)));
    if (affectedRows(result) !== 1) throw changedMeanwhile(`Invoice ${row.id}`);
  }

  private missing(what: string): never {
    throw notFound(what);
  }
}

export interface LocalBillingOptions {
  store: EmbeddedStore;
  /** The seller every invoice names: the portal's configuration; the demo's made-up seller when not given (tests). */
  seller?: InvoiceParty;
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
 * Calls that do not catch up first: those that process what is due themselves (and report what that did), and the
 * start-up's recording of the seller on invoices issued before invoices kept one, which changes no invoice's dates.
 */
const WITHOUT_CATCH_UP = new Set<string>(["advanceClock", "processDue", "recordSellerOnEarlierInvoices"]);

/**
 * Calls that only read and never commit an event: reading the clock, which every page judging a license's dates
 * asks and must stay one read, and reading the price list, which the passing of time does not change (every wizard
 * step asks for it). They run as they are: no catch-up, and no call of their own with events to hand on, so a page
 * that only reads the clock opens no async storage (ScopedStorage says what one costs every request).
 */
const READS_ONLY = new Set<string>(["clockNow", "listPlans", "listAddons", "retrieveCoupon"]);

/**
 * The engine with every call brought up to the engine's clock first (what fell due is processed, in time order),
 * and the events each call committed handed to the listener after it.
 */
function upToDate(engine: LocalBilling, onEvents: LocalBillingOptions["onEvents"]): EmbeddedBilling {
  return new Proxy(engine, {
    get(target, property, receiver) {
      const value: unknown = Reflect.get(target, property, receiver);
      if (typeof value !== "function" || typeof property !== "string") return value;
      if (READS_ONLY.has(property)) return (...args: unknown[]) => value.apply(target, args) as unknown;
      return async (...args: unknown[]) =>
        target.duringCall(async () => {
          try {
            if (!WITHOUT_CATCH_UP.has(property)) await target.catchUp();
            return (await value.apply(target, args)) as unknown;
          } finally {
            await deliver(target.takeCommitted(), onEvents);
          }
        });
    },
  });
}

async function deliver(events: ProviderEvent[], onEvents: LocalBillingOptions["onEvents"]) {
  if (!onEvents || events.length === 0) return;
  try {
    await onEvents(events);
  } catch (error) {
    logger.error({ event: "billing-events-listener-failed", ...errorFields(error) });
  }
}

/**
 * What a new subscription would cost, priced on `store` (a transaction's) by the engine's clock there, as the engine
 * prices it, but without first processing what has fallen due: the demo seed prices its quotes inside its own
 * transaction, which may run one statement at a time and holds the engine's rows it is still writing.
 */
export function estimateOn(store: EmbeddedStore, request: NewSubscriptionEstimateRequest) {
  const engine = new LocalBilling(
    store,
    new EngineClock(store, () => new Date()),
    DEFAULT_DUNNING,
    DEMO_INVOICE_SELLER,
  );
  return engine.estimateNewSubscription(request);
}

/** The embedded billing engine, with fault injection in front of every call. */
export function createLocalBilling({
  store,
  seller = DEMO_INVOICE_SELLER,
  now = () => new Date(),
  dunning = DEFAULT_DUNNING,
  onEvents,
}: LocalBillingOptions): EmbeddedBilling {
  const engine = new LocalBilling(store, new EngineClock(store, now), dunning, seller);
  return withFaults(upToDate(engine, onEvents), store);
}
