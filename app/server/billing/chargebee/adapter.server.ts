import { createHash } from "node:crypto";
import type Chargebee from "chargebee";
import type { Estimate as ChargebeeEstimate } from "chargebee";
import { INVALID_CUSTOMER_ID, parseGatewayReference } from "~/server/providers/card-gateway.server";
import { addonOf, couponOf, planOf } from "../catalogue.server";
import { onFirstUse } from "~/server/platform/on-first-use.server";
import { ProviderError } from "~/server/platform/provider-errors.server";
import { CREDIT_NOTE_REQUIRED, notFound, refused } from "../errors.server";
import {
  checkOrderedOnce,
  hardwareCharges,
  oneTimeCharges,
  ordered,
  type OneTimeCharge,
} from "~/server/billing/one-time-charges.server";
import { eventPageSize } from "../input-checks.server";
import {
  PAYMENT_INTENT_EXPIRED,
  PAYMENT_INTENT_EXPIRED_MESSAGE,
  PAYMENT_INTENT_INVALID,
  type Addon,
  type BillingInfo,
  type BillingProvider,
  type CustomerProfile,
  type EventQuery,
  type HardwareOrder,
  type InvoiceCorrection,
  type ItemQuantity,
  type NewPaymentSource,
  type NewSubscriptionEstimateRequest,
  type NewSubscriptionRequest,
  type PaymentIntentRequest,
  type Plan,
  type SubscriptionChange,
  type SubscriptionUpdate,
} from "../port.server";
import {
  billingErrorOf,
  customerOf,
  estimateOf,
  invoiceOf,
  paymentIntentOf,
  paymentSourceOf,
  seconds,
  subscriptionOf,
  toChargebeeAddress,
  toEstimateAddress,
} from "./mapping.server";
import { eventOf } from "./events.server";
import { logger } from "~/server/platform/log/log.server";

export interface ChargebeeOptions {
  site: string;
  apiKey: string;
  /** The card gateway (Stripe) account in Chargebee that stores the cards. */
  gatewayAccountId: string;
  /** Another API host, e.g. a local fake in tests: the host is site + hostSuffix. */
  endpoint?: { protocol: "http" | "https"; hostSuffix: string; port: number };
  timeoutMs?: number;
}

/**
 * The key Chargebee gets for an idempotency key of the portal's: Chargebee takes at most 100 characters, and a
 * job's keys (kind, draft, order digest, step) are longer, so it gets their SHA-256 (43 characters). The full
 * key stays readable where the adapter looks for what a call made (a subscription's meta_data).
 */
export const chargebeeKey = (idempotencyKey: string) => createHash("sha256").update(idempotencyKey).digest("base64url");

const idempotent = (idempotencyKey: string) => ({ "chargebee-idempotency-key": chargebeeKey(idempotencyKey) });

/**
 * The key of a charge that names a payment intent: the portal's key with the intent's id. A job sends its step's
 * charge first without an intent, and again with the one the cardholder then authorized, under one key; Chargebee
 * refuses a key used again with other parameters (or answers with the first refusal), so each intent's charge has
 * a key of its own, and a repeat with the same intent still gets the first answer. An intent pays one charge only,
 * and a job asks what its key made (by the portal's key, kept on the subscription or invoice) before it charges
 * again after an unknown outcome.
 */
const chargeKey = (idempotencyKey: string, paymentIntentId: string | undefined) =>
  paymentIntentId ? `${idempotencyKey}:${paymentIntentId}` : idempotencyKey;

/** The most Chargebee lists in one page; it says where the next page starts (`next_offset`). */
const PAGE_SIZE = 100;

/**
 * How long the adapter trusts the plans and add-ons it listed (their add-on types and list prices): Chargebee
 * keeps an add-on's type once it is in use, and a price change reaches the portal's own reads at once.
 */
const CATALOGUE_TTL_MS = 10 * 60_000;

/** An add-on in an order as Chargebee takes it: a quantity only when it is charged per unit. */
interface ChargebeeItem {
  id: string;
  quantity?: number;
  unit_price?: number;
}

/**
 * The SDK serializes a nested object in a GET query wrongly (each key nests under the previous one), so a
 * query built with the SDK's own parameter type is sent flat, in Chargebee's `subscription[plan_id]` form.
 */
