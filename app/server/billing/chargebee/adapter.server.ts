import Chargebee, { type Estimate as ChargebeeEstimate } from "chargebee";
import { INVALID_CUSTOMER_ID, parseGatewayReference } from "~/server/providers/card-gateway.server";
import { addonOf, couponOf, planOf } from "../catalogue.server";
import { ProviderError } from "~/server/providers/errors.server";
import { notFound, refused } from "../errors.server";
import { hardwareCharges, oneTimeCharges, ordered, type OneTimeCharge } from "../orders.server";
import type {
  Address,
  BillingProvider,
  CustomerProfile,
  HardwareOrder,
  ItemQuantity,
  NewPaymentSource,
  NewSubscriptionEstimateRequest,
  NewSubscriptionRequest,
  SubscriptionChange,
  SubscriptionUpdate,
} from "../port.server";
import {
  billingErrorOf,
  customerOf,
  estimateOf,
  invoiceOf,
  paymentSourceOf,
  seconds,
  subscriptionOf,
  toChargebeeAddress,
} from "./mapping.server";

export interface ChargebeeOptions {
  site: string;
  apiKey: string;
  /** The card gateway (Stripe) account in Chargebee that stores the cards. */
  gatewayAccountId: string;
  /** Another API host, e.g. a local fake in tests: the host is site + hostSuffix. */
  endpoint?: { protocol: "http" | "https"; hostSuffix: string; port: number };
  timeoutMs?: number;
}

const idempotent = (key: string) => ({ "chargebee-idempotency-key": key });

/** Chargebee's event-based add-on: a one-time charge on the subscription's creation. */
const onCreation = (charge: OneTimeCharge) => ({
  id: charge.id,
  quantity: charge.quantity,
  unit_price: charge.unitPrice,
  on_event: "subscription_creation" as const,
  charge_once: true,
  charge_on: "on_event" as const,
});

/**
 * The SDK serializes a nested object in a GET query wrongly (each key nests under the previous one),
 * so the query is given flat, Chargebee's own `subscription[plan_id]` form.
 */
function flatQuery(params: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(params).flatMap(([key, value]) =>
      value !== null && typeof value === "object" && !Array.isArray(value)
        ? Object.entries(value).map(([field, inner]) => [`${key}[${field}]`, inner])
        : [[key, value]],
    ),
  );
}

/**
 * The billing port on Chargebee's API (Product Catalog 1.0) through the official SDK. Each call maps
 * Chargebee's failure to a BillingError; ownership is checked on every id the caller passes in.
 */
class ChargebeeBilling implements BillingProvider {
  readonly name = "chargebee";
  private readonly chargebee: Chargebee;

  constructor(private readonly options: ChargebeeOptions) {
    this.chargebee = new Chargebee({
      site: options.site,
      apiKey: options.apiKey,
      timeout: options.timeoutMs,
      ...options.endpoint,
    });
  }

  private async call<T>(operation: string, writes: boolean, request: (chargebee: Chargebee) => Promise<T>): Promise<T> {
    try {
      return await request(this.chargebee);
    } catch (failure) {
      throw billingErrorOf(operation, writes, failure);
    }
  }

  async listPlans() {
    const { list } = await this.call("plan.list", false, (cb) =>
      cb.plan.list({ limit: 100, status: { is: "active" } }),
    );
    return list.map((entry) => planOf(entry.plan));
  }

