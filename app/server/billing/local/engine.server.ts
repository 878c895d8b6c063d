import { and, asc, eq, gte, sql } from "drizzle-orm";
import { addPeriod, COUPON_MESSAGES } from "~/domain/pricing";
import { attachedCard, gatewayCustomerFor, spendToken } from "~/server/cards/local/vault.server";
import { INVALID_CUSTOMER_ID, parseGatewayReference } from "~/server/cards/port.server";
import { newId, once, wholeSeconds, type EmbeddedStore } from "~/server/providers/embedded.server";
import {
  billingCustomers,
  billingIdempotencyKeys,
  billingInvoices,
  billingPaymentSources,
  billingSubscriptions,
} from "~db/schema";
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
  HardwareOrder,
  Invoice,
  ItemQuantity,
  NewPaymentSource,
  NewSubscriptionEstimateRequest,
  NewSubscriptionRequest,
  PaymentCard,
  PaymentSource,
  Plan,
  Subscription,
  SubscriptionChange,
  SubscriptionUpdate,
} from "../port.server";
import {
  changeEstimate,
  creationEstimate,
  oneTimeInvoice,
  renewalInvoice,
  sum,
  type PricedItem,
} from "./estimates.server";
import { withFaults } from "./faults.server";

type SubscriptionRow = typeof billingSubscriptions.$inferSelect;
type SourceRow = typeof billingPaymentSources.$inferSelect;
type InvoiceRow = typeof billingInvoices.$inferSelect;

/** An invoice as the engine keeps it, in the port's terms (the JSON line items give back ISO strings). */
export function invoiceOfRow(row: InvoiceRow): Invoice {
  const { paymentSourceId: _source, shippingAddress: _shipping, lineItems, ...invoice } = row;
  const dated = lineItems.map((item) => ({
    ...item,
    dateFrom: item.dateFrom ? new Date(item.dateFrom) : null,
    dateTo: item.dateTo ? new Date(item.dateTo) : null,
  }));
  return { ...invoice, lineItems: dated };
}

/**
 * The embedded billing engine: Chargebee's behaviour for the calls the portal makes, on the portal's
 * SQLite. Each call runs in one transaction; creating calls record their idempotency key in the same
 * transaction, so a repeat returns what the first call made and never charges twice.
 */
class LocalBilling implements BillingProvider {
  readonly name = "local";

  constructor(
    private readonly store: EmbeddedStore,
    private readonly clock: () => Date,
  ) {}

  private now(): Date {
    return wholeSeconds(this.clock());
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
      const card = spendToken(tx, source.tmpToken, this.now());
      if (!card) throw refused("The card token is invalid, expired or was already used.", "invalid_token");
      return { card, referenceId: `${gatewayCustomerFor(source.customerId)}/${newId("card")}` };
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
    this.store.transaction((tx) => {
      this.ownSource(tx, customerId, paymentSourceId);
      tx.delete(billingPaymentSources).where(eq(billingPaymentSources.id, paymentSourceId)).run();
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
    });
  }