function flatQuery(params: ChargebeeEstimate.CreateSubForCustomerEstimateInputParam): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(params).flatMap(([key, value]: [string, unknown]) =>
      value !== null && typeof value === "object" && !Array.isArray(value)
        ? Object.entries(value).map(([field, inner]) => [`${key}[${field}]`, inner])
        : [[key, value]],
    ),
  );
}

/**
 * The portal's page where the cardholder authenticates a Chargebee payment intent (decision 226): Chargebee has no
 * page of its own for a card's 3-D Secure, which Chargebee.js's 3DS handler runs in the browser.
 */
export const paymentAuthenticationUrl = (paymentIntentId: string) =>
  `/payments/authenticate/${encodeURIComponent(paymentIntentId)}`;

/** The currency of the price list (db/catalogue.json), which every charge is in. */
const CURRENCY = "USD";

/** A charge's payment intent as Chargebee takes it, when the cardholder authorized one. */
const intentParam = (paymentIntentId: string | undefined) => (paymentIntentId ? { id: paymentIntentId } : undefined);

/** A start date Chargebee is given only when it is in the future: an earlier one would be backdating. */
const futureStart = (startDate: Date | undefined) =>
  startDate && seconds(startDate) > seconds(new Date()) ? seconds(startDate) : undefined;

interface Catalogue {
  plans: Map<string, Plan>;
  addons: Map<string, Addon>;
  listedAt: number;
}

/** Chargebee's SDK, loaded on the first call or by the start-up's preload. */
export const chargebeeSdk = onFirstUse(() => import("chargebee").then((module) => module.default));

/**
 * The billing port on Chargebee's API (Product Catalog 1.0) through the official SDK. Each call maps
 * Chargebee's failure to a BillingError; ownership is checked on every id the caller passes in.
 */
class ChargebeeBilling implements BillingProvider {
  readonly name = "chargebee";
  private client: Chargebee | undefined;
  private catalogue: Promise<Catalogue> | null = null;

  constructor(private readonly options: ChargebeeOptions) {}

  private async call<T>(operation: string, writes: boolean, request: (chargebee: Chargebee) => Promise<T>): Promise<T> {
    const sdk = await chargebeeSdk();
    const { site, apiKey, timeoutMs, endpoint } = this.options;
    this.client ??= new sdk({ site, apiKey, timeout: timeoutMs, ...endpoint });
    try {
      return await request(this.client);
    } catch (failure) {
      const error = billingErrorOf(operation, writes, failure);
      logWithheld(operation, error, failure);
      throw error;
    }
  }

  /** Every entry of a list, page by page. */
  private async all<T>(
    operation: string,
    page: (chargebee: Chargebee, offset: string | undefined) => Promise<{ list: T[]; next_offset?: string }>,
  ): Promise<T[]> {
    const entries: T[] = [];
    await this.find(operation, page, (entry) => {
      entries.push(entry);
      return false;
    });
    return entries;
  }

  /** The first entry of a list that matches, reading no further page than needed. */
  private async find<T>(
    operation: string,
    page: (chargebee: Chargebee, offset: string | undefined) => Promise<{ list: T[]; next_offset?: string }>,
    matches: (entry: T) => boolean,
  ): Promise<T | undefined> {
    let offset: string | undefined;
    do {
      const { list, next_offset } = await this.call(operation, false, (cb) => page(cb, offset));
      const found = list.find(matches);
      if (found) return found;
      offset = next_offset;
    } while (offset);
    return undefined;
  }

  async listPlans() {
    const list = await this.all("plan.list", (cb, offset) =>
      cb.plan.list({ limit: PAGE_SIZE, offset, status: { is: "active" } }),
    );
    return list.map((entry) => planOf(entry.plan));
  }

  async listAddons() {
    const list = await this.all("addon.list", (cb, offset) =>
      cb.addon.list({ limit: PAGE_SIZE, offset, status: { is: "active" } }),
    );
    return list.map((entry) => addonOf(entry.addon));
  }