  async listAddons() {
    const { list } = await this.call("addon.list", false, (cb) =>
      cb.addon.list({ limit: 100, status: { is: "active" } }),
    );
    return list.map((entry) => addonOf(entry.addon));
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

  async updateBillingInfo(customerId: string, billingAddress: Address) {
    const { customer } = await this.call("customer.update_billing_info", true, (cb) =>
      cb.customer.updateBillingInfo(customerId, { billing_address: toChargebeeAddress(billingAddress) }),
    );
    return customerOf(customer);
  }

  async listPaymentSources(customerId: string) {
    const { list } = await this.call("payment_source.list", false, (cb) =>
      cb.paymentSource.list({ customer_id: { is: customerId }, limit: 100 }),
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
    const params = {
      invoice_immediately: true,
      coupon_ids: request.couponIds?.length ? request.couponIds : undefined,
      subscription: this.subscriptionParams(request),
      addons: ordered(request.addons),
      event_based_addons: oneTimeCharges(request).map(onCreation),
      shipping_address: request.shippingAddress ? toChargebeeAddress(request.shippingAddress) : undefined,
    };
    const { customerId } = request;
    const creditBalance = customerId ? (await this.retrieveCustomer(customerId)).creditBalance : 0;
    const { estimate } = await this.call("estimate.create_subscription_estimate", false, (cb) =>
      customerId
        ? // The flat query has the same parameters in the form the SDK cannot produce itself (see flatQuery).
          cb.estimate.createSubForCustomerEstimate(
            customerId,
            flatQuery({
              ...params,
              use_existing_balances: true,
            }) as ChargebeeEstimate.CreateSubForCustomerEstimateInputParam,
          )
        : // Before the customer exists (their first order's Review), the estimate is made without one.
          cb.estimate.createSubscription(params),
    );
    const renewal = await this.renewalAmount(request.planId, request.planQuantity, request.addons);
    return estimateOf(estimate, renewal, creditBalance);
  }

  async createSubscription(request: NewSubscriptionRequest, idempotencyKey: string) {
    const { subscription } = await this.call("subscription.create_for_customer", true, (cb) =>
      cb.subscription.createForCustomer(
        request.customerId,
        {
          ...this.subscriptionParams(request),
          auto_collection: "on",
          payment_source_id: request.paymentSourceId,
          coupon_ids: request.couponIds,
          addons: ordered(request.addons),
          event_based_addons: oneTimeCharges(request).map(onCreation),
          shipping_address: request.shippingAddress ? toChargebeeAddress(request.shippingAddress) : undefined,
          invoice_immediately: true,
          // The key again, readable: findSubscriptionByKey looks for it after a call whose outcome was unknown.
          meta_data: { license_assignment: request.licenseAssignment, order_key: idempotencyKey },
        },
        idempotent(idempotencyKey),
      ),
    );
    return subscriptionOf(subscription);
  }

  async findSubscriptionByKey(customerId: string, idempotencyKey: string) {
    const { list } = await this.call("subscription.list", false, (cb) =>
      cb.subscription.list({ limit: 100, customer_id: { is: customerId } }),
    );
    const made = list.find(
      (entry) => (entry.subscription.meta_data as { order_key?: string } | undefined)?.order_key === idempotencyKey,
    );
    return made ? subscriptionOf(made.subscription) : null;
  }

  async estimateSubscriptionUpdate(customerId: string, subscriptionId: string, change: SubscriptionChange) {
    // Read first: Chargebee renews a subscription whose term ended before it answers, so the estimate
    // prorates against the current term, and the credits it issues add to the balance read here.
    const current = await this.retrieveSubscription(customerId, subscriptionId);
    const customer = await this.retrieveCustomer(customerId);
    const { estimate } = await this.call("estimate.update_subscription", false, (cb) =>
      cb.estimate.updateSubscription({
        ...this.changeParams(change),
        subscription: { id: subscriptionId, plan_id: change.planId, plan_quantity: change.planQuantity },
        use_existing_balances: true,
      }),
    );
    const addons = change.addons ?? current.addons;
    const renewal = await this.renewalAmount(change.planId, change.planQuantity, addons);
    return estimateOf(estimate, renewal, customer.creditBalance);
  }

  async updateSubscription(
    customerId: string,
    subscriptionId: string,
    update: SubscriptionUpdate,
    idempotencyKey: string,
  ) {
    await this.retrieveSubscription(customerId, subscriptionId);
    const { subscription } = await this.call("subscription.update", true, (cb) =>
      cb.subscription.update(
        subscriptionId,
        {
          ...this.changeParams(update),
          plan_id: update.planId,
          plan_quantity: update.planQuantity,
          billing_address: update.billingAddress ? toChargebeeAddress(update.billingAddress) : undefined,
          shipping_address: update.shippingAddress ? toChargebeeAddress(update.shippingAddress) : undefined,
        },
        idempotent(idempotencyKey),
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
    const charges = hardwareCharges(order.hardware);
    const { invoice } = await this.call("invoice.create", true, (cb) =>
      cb.invoice.create(
        {
          customer_id: order.customerId,
          auto_collection: "on",
          payment_source_id: order.paymentSourceId,
          addons: charges.map((charge) => ({ id: charge.id, quantity: charge.quantity, unit_price: charge.unitPrice })),
          shipping_address: order.shippingAddress ? toChargebeeAddress(order.shippingAddress) : undefined,
        },
        idempotent(idempotencyKey),
      ),
    );
    return invoiceOf(invoice);
  }

  private profileParams(profile: CustomerProfile) {
    const { firstName, lastName, email, phone, company } = profile;
    return { first_name: firstName, last_name: lastName, email, phone, company };
  }

  private subscriptionParams(request: NewSubscriptionEstimateRequest) {
    return {
      plan_id: request.planId,
      plan_quantity: request.planQuantity,
      start_date: request.startDate ? seconds(request.startDate) : undefined,
    };
  }

  /** What a plan change sends in both its estimate and the update itself. */
  private changeParams(change: SubscriptionChange) {
    return {
      replace_addon_list: change.addons !== undefined,
      addons: change.addons ? ordered(change.addons) : undefined,
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
  }

  /** What the plan and recurring add-ons charge per full period, from Chargebee's own prices. */
  private async renewalAmount(planId: string, quantity: number, addons: ItemQuantity[] | undefined) {
    const [plans, addonList] = await Promise.all([this.listPlans(), this.listAddons()]);
    const priceOf = (id: string, items: { id: string; price: number }[]) =>
      items.find((item) => item.id === id)?.price ?? 0;
    return ordered(addons).reduce(
      (amount, addon) => amount + priceOf(addon.id, addonList) * addon.quantity,
      priceOf(planId, plans) * quantity,
    );
  }
}

export function createChargebeeBilling(options: ChargebeeOptions): BillingProvider {
  return new ChargebeeBilling(options);
}