  async retrieveSubscription(customerId: string, subscriptionId: string) {
    return this.subscriptionOf(this.ownSubscription(this.store, customerId, subscriptionId));
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
          })
          .run();
        this.invoice(tx, { customerId: request.customerId, subscriptionId: id, source, totals: estimate, now });
        return id;
      },
      (id) => this.subscriptionOf(this.ownSubscription(this.store, request.customerId, id)),
    );
  }

  async findSubscriptionByKey(customerId: string, idempotencyKey: string) {
    const made = this.madeWith(idempotencyKey, "createSubscription");
    return made ? this.subscriptionOf(this.ownSubscription(this.store, customerId, made)) : null;
  }

  async estimateSubscriptionUpdate(customerId: string, subscriptionId: string, change: SubscriptionChange) {
    return this.priceChange(this.store, this.ownSubscription(this.store, customerId, subscriptionId), change);
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
        const row = this.ownSubscription(tx, customerId, subscriptionId);
        const estimate = this.priceChange(tx, row, update);
        const plan = this.plan(update.planId);
        const now = this.now();
        if (estimate.lineItems.length > 0) {
          const source = this.chargeableSource(
            tx,
            customerId,
            row.paymentSourceId ?? this.customer(tx, customerId).primaryPaymentSourceId,
          );
          this.invoice(tx, { customerId, subscriptionId, source, totals: estimate, now });
        }
        this.adjustUnpaid(tx, row, estimate.adjustments);
        const newTerm = plan.period !== this.plan(row.planId).period;
        tx.update(billingSubscriptions)
          .set({
            planId: plan.id,
            planQuantity: update.planQuantity,
            planUnitPrice: plan.price,
            addons: update.addons ? ordered(update.addons) : row.addons,
            ...(newTerm && estimate.nextBilling
              ? {
                  currentTermStart: now,
                  currentTermEnd: estimate.nextBilling.at,
                  nextBillingAt: estimate.nextBilling.at,
                }
              : {}),
            ...(update.shippingAddress ? { shippingAddress: update.shippingAddress } : {}),
          })
          .where(eq(billingSubscriptions.id, subscriptionId))
          .run();
        // Chargebee keeps the billing address on the customer; a subscription update that sends one changes it.
        if (update.billingAddress) {
          tx.update(billingCustomers)
            .set({ billingAddress: update.billingAddress })
            .where(eq(billingCustomers.id, customerId))
            .run();
        }
        return subscriptionId;
      },
      (id) => this.subscriptionOf(this.ownSubscription(this.store, customerId, id)),
    );
  }

  async overrideBillingProfile(
    customerId: string,
    subscriptionId: string,
    profile: { paymentSourceId: string; autoCollection: boolean },
  ) {
    return this.store.transaction((tx) => {
      this.ownSubscription(tx, customerId, subscriptionId);
      this.ownSource(tx, customerId, profile.paymentSourceId);
      tx.update(billingSubscriptions)
        .set({ paymentSourceId: profile.paymentSourceId, autoCollection: profile.autoCollection })
        .where(eq(billingSubscriptions.id, subscriptionId))
        .run();
      return this.subscriptionOf(this.ownSubscription(tx, customerId, subscriptionId));
    });
  }

  async createHardwareInvoice(order: HardwareOrder, idempotencyKey: string) {
    return this.once(
      idempotencyKey,
      "createHardwareInvoice",
      (tx) => {
        this.customer(tx, order.customerId);
        const now = this.now();
        const balance = this.customer(tx, order.customerId).creditBalance;
        const totals = oneTimeInvoice(this.priced(hardwareCharges(order.hardware), order.hardware), now, balance);
        const source = this.chargeableSource(tx, order.customerId, order.paymentSourceId);
        return this.invoice(tx, {
          customerId: order.customerId,
          subscriptionId: null,
          source,
          totals,
          now,
          shippingAddress: order.shippingAddress,
        });
      },
      (id) => this.invoiceOf(this.store.select().from(billingInvoices).where(eq(billingInvoices.id, id)).get()),
    );
  }

  async findInvoiceByKey(customerId: string, idempotencyKey: string) {
    const made = this.madeWith(idempotencyKey, "createHardwareInvoice");
    if (!made) return null;
    const row = this.store
      .select()
      .from(billingInvoices)
      .where(and(eq(billingInvoices.id, made), eq(billingInvoices.customerId, customerId)))
      .get();
    return row ? invoiceOfRow(row) : null;
  }

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
    return read(once(this.store, key, call, this.now(), create));
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
    return this.store.transaction((tx) => {
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
        tx.insert(billingPaymentSources)
          .values({
            id,
            customerId: source.customerId,
            status: "valid",
            referenceId: made.referenceId,
            ...made.card,
            createdAt: this.now(),
          })
          .run();
        if (source.setAsPrimary || !customer.primaryPaymentSourceId) this.setPrimary(tx, source.customerId, id);
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

  // --- subscriptions ----------------------------------------------------------------------------

  private ownSubscription(store: EmbeddedStore, customerId: string, subscriptionId: string): SubscriptionRow {
    const row =
      store
        .select()
        .from(billingSubscriptions)
        .where(and(eq(billingSubscriptions.id, subscriptionId), eq(billingSubscriptions.customerId, customerId)))
        .get() ?? this.missing(`Subscription ${subscriptionId}`);
    return this.renewed(store, row);
  }

  /**
   * Renewals happen lazily, before anything reads the subscription: a subscription whose term ended moves on
   * by whole periods, each renewal invoiced for the full term and paid from the credit balance first, then the
   * card. So an estimate always prorates against the current term, and carried credits are used up.
   */
  private renewed(store: EmbeddedStore, row: SubscriptionRow): SubscriptionRow {
    const now = this.now();
    if (row.currentTermEnd > now) return row;
    const plan = this.plan(row.planId);
    const recurring = this.recurringItems(plan, row.planQuantity, row.addons, row.planUnitPrice);
    return store.transaction((tx) => {
      let { currentTermStart, currentTermEnd } = row;
      while (currentTermEnd <= now) {
        currentTermStart = currentTermEnd;
        currentTermEnd = addPeriod(currentTermStart, plan.period);
        const balance = this.customer(tx, row.customerId).creditBalance;
        this.invoice(tx, {
          customerId: row.customerId,
          subscriptionId: row.id,
          source: this.usableSource(tx, row),
          totals: renewalInvoice(recurring, currentTermStart, currentTermEnd, balance),
          now: currentTermStart,
        });
      }
      const renewal = { currentTermStart, currentTermEnd, nextBillingAt: currentTermEnd, status: "active" as const };
      tx.update(billingSubscriptions).set(renewal).where(eq(billingSubscriptions.id, row.id)).run();
      return { ...row, ...renewal };
    });
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

  private subscriptionOf(row: SubscriptionRow): Subscription {
    const { createdAt: _createdAt, ...subscription } = row;
    return subscription;
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

  private startOf(request: NewSubscriptionEstimateRequest): Date {
    return request.startDate ? wholeSeconds(request.startDate) : this.now();
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

  /** A change's adjustments lower what the term's unpaid invoices ask for, oldest first; one asking nothing is settled. */
  private adjustUnpaid(tx: EmbeddedStore, row: SubscriptionRow, adjustments: number) {
    let left = adjustments;
    for (const invoice of this.unpaidInTerm(tx, row)) {
      if (left === 0) return;
      const taken = Math.min(left, invoice.amountDue);
      left -= taken;
      const amountDue = invoice.amountDue - taken;
      tx.update(billingInvoices)
        .set({ amountDue, status: amountDue === 0 ? "paid" : "payment_due" })
        .where(eq(billingInvoices.id, invoice.id))
        .run();
    }
  }

  // --- invoices ---------------------------------------------------------------------------------

  /**
   * Records the invoice, paid in full from the source (the embedded gateway never declines a valid card), or
   * left due without one; the customer's credit balance becomes what the invoice left of it.
   */
  private invoice(
    tx: EmbeddedStore,
    invoice: {
      customerId: string;
      subscriptionId: string | null;
      source: PaymentSource | null;
      totals: Billed;
      now: Date;
      shippingAddress?: Address;
    },
  ): string {
    const { lineItems, discounts, subTotal, total, creditsApplied, amountDue, creditBalance } = invoice.totals;
    const paid = invoice.source !== null || amountDue === 0;
    const id = newId("inv");
    tx.insert(billingInvoices)
      .values({
        id,
        customerId: invoice.customerId,
        subscriptionId: invoice.subscriptionId,
        status: paid ? "paid" : "payment_due",
        lineItems,
        discounts,
        subTotal,
        total,
        creditsApplied,
        amountPaid: paid ? amountDue : 0,
        amountDue: paid ? 0 : amountDue,
        paymentSourceId: invoice.source?.id ?? null,
        shippingAddress: invoice.shippingAddress ?? null,
        date: invoice.now,
      })
      .run();
    tx.update(billingCustomers).set({ creditBalance }).where(eq(billingCustomers.id, invoice.customerId)).run();
    return id;
  }

  private invoiceOf(row: InvoiceRow | undefined): Invoice {
    if (!row) throw new BillingError("The invoice disappeared.", { kind: "unknown" });
    return invoiceOfRow(row);
  }

  private missing(what: string): never {
    throw notFound(what);
  }
}

export interface LocalBillingOptions {
  store: EmbeddedStore;
  /** The engine's clock; tests pin it to get exact proration. */
  now?: () => Date;
}

/** The embedded billing engine, with fault injection in front of every call. */
export function createLocalBilling({ store, now = () => new Date() }: LocalBillingOptions): BillingProvider {
  return withFaults(new LocalBilling(store, now), store);
}