  /** The plans and add-ons as listed lately: what the adapter needs to know of them to send an order. */
  private async knownCatalogue(ids: string[] = []): Promise<Catalogue> {
    const cached = this.catalogue ? await this.catalogue.catch(() => null) : null;
    const fresh = cached && Date.now() - cached.listedAt < CATALOGUE_TTL_MS;
    // An id it has not seen (an add-on created since) is worth listing again for.
    if (cached && fresh && ids.every((id) => cached.plans.has(id) || cached.addons.has(id))) return cached;
    const listing = Promise.all([this.listPlans(), this.listAddons()]).then(([plans, addons]) => ({
      plans: new Map(plans.map((plan) => [plan.id, plan])),
      addons: new Map(addons.map((addon) => [addon.id, addon])),
      listedAt: Date.now(),
    }));
    this.catalogue = listing;
    return listing;
  }

  /**
   * An order's add-ons as Chargebee takes them: a quantity for those charged per unit only (Chargebee refuses
   * one for an on_off add-on, which is simply present), and a unit price where the order sets one (shipping).
   */
  private async items(charges: OneTimeCharge[]): Promise<ChargebeeItem[]> {
    if (charges.length === 0) return [];
    const { addons } = await this.knownCatalogue(charges.map((charge) => charge.id));
    return charges.map((charge) => {
      const addon = addons.get(charge.id);
      if (!addon) throw notFound(`Add-on ${charge.id}`);
      checkOrderedOnce(addon, charge.quantity);
      return {
        id: charge.id,
        ...(addon.chargedPerUnit ? { quantity: charge.quantity } : {}),
        ...(charge.unitPrice === undefined ? {} : { unit_price: charge.unitPrice }),
      };
    });
  }

  /** An order's one-time charges as Chargebee's event-based add-ons, charged once on the subscription's creation. */
  private async onCreation(request: NewSubscriptionEstimateRequest) {
    return (await this.items(oneTimeCharges(request))).map((item) => ({
      ...item,
      on_event: "subscription_creation" as const,
      charge_once: true,
      charge_on: "on_event" as const,
    }));
  }

  /**
   * What the next cycle charges when Chargebee does not say (it gives a next-invoice estimate only when nothing
   * is invoiced now): the plan and recurring add-ons at the prices it listed.
   */
  private async listPriceRenewal(planId: string, quantity: number, addons: ItemQuantity[]) {
    const catalogue = await this.knownCatalogue([planId, ...addons.map((addon) => addon.id)]);
    const priceOf = (item: Plan | Addon | undefined) => item?.price ?? 0;
    return ordered(addons).reduce(
      (amount, addon) => amount + priceOf(catalogue.addons.get(addon.id)) * addon.quantity,
      priceOf(catalogue.plans.get(planId)) * quantity,
    );
  }

  private async renewalOf(estimate: ChargebeeEstimate, planId: string, quantity: number, addons: ItemQuantity[]) {
    return estimate.next_invoice_estimate?.total ?? this.listPriceRenewal(planId, quantity, addons);
  }

  async retrieveCoupon(code: string) {
    const { coupon } = await this.call("coupon.retrieve", false, (cb) => cb.coupon.retrieve(code));
    return couponOf(coupon);
  }

  async ensureCustomer(customerId: string, profile: CustomerProfile, idempotencyKey: string) {
    try {
      return await this.retrieveCustomer(customerId);
    } catch (error) {
      if (!(error instanceof ProviderError && error.code === "not_found")) throw error;
    }
    const { customer } = await this.call("customer.create", true, (cb) =>
      cb.customer.create({ id: customerId, ...this.profileParams(profile) }, idempotent(idempotencyKey)),
    );
    return customerOf(customer);
  }

  async retrieveCustomer(customerId: string) {
    const { customer } = await this.call("customer.retrieve", false, (cb) => cb.customer.retrieve(customerId));
    return customerOf(customer);
  }

  async updateCustomer(customerId: string, profile: CustomerProfile) {
    const { customer } = await this.call("customer.update", true, (cb) =>
      cb.customer.update(customerId, this.profileParams(profile)),
    );
    return customerOf(customer);
  }

  /**
   * Chargebee's update_billing_info removes every billing field the call leaves out (the VAT number among them), so
   * the call carries the address and the number, always; a number of null is left out to remove it.
   */
  async updateBillingInfo(customerId: string, { billingAddress, vatNumber }: BillingInfo) {
    const { customer } = await this.call("customer.update_billing_info", true, (cb) =>
      cb.customer.updateBillingInfo(customerId, {
        billing_address: toChargebeeAddress(billingAddress),
        vat_number: vatNumber ?? undefined,
      }),
    );
    return customerOf(customer);
  }

  async listPaymentSources(customerId: string) {
    const list = await this.all("payment_source.list", (cb, offset) =>
      cb.paymentSource.list({ customer_id: { is: customerId }, limit: PAGE_SIZE, offset }),
    );
    return list.map((entry) => paymentSourceOf(entry.payment_source));
  }

  async createPaymentSourceFromTempToken(source: NewPaymentSource & { tmpToken: string }, idempotencyKey: string) {
    const { payment_source } = await this.call("payment_source.create_using_temp_token", true, (cb) =>
      cb.paymentSource.createUsingTempToken(
        {
          customer_id: source.customerId,
          type: "card",
          tmp_token: source.tmpToken,
          gateway_account_id: this.options.gatewayAccountId,
          replace_primary_payment_source: source.setAsPrimary,
        },
        idempotent(idempotencyKey),
      ),
    );
    return paymentSourceOf(payment_source);
  }

  async createPaymentSourceFromPermanentToken(
    source: NewPaymentSource & { referenceId: string },
    idempotencyKey: string,
  ) {
    if (!parseGatewayReference(source.referenceId)) throw refused(INVALID_CUSTOMER_ID, "invalid_reference");
    const { payment_source } = await this.call("payment_source.create_using_permanent_token", true, (cb) =>
      cb.paymentSource.createUsingPermanentToken(
        {
          customer_id: source.customerId,
          type: "card",
          reference_id: source.referenceId,
          gateway_account_id: this.options.gatewayAccountId,
          replace_primary_payment_source: source.setAsPrimary,
        },
        idempotent(idempotencyKey),
      ),
    );
    return paymentSourceOf(payment_source);
  }

  async deleteLocalPaymentSource(customerId: string, paymentSourceId: string) {
    await this.ownPaymentSource(customerId, paymentSourceId);
    await this.call("payment_source.delete_local", true, (cb) => cb.paymentSource.deleteLocal(paymentSourceId));
  }

  async retrieveSubscription(customerId: string, subscriptionId: string) {
    const { subscription } = await this.call("subscription.retrieve", false, (cb) =>
      cb.subscription.retrieve(subscriptionId),
    );
    if (subscription.customer_id !== customerId) throw notFound(`Subscription ${subscriptionId}`);
    return subscriptionOf(subscription);
  }

  async estimateNewSubscription(request: NewSubscriptionEstimateRequest) {
    const { customerId } = request;
    const creditBalance = customerId ? (await this.retrieveCustomer(customerId)).creditBalance : 0;
    // The same order for both estimate endpoints, checked against both of the SDK's parameter types.
    const order = {
      invoice_immediately: true,
      coupon_ids: request.couponIds?.length ? request.couponIds : undefined,
      subscription: this.subscriptionParams(request),
      addons: await this.items(ordered(request.addons)),
      event_based_addons: await this.onCreation(request),
      shipping_address: request.shippingAddress ? toEstimateAddress(request.shippingAddress) : undefined,
    } satisfies ChargebeeEstimate.CreateSubscriptionInputParam &
      ChargebeeEstimate.CreateSubForCustomerEstimateInputParam;
    const { estimate } = await this.call("estimate.create_subscription_estimate", false, (cb) =>
      customerId
        ? cb.estimate.createSubForCustomerEstimate(customerId, flatQuery({ ...order, use_existing_balances: true }))
        : // Before the customer exists (their first order's Review), the estimate is made without one.
          cb.estimate.createSubscription(order),
    );
    const renewal = await this.renewalOf(estimate, request.planId, request.planQuantity, request.addons ?? []);
    return estimateOf(estimate, renewal, creditBalance);
  }

  async createSubscription(request: NewSubscriptionRequest, idempotencyKey: string) {
    const addons = await this.items(ordered(request.addons));
    const eventBasedAddons = await this.onCreation(request);
    const { subscription } = await this.charge(
      request.customerId,
      request.paymentIntentId,
      "subscription.create_for_customer",
      (cb) =>
        cb.subscription.createForCustomer(
          request.customerId,
          {
            ...this.subscriptionParams(request),
            auto_collection: "on",
            payment_source_id: request.paymentSourceId,
            coupon_ids: request.couponIds,
            addons,
            event_based_addons: eventBasedAddons,
            shipping_address: request.shippingAddress ? toChargebeeAddress(request.shippingAddress) : undefined,
            invoice_immediately: true,
            po_number: request.poNumber,
            payment_intent: intentParam(request.paymentIntentId),
            // The full key, readable: findSubscriptionByKey looks for it after a call whose outcome was unknown.
            meta_data: { license_assignment: request.licenseAssignment, order_key: idempotencyKey },
          },
          idempotent(chargeKey(idempotencyKey, request.paymentIntentId)),
        ),
    );
    return subscriptionOf(subscription);
  }

  /**
   * A payment intent for the customer's card as the gateway keeps it (`reference_id`, the payment source's reference):
   * Chargebee.js authenticates that card for the amount, and the charge then names the intent. Chargebee takes no
   * return address for a card's intent (success_url is for redirecting payment methods only), so the cardholder
   * goes to the portal's page for it, which knows where they came from.
   */
  async createPaymentIntent(request: PaymentIntentRequest, idempotencyKey: string) {
    const source = await this.ownPaymentSource(request.customerId, request.paymentSourceId);
    const { payment_intent } = await this.call("payment_intent.create", true, (cb) =>
      cb.paymentIntent.create(
        {
          customer_id: request.customerId,
          amount: request.amount,
          currency_code: CURRENCY,
          gateway_account_id: this.options.gatewayAccountId,
          reference_id: source.reference_id,
          payment_method_type: "card",
        },
        idempotent(idempotencyKey),
      ),
    );
    return paymentIntentOf(payment_intent, source.id, paymentAuthenticationUrl(payment_intent.id));
  }

  async retrievePaymentIntent(customerId: string, paymentIntentId: string) {
    const { payment_intent } = await this.call("payment_intent.retrieve", false, (cb) =>
      cb.paymentIntent.retrieve(paymentIntentId),
    );
    if (payment_intent.customer_id !== customerId) throw notFound(`Payment intent ${paymentIntentId}`);
    const sources = await this.listPaymentSources(customerId);
    const source = sources.find((entry) => entry.referenceId === payment_intent.reference_id);
    return paymentIntentOf(payment_intent, source?.id ?? "", paymentAuthenticationUrl(payment_intent.id));
  }

  /**
   * A call that charges the customer's card now, naming the payment intent the cardholder authorized when there is
   * one. Chargebee refuses an intent it will not spend as payment_intent_invalid whatever the reason; one that
   * expired is told apart by reading it, so the job makes a new one instead of giving up.
   */
  private async charge<T>(
    customerId: string,
    paymentIntentId: string | undefined,
    operation: string,
    request: (chargebee: Chargebee) => Promise<T>,
  ): Promise<T> {
    try {
      return await this.call(operation, true, request);
    } catch (error) {
      if (!(paymentIntentId && error instanceof ProviderError && error.code === PAYMENT_INTENT_INVALID)) throw error;
      const intent = await this.retrievePaymentIntent(customerId, paymentIntentId).catch(() => null);
      if (intent?.status === "expired") throw refused(PAYMENT_INTENT_EXPIRED_MESSAGE, PAYMENT_INTENT_EXPIRED, "card");
      throw error;
    }
  }

  async findSubscriptionByKey(customerId: string, idempotencyKey: string) {
    const made = await this.find(
      "subscription.list",
      (cb, offset) => cb.subscription.list({ limit: PAGE_SIZE, offset, customer_id: { is: customerId } }),
      (entry) => (entry.subscription.meta_data as { order_key?: string } | undefined)?.order_key === idempotencyKey,
    );
    return made ? subscriptionOf(made.subscription) : null;
  }

  async estimateSubscriptionUpdate(customerId: string, subscriptionId: string, change: SubscriptionChange) {
    // Read first: Chargebee renews a subscription whose term ended before it answers, so the estimate
    // prorates against the current term, and the credits it issues add to the balance read here.
    const current = await this.retrieveSubscription(customerId, subscriptionId);
    const customer = await this.retrieveCustomer(customerId);
    const changeParams = await this.changeParams(change);
    const { estimate } = await this.call("estimate.update_subscription", false, (cb) =>
      cb.estimate.updateSubscription({
        ...changeParams,
        subscription: { id: subscriptionId, plan_id: change.planId, plan_quantity: change.planQuantity },
        use_existing_balances: true,
      }),
    );
    const renewal = await this.renewalOf(estimate, change.planId, change.planQuantity, change.addons ?? current.addons);
    return estimateOf(estimate, renewal, customer.creditBalance);
  }

  async updateSubscription(
    customerId: string,
    subscriptionId: string,
    update: SubscriptionUpdate,
    idempotencyKey: string,
  ) {
    await this.retrieveSubscription(customerId, subscriptionId);
    const changeParams = await this.changeParams(update);
    const { subscription } = await this.charge(customerId, update.paymentIntentId, "subscription.update", (cb) =>
      cb.subscription.update(
        subscriptionId,
        {
          ...changeParams,
          plan_id: update.planId,
          plan_quantity: update.planQuantity,
          billing_address: update.billingAddress ? toChargebeeAddress(update.billingAddress) : undefined,
          shipping_address: update.shippingAddress ? toChargebeeAddress(update.shippingAddress) : undefined,
          po_number: update.poNumber,
          payment_intent: intentParam(update.paymentIntentId),
        },
        idempotent(chargeKey(idempotencyKey, update.paymentIntentId)),
      ),
    );
    return subscriptionOf(subscription);
  }

  async overrideBillingProfile(
    customerId: string,
    subscriptionId: string,
    profile: { paymentSourceId: string; autoCollection: boolean },
  ) {
    await this.retrieveSubscription(customerId, subscriptionId);
    await this.ownPaymentSource(customerId, profile.paymentSourceId);
    const { subscription } = await this.call("subscription.override_billing_profile", true, (cb) =>
      cb.subscription.overrideBillingProfile(subscriptionId, {
        payment_source_id: profile.paymentSourceId,
        auto_collection: profile.autoCollection ? "on" : "off",
      }),
    );
    return subscriptionOf(subscription);
  }

  async createHardwareInvoice(order: HardwareOrder, idempotencyKey: string) {
    const addons = await this.items(hardwareCharges(order.hardware));
    const { invoice } = await this.charge(order.customerId, order.paymentIntentId, "invoice.create", (cb) =>
      cb.invoice.create(
        {
          customer_id: order.customerId,
          auto_collection: "on",
          payment_source_id: order.paymentSourceId,
          addons,
          shipping_address: order.shippingAddress ? toChargebeeAddress(order.shippingAddress) : undefined,
          // The invoice keeps the key Chargebee got (its purchase order number), so findInvoiceByKey finds it
          // after Chargebee has forgotten the key itself.
          po_number: chargebeeKey(idempotencyKey),
          payment_intent: intentParam(order.paymentIntentId),
        },
        idempotent(chargeKey(idempotencyKey, order.paymentIntentId)),
      ),
    );
    return invoiceOf(invoice);
  }

  async findInvoiceByKey(customerId: string, idempotencyKey: string) {
    const poNumber = chargebeeKey(idempotencyKey);
    // Hardware invoices belong to no subscription; the newest come first.
    const made = await this.find(
      "invoice.list",
      (cb, offset) =>
        cb.invoice.list({
          limit: PAGE_SIZE,
          offset,
          customer_id: { is: customerId },
          recurring: { is: false },
          "sort_by[desc]": "date",
        }),
      (entry) => entry.invoice.po_number === poNumber,
    );
    return made ? invoiceOf(made.invoice) : null;
  }

  async listInvoices(customerId: string, filter: { subscriptionId?: string } = {}) {
    const list = await this.all("invoice.list", (cb, offset) =>
      cb.invoice.list({
        limit: PAGE_SIZE,
        offset,
        customer_id: { is: customerId },
        subscription_id: filter.subscriptionId === undefined ? undefined : { is: filter.subscriptionId },
        "sort_by[desc]": "date",
      }),
    );
    return list.map((entry) => invoiceOf(entry.invoice));
  }

  async retrieveInvoice(customerId: string, invoiceId: string) {
    const { invoice } = await this.call("invoice.retrieve", false, (cb) => cb.invoice.retrieve(invoiceId));
    if (invoice.customer_id !== customerId) throw notFound(`Invoice ${invoiceId}`);
    return invoiceOf(invoice);
  }

  async invoicePdf(customerId: string, invoiceId: string, revision?: number) {
    await this.retrieveInvoice(customerId, invoiceId);
    // Chargebee keeps only the current document of a corrected invoice.
    if (revision !== undefined) throw notFound(`Revision ${revision} of invoice ${invoiceId}`);
    // Making the download address changes nothing at Chargebee: safe to ask again.
    const { download } = await this.call("invoice.pdf", false, (cb) =>
      cb.invoice.pdf(invoiceId, { disposition_type: "attachment" }),
    );
    return { kind: "url" as const, url: download.download_url, expiresAt: new Date(download.valid_till * 1000) };
  }

  /**
   * update_details: Chargebee changes the invoice's billing address, VAT number and PO number and makes its document
   * anew, under the same number, only where the tax stays as it was; it refuses the rest, which needs a credit note.
   * A country is never changed this way (it decides the tax), so that is refused before asking. Every field is sent:
   * like update_billing_info, the call replaces the invoice's billing address as a whole.
   */
  async correctInvoice(customerId: string, invoiceId: string, correction: InvoiceCorrection, idempotencyKey: string) {
    const current = await this.retrieveInvoice(customerId, invoiceId);
    const issuedCountry = current.billedTo?.address?.country;
    if (issuedCountry && issuedCountry !== correction.billingAddress.country) {
      throw refused(
        `The country of invoice ${invoiceId} cannot be changed: that changes its tax.`,
        CREDIT_NOTE_REQUIRED,
        "country",
      );
    }
    try {
      const { invoice } = await this.call("invoice.update_details", true, (cb) =>
        cb.invoice.updateDetails(
          invoiceId,
          {
            billing_address: toChargebeeAddress({ ...correction.billingAddress, company: correction.company }),
            vat_number: correction.vatNumber ?? undefined,
            po_number: correction.poNumber ?? undefined,
          },
          idempotent(idempotencyKey),
        ),
      );
      return invoiceOf(invoice);
    } catch (error) {
      // What update_details refuses is what changes the invoice's tax.
      if (error instanceof ProviderError && error.kind === "final" && error.code !== "not_found") {
        throw refused(`Chargebee would not correct invoice ${invoiceId}: ${error.message}`, CREDIT_NOTE_REQUIRED);
      }
      throw error;
    }
  }

  async listInvoiceRevisions(customerId: string, invoiceId: string) {
    await this.retrieveInvoice(customerId, invoiceId);
    return [];
  }

  /**
   * An invoice's collect_payment takes no payment intent, so a payment the cardholder authenticated is collected by
   * the customer's collect_payment, which does, allocated to this invoice alone (its whole amount due, as Chargebee
   * collects by default); the invoice is then read back.
   */
  async collectPayment(
    customerId: string,
    invoiceId: string,
    paymentSourceId: string,
    idempotencyKey: string,
    paymentIntentId?: string,
  ) {
    await this.retrieveInvoice(customerId, invoiceId);
    await this.ownPaymentSource(customerId, paymentSourceId);
    if (!paymentIntentId) {
      const { invoice } = await this.call("invoice.collect_payment", true, (cb) =>
        cb.invoice.collectPayment(invoiceId, { payment_source_id: paymentSourceId }, idempotent(idempotencyKey)),
      );
      return invoiceOf(invoice);
    }
    await this.charge(customerId, paymentIntentId, "customer.collect_payment", (cb) =>
      cb.customer.collectPayment(
        customerId,
        {
          payment_source_id: paymentSourceId,
          payment_intent: { id: paymentIntentId },
          invoice_allocations: [{ invoice_id: invoiceId }],
        },
        idempotent(chargeKey(idempotencyKey, paymentIntentId)),
      ),
    );
    return this.retrieveInvoice(customerId, invoiceId);
  }

  async findInvoicePayment(customerId: string, invoiceId: string) {
    const invoice = await this.retrieveInvoice(customerId, invoiceId);
    return invoice.status === "paid" ? invoice : null;
  }

  async cancelSubscriptionAtTermEnd(customerId: string, subscriptionId: string, idempotencyKey: string) {
    const current = await this.retrieveSubscription(customerId, subscriptionId);
    if (current.status === "non_renewing") return current;
    // Product Catalog 1.0: end_of_term leaves the subscription non_renewing until its term ends.
    const { subscription } = await this.call("subscription.cancel", true, (cb) =>
      cb.subscription.cancel(subscriptionId, { end_of_term: true }, idempotent(idempotencyKey)),
    );
    return subscriptionOf(subscription);
  }

  async removeScheduledCancellation(customerId: string, subscriptionId: string, idempotencyKey: string) {
    const current = await this.retrieveSubscription(customerId, subscriptionId);
    // Nothing scheduled, nothing to remove; Chargebee itself refuses a cancelled subscription.
    if (current.status !== "non_renewing" && current.status !== "cancelled") return current;
    const { subscription } = await this.call("subscription.remove_scheduled_cancellation", true, (cb) =>
      cb.subscription.removeScheduledCancellation(subscriptionId, {}, idempotent(idempotencyKey)),
    );
    return subscriptionOf(subscription);
  }

  async listEvents({ since, limit, pageToken }: EventQuery) {
    const { list, next_offset } = await this.call("event.list", false, (cb) =>
      cb.event.list({
        limit: eventPageSize(limit),
        offset: pageToken,
        // Chargebee's filter is strictly after, in seconds: the second before `since` takes in all of its second.
        occurred_at: { after: seconds(since) - 1 },
        "sort_by[asc]": "occurred_at",
      }),
    );
    return { events: list.map((entry) => eventOf(entry.event)), nextPageToken: next_offset ?? null };
  }

  private profileParams(profile: CustomerProfile) {
    const { firstName, lastName, email, phone, company } = profile;
    return { first_name: firstName, last_name: lastName, email, phone, company };
  }

  private subscriptionParams(request: NewSubscriptionEstimateRequest) {
    return { plan_id: request.planId, plan_quantity: request.planQuantity, start_date: futureStart(request.startDate) };
  }

  /** What a plan change sends in both its estimate and the update itself. */
  private async changeParams(change: SubscriptionChange) {
    return {
      replace_addon_list: change.addons !== undefined,
      addons: change.addons ? await this.items(ordered(change.addons)) : undefined,
      coupon_ids: change.couponIds?.length ? change.couponIds : undefined,
      invoice_immediately: true,
      prorate: true,
    };
  }

  private async ownPaymentSource(customerId: string, paymentSourceId: string) {
    const { payment_source } = await this.call("payment_source.retrieve", false, (cb) =>
      cb.paymentSource.retrieve(paymentSourceId),
    );
    if (payment_source.customer_id !== customerId) throw notFound(`Payment source ${paymentSourceId}`);
    return payment_source;
  }
}

/**
 * What Chargebee said when no customer is shown it (everything but a card's decline reason), as one JSON line
 * on stderr, so an operator sees the parameter or site problem behind the page's general message. A missing
 * resource is not logged: the adapter asks for customers that do not exist yet on purpose.
 */
function logWithheld(operation: string, error: ProviderError, failure: unknown) {
  if (error.providerMessage !== undefined || error.code === "not_found") return;
  const said = typeof failure === "object" && failure !== null && !(failure instanceof Error);
  if (!said) return;
  const { message, api_error_code: code, param, http_status_code: status } = failure as Record<string, unknown>;
  logger.warn({ event: "chargebee-refused", operation, status, code, param }, String(message));
}

export function createChargebeeBilling(options: ChargebeeOptions): BillingProvider {
  return new ChargebeeBilling(options);
}
