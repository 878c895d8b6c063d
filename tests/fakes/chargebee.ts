import { asc, eq, sql } from "drizzle-orm";
import { z } from "zod";
import { shippingCharge, SHIPPING_ADDON_ID } from "~/domain/shipping";
import { catalogue } from "~/server/billing/catalogue.server";
import {
  addressOf as chargebeeAddressOf,
  seconds,
  toChargebeeAddress,
} from "~/server/billing/chargebee/mapping.server";
import { createChargebeeBilling } from "~/server/billing/chargebee/adapter.server";
import { notFound, refused } from "~/server/billing/errors.server";
import { answerSetup } from "~/server/providers/card-vault.server";
import { ProviderError } from "~/server/platform/provider-errors.server";
import { createLocalBilling } from "~/server/billing/local/engine.server";
import { createTaxIdSimulator } from "~/server/tax-ids/simulator/simulator.server";
import { countryOfVatNumber } from "~/domain/tax-ids";
import type { EmbeddedStore } from "~/server/providers/embedded.server";
import {
  AUTHENTICATION_REQUIRED,
  PAYMENT_INTENT_EXPIRED,
  PAYMENT_INTENT_INVALID,
  type Address,
  type Customer,
  type Estimate,
  type Invoice,
  type InvoiceTotals,
  type ItemQuantity,
  type PaymentIntent,
  type PaymentSource,
  type ProviderEvent,
  type Subscription,
  type VatNumberStatus,
} from "~/server/billing/port.server";
import priceList from "~db/catalogue.json";
import {
  billingCustomers,
  billingInvoices,
  billingPaymentSources,
  billingSubscriptions,
} from "~/server/platform/database/tables.server";
import { formBoolean, formNumber, startFake, type FakeRequest, type FakeResponse } from "./http";

/**
 * A wire-level fake of Chargebee's API v2 (Product Catalog 1.0) for the calls the portal makes, as strict as
 * Chargebee: it refuses, with Chargebee's error shape and code, what a real site refuses (each rule below says
 * which Chargebee behaviour it mirrors), then serves the request from the embedded billing engine, so the
 * contract suite holds the Chargebee adapter to exactly the engine's behaviour. Every refused request is also
 * collected in `refusals` for the test to assert on. The idempotency window runs on the clock the test gives.
 */

export const FAKE_SITE = "127.0.0.1";
export const FAKE_API_KEY = "test_fake_chargebee_key";
export const FAKE_GATEWAY_ACCOUNT_ID = "gw_fake_stripe";

/** Chargebee replays a key's first answer for 30 minutes (its documented idempotency window). */
export const IDEMPOTENCY_WINDOW_MS = 30 * 60_000;
/** Chargebee takes idempotency keys of at most 100 characters. */
const MAX_KEY_LENGTH = 100;
/** Chargebee's largest page; a list says where the next page starts in `next_offset`. */
const MAX_PAGE = 100;

export interface RecordedRequest {
  method: string;
  path: string;
  params: Record<string, unknown>;
  idempotencyKey: string | undefined;
}

const text = z.string();
const address = z
  .object({
    first_name: text,
    last_name: text,
    email: text,
    company: text,
    phone: text,
    line1: text,
    line2: text,
    line3: text,
    city: text,
    state: text,
    state_code: text,
    zip: text,
    country: text,
  })
  .partial()
  .strict();
type AddressParams = z.infer<typeof address>;
/** The estimate endpoints' shipping address has no name, company, email, phone or state name. */
const estimateAddress = address.pick({
  line1: true,
  line2: true,
  line3: true,
  city: true,
  state_code: true,
  zip: true,
  country: true,
});
/** An add-on of an order; whether it may carry a quantity depends on its type (see onOffQuantity). */
const item = z.object({ id: text, quantity: formNumber.optional() }).strict();
const pricedItem = item.extend({ unit_price: formNumber.optional() }).strict();
type ItemParams = z.infer<typeof pricedItem>;
const eventBasedAddon = pricedItem
  .extend({
    on_event: z.literal("subscription_creation"),
    charge_once: z.literal("true"),
    charge_on: z.literal("on_event"),
  })
  .strict();
const none = z.object({}).strict();
const page = { limit: formNumber.pipe(z.number().min(1).max(MAX_PAGE)), offset: text.optional() };
const listQuery = z.object({ ...page, status: z.object({ is: z.literal("active") }).strict() }).strict();
const ofCustomer = z.object({ is: text }).strict();
const plan = z.object({ plan_id: text, plan_quantity: formNumber, start_date: formNumber.optional() }).strict();
const order = z
  .object({
    coupon_ids: z.array(text).optional(),
    addons: z.array(item).optional(),
    event_based_addons: z.array(eventBasedAddon).optional(),
    invoice_immediately: z.literal("true"),
  })
  .strict();
const planChange = z
  .object({
    replace_addon_list: formBoolean,
    addons: z.array(item).optional(),
    coupon_ids: z.array(text).optional(),
    invoice_immediately: z.literal("true"),
    prorate: z.literal("true"),
  })
  .strict();
/** A charge's payment intent: Chargebee.js's intent by its id (the gateway's own token is for Stripe.js flows). */
const paymentIntent = z.object({ id: text }).strict();
const profile = z.object({ first_name: text, last_name: text, email: text, phone: text, company: text }).strict();
const newSource = z
  .object({
    customer_id: text,
    type: z.literal("card"),
    gateway_account_id: z.literal(FAKE_GATEWAY_ACCOUNT_ID),
    replace_primary_payment_source: formBoolean,
  })
  .strict();

interface Route {
  method: "GET" | "POST";
  path: RegExp;
  /** Creating calls must carry the chargebee-idempotency-key header (the portal's own rule: never charge twice). */
  idempotent: boolean;
  parse(params: unknown): z.SafeParseReturnType<unknown, unknown>;
  handle(params: unknown, match: string[], key: string): Promise<unknown>;
}

/** A route whose handler gets the parameters as its schema parsed them. */
function route<S extends z.ZodTypeAny>(
  method: Route["method"],
  path: RegExp,
  params: S,
  handle: (params: z.infer<S>, match: string[], key: string) => Promise<unknown>,
  idempotent = false,
): Route {
  return {
    method,
    path,
    idempotent,
    parse: (raw) => params.safeParse(raw),
    handle: (parsed, match, key) => handle(parsed, match, key),
  };
}

/** A response the test has the fake give instead of the one it would (after serving the request, when `served`). */
interface CannedAnswer {
  response: FakeResponse;
  method?: string;
  path?: string;
  served?: boolean;
}

/** A key's first use: when, with what request, and what was answered (only a success is replayed). */
interface KeyUse {
  at: number;
  request: string;
  answer?: FakeResponse;
}

/** The portal's answer to a request Chargebee would refuse, as Chargebee's error body. */
class Refusal extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly code: string,
    readonly param?: string,
  ) {
    super(message);
  }
}

export async function startChargebeeFake({ store, now }: { store: EmbeddedStore; now: () => Date }) {
  const engine = createLocalBilling({ store, now });
  /** Chargebee checks a customer's VAT number with VIES itself; the fake asks the embedded register. */
  const register = createTaxIdSimulator({ store, now });
  const vatNumberStatusOf = async (vatNumber: string | undefined): Promise<VatNumberStatus> => {
    const country = vatNumber ? countryOfVatNumber(vatNumber) : null;
    if (!vatNumber || !country) return "unchecked";
    const check = await register.check({ country, vatNumber }).catch(() => null);
    return check?.result === "valid" || check?.result === "invalid" ? check.result : "unchecked";
  };
  const requests: RecordedRequest[] = [];
  const refusals: string[] = [];
  const keys = new Map<string, KeyUse>();
  /** What Chargebee keeps as sent and the engine does not: a subscription's meta_data, an invoice's PO number. */
  const metaData = new Map<string, Record<string, unknown>>();
  const poNumbers = new Map<string, string>();
  /** Credits the business granted (promotional) or the customer overpaid (excess payments), by customer. */
  const granted = new Map<string, { promotional: number; excess: number }>();
  /** The payment intents made, with what Chargebee keeps of them and the engine does not. */
  const intents = new Map<string, { customerId: string; referenceId: string; createdAt: number }>();
  let nextResponse: CannedAnswer | undefined;

  /** Chargebee serves any object on the site; the engine wants its owner, which the fake looks up. */
  const ownerOf = async (
    table: typeof billingSubscriptions | typeof billingPaymentSources | typeof billingInvoices,
    id: string,
  ) => {
    const [row] = await store.select({ customerId: table.customerId }).from(table).where(eq(table.id, id));
    return row?.customerId ?? "";
  };
  const sourceOf = async (id: string) => {
    const source = (await engine.listPaymentSources(await ownerOf(billingPaymentSources, id))).find((s) => s.id === id);
    if (!source) throw notFound(`Payment source ${id}`);
    return source;
  };
  /** A subscription as Chargebee gives it, with the meta_data it was sent. */
  const keptSubscriptionJson = (subscription: Subscription) => {
    const json = subscriptionJson(subscription);
    return { ...json, meta_data: { ...json.meta_data, ...metaData.get(subscription.id) } };
  };
  const subscriptionJsonOf = async (customerId: string, id: string) =>
    keptSubscriptionJson(await engine.retrieveSubscription(customerId, id));
  /**
   * The engine keeps one balance, which pays the next invoices first, as Chargebee uses all three kinds of
   * credit; the customer's grants are reported as promotional credits and excess payments, the rest (credit
   * notes) as refundable credits.
   */
  const customerJsonOf = (customer: Customer) => {
    const grant = granted.get(customer.id) ?? { promotional: 0, excess: 0 };
    const promotional = Math.min(grant.promotional, customer.creditBalance);
    const excess = Math.min(grant.excess, customer.creditBalance - promotional);
    return {
      ...customerJson(customer),
      refundable_credits: customer.creditBalance - promotional - excess,
      promotional_credits: promotional,
      excess_payments: excess,
    };
  };
  const invoiceJsonOf = (invoice: Invoice) => ({
    ...invoiceJson(invoice),
    po_number: poNumbers.get(invoice.id) ?? invoice.poNumber ?? undefined,
  });

  /**
   * An engine's event as Chargebee's (its events list and its webhooks): the engine records Chargebee's event
   * types, and its snapshots become the content's resources. A payment's events carry its transaction.
   */
  const eventJson = (event: ProviderEvent) => ({
    id: event.id,
    occurred_at: seconds(event.occurredAt),
    source: "system",
    object: "event",
    api_version: "v2",
    event_type: event.providerType,
    webhook_status: webhooks.target ? "scheduled" : "not_configured",
    content: {
      // The portal reads only the customer's id of an event.
      customer: event.customerId ? { id: event.customerId, object: "customer" } : undefined,
      subscription: event.subscription ? keptSubscriptionJson(event.subscription) : undefined,
      invoice: event.invoice ? invoiceJsonOf(event.invoice) : undefined,
      payment_source: event.paymentSource ? sourceJson(event.paymentSource) : undefined,
      transaction:
        event.invoice && (event.providerType === "payment_succeeded" || event.providerType === "payment_failed")
          ? transactionJson(event.invoice, event.providerType === "payment_succeeded" ? "success" : "failure")
          : undefined,
    },
  });

  /** A payment intent as Chargebee gives it; the engine keeps its amount, card and state. */
  const intentJsonOf = async (id: string) => {
    const kept = intents.get(id);
    if (!kept) throw notFound(`Payment intent ${id}`);
    return paymentIntentJson(await engine.retrievePaymentIntent(kept.customerId, id), kept);
  };

  /**
   * Chargebee spends a payment intent on a charge only when it is the customer's and authorized, not consumed and not
   * expired, and of the charge's amount; otherwise the charge is refused with a payment error, nothing charged. A
   * card whose bank asks is refused without one, as the gateway declines it (errorOf).
   */
  async function spending<T>(customerId: string, intent: { id: string } | undefined, charge: () => Promise<T>) {
    if (intent && intents.get(intent.id)?.customerId !== customerId) {
      throw refused(`Payment intent ${intent.id} is not the customer's.`, PAYMENT_INTENT_INVALID);
    }
    const { status } = intent ? await engine.retrievePaymentIntent(customerId, intent.id) : { status: null };
    if (intent && status !== "authorized")
      throw refused(`Payment intent ${intent.id} is ${status}.`, PAYMENT_INTENT_INVALID);
    try {
      return await charge();
    } catch (error) {
      // Authorized and still unspent after the engine refused it: the intent was for another amount.
      const unspent = intent && (await engine.retrievePaymentIntent(customerId, intent.id)).status === "authorized";
      if (unspent && error instanceof ProviderError && error.code === PAYMENT_INTENT_INVALID) {
        throw refused("The payment intent's amount does not match the amount to be charged.", INTENT_AMOUNT_MISMATCH);
      }
      throw error;
    }
  }

  /**
   * Chargebee refuses a past start date unless backdating is enabled on the site (off by default): 'Subscription
   * start date cannot be before the billing period'. The adapter must send a start date only when it is ahead.
   */
  function refusePastStart(startDate: number | undefined, param: string) {
    if (startDate !== undefined && startDate < seconds(now())) {
      throw new Refusal(400, "Subscription start date cannot be before the billing period", "param_wrong_value", param);
    }
  }

  const routes: Route[] = [
    // The engine answers (and can be made to fail); Chargebee's entries are the price list's own.
    route("GET", /^\/api\/v2\/plans$/, listQuery, async (params) =>
      listPage(
        (await engine.listPlans()).map(({ id }) => ({ plan: priceList.plans.find((entry) => entry.id === id) })),
        params,
      ),
    ),
    route("GET", /^\/api\/v2\/addons$/, listQuery, async (params) =>
      listPage(
        (await engine.listAddons()).map(({ id }) => ({ addon: priceList.addons.find((entry) => entry.id === id) })),
        params,
      ),
    ),
    route("GET", /^\/api\/v2\/coupons\/([^/]+)$/, none, async (_params, [code]) => {
      await engine.retrieveCoupon(code);
      return { coupon: priceList.coupons.find((coupon) => coupon.id === code) };
    }),
    route(
      "POST",
      /^\/api\/v2\/customers$/,
      profile.extend({ id: text }).strict(),
      async ({ id, ...fields }, _match, key) => {
        // Chargebee refuses a customer id already on the site: 400 duplicate_entry on `id`.
        if ((await store.select().from(billingCustomers).where(eq(billingCustomers.id, id))).length > 0) {
          throw new Refusal(400, `id : The value ${id} is already present.`, "duplicate_entry", "id");
        }
        return { customer: customerJsonOf(await engine.ensureCustomer(id, profileOf(fields), key)) };
      },
      true,
    ),
    route("GET", /^\/api\/v2\/customers\/([^/]+)$/, none, async (_params, [id]) => ({
      customer: customerJsonOf(await engine.retrieveCustomer(id)),
    })),
    route("POST", /^\/api\/v2\/customers\/([^/]+)$/, profile, async (fields, [id]) => ({
      customer: customerJsonOf(await engine.updateCustomer(id, profileOf(fields))),
    })),
    // Chargebee's update_billing_info is an assignment: every billing field the call leaves out is removed (the
    // VAT number, and each part of the address), as here, so a call that sends only the address wipes the number.
    route(
      "POST",
      /^\/api\/v2\/customers\/([^/]+)\/update_billing_info$/,
      z.object({ billing_address: address.optional(), vat_number: text.max(20).optional() }).strict(),
      async ({ billing_address, vat_number }, [id]) => ({
        customer: customerJsonOf(
          await engine.updateBillingInfo(id, {
            billingAddress: addressOf(billing_address ?? {}),
            vatNumber: vat_number ?? null,
            vatNumberStatus: await vatNumberStatusOf(vat_number),
          }),
        ),
      }),
    ),
    route("POST", /^\/api\/v2\/customers\/([^/]+)\/delete$/, none, async (_params, [id]) => {
      const customer = customerJsonOf(await engine.retrieveCustomer(id));
      // Deleting a customer takes its subscriptions, cards and invoices with it (on a test site).
      await store.delete(billingCustomers).where(eq(billingCustomers.id, id));
      return { customer: { ...customer, deleted: true } };
    }),
    route(
      "GET",
      /^\/api\/v2\/payment_sources$/,
      z.object({ ...page, customer_id: ofCustomer }).strict(),
      async (params) =>
        listPage(
          (await engine.listPaymentSources(params.customer_id.is)).map((source) => ({
            payment_source: sourceJson(source),
          })),
          params,
        ),
    ),
    route("GET", /^\/api\/v2\/payment_sources\/([^/]+)$/, none, async (_params, [id]) => ({
      payment_source: sourceJson(await sourceOf(id)),
    })),
    route(
      "POST",
      /^\/api\/v2\/payment_sources\/create_using_temp_token$/,
      newSource.extend({ tmp_token: text }).strict(),
      async (params, _match, key) => ({
        payment_source: sourceJson(
          await engine.createPaymentSourceFromTempToken(
            {
              customerId: params.customer_id,
              tmpToken: params.tmp_token,
              setAsPrimary: params.replace_primary_payment_source,
            },
            key,
          ),
        ),
      }),
      true,
    ),
    route(
      "POST",
      /^\/api\/v2\/payment_sources\/create_using_permanent_token$/,
      newSource.extend({ reference_id: text }).strict(),
      async (params, _match, key) => ({
        payment_source: sourceJson(
          await engine.createPaymentSourceFromPermanentToken(
            {
              customerId: params.customer_id,
              referenceId: params.reference_id,
              setAsPrimary: params.replace_primary_payment_source,
            },
            key,
          ),
        ),
      }),
      true,
    ),
    route("POST", /^\/api\/v2\/payment_sources\/([^/]+)\/delete_local$/, none, async (_params, [id]) => {
      const source = await sourceOf(id);
      await engine.deleteLocalPaymentSource(source.customerId, id);
      return { payment_source: sourceJson(source) };
    }),
    route("GET", /^\/api\/v2\/subscriptions\/([^/]+)$/, none, async (_params, [id]) => ({
      subscription: await subscriptionJsonOf(await ownerOf(billingSubscriptions, id), id),
    })),
    route("POST", /^\/api\/v2\/subscriptions\/([^/]+)\/delete$/, none, async (_params, [id]) => {
      const subscription = await subscriptionJsonOf(await ownerOf(billingSubscriptions, id), id);
      await store.delete(billingSubscriptions).where(eq(billingSubscriptions.id, id));
      return { subscription: { ...subscription, deleted: true } };
    }),
    route(
      "GET",
      /^\/api\/v2\/customers\/([^/]+)\/create_subscription_estimate$/,
      order
        .extend({
          use_existing_balances: z.literal("true"),
          subscription: plan,
          shipping_address: estimateAddress.optional(),
        })
        .strict(),
      async (params, [customerId]) => {
        refusePastStart(params.subscription.start_date, "subscription[start_date]");
        return estimateJson(
          await engine.estimateNewSubscription({ customerId, ...planOf(params.subscription), ...orderOf(params) }),
        );
      },
    ),
    route(
      "POST",
      /^\/api\/v2\/estimates\/create_subscription$/,
      order.extend({ subscription: plan, shipping_address: estimateAddress.optional() }).strict(),
      async (params) => {
        refusePastStart(params.subscription.start_date, "subscription[start_date]");
        return estimateJson(
          await engine.estimateNewSubscription({ ...planOf(params.subscription), ...orderOf(params) }),
        );
      },
    ),
    route(
      "GET",
      /^\/api\/v2\/subscriptions$/,
      z.object({ ...page, customer_id: ofCustomer }).strict(),
      async (params) => {
        const customerId = params.customer_id.is;
        const rows = await store
          .select({ id: billingSubscriptions.id })
          .from(billingSubscriptions)
          .where(eq(billingSubscriptions.customerId, customerId))
          .orderBy(asc(billingSubscriptions.createdAt), asc(billingSubscriptions.id));
        const list = await Promise.all(
          rows.map(async ({ id }) => ({ subscription: await subscriptionJsonOf(customerId, id) })),
        );
        return listPage(list, params);
      },
    ),
    route(
      "POST",
      /^\/api\/v2\/customers\/([^/]+)\/subscriptions$/,
      order
        .merge(plan)
        .extend({
          shipping_address: address.optional(),
          auto_collection: z.literal("on"),
          payment_source_id: text,
          meta_data: z
            .string()
            .transform((json) => JSON.parse(json) as unknown)
            .pipe(z.object({ license_assignment: text, order_key: text }).strict()),
          po_number: text.max(100).optional(),
          payment_intent: paymentIntent.optional(),
        })
        .strict(),
      async (params, [customerId], key) => {
        refusePastStart(params.start_date, "start_date");
        const subscription = await keeping(
          spending(customerId, params.payment_intent, () =>
            engine.createSubscription(
              {
                customerId,
                ...planOf(params),
                ...orderOf(params),
                shippingAddress: params.shipping_address && addressOf(params.shipping_address),
                paymentSourceId: params.payment_source_id,
                licenseAssignment: params.meta_data.license_assignment,
                poNumber: params.po_number,
                paymentIntentId: params.payment_intent?.id,
              },
              key,
            ),
          ),
          // Chargebee keeps meta_data as it was sent.
          async () => {
            const made = await engine.findSubscriptionByKey(customerId, key);
            if (made) metaData.set(made.id, params.meta_data);
          },
        );
        return { subscription: await subscriptionJsonOf(customerId, subscription.id) };
      },
      true,
    ),
    route(
      "POST",
      /^\/api\/v2\/estimates\/update_subscription$/,
      planChange
        .extend({
          use_existing_balances: z.literal("true"),
          subscription: plan.omit({ start_date: true }).extend({ id: text }).strict(),
        })
        .strict(),
      async (params) => {
        const { id } = params.subscription;
        return estimateJson(
          await engine.estimateSubscriptionUpdate(await ownerOf(billingSubscriptions, id), id, {
            ...planOf(params.subscription),
            ...changeOf(params),
          }),
        );
      },
    ),
    route(
      "POST",
      /^\/api\/v2\/subscriptions\/([^/]+)$/,
      planChange
        .merge(plan.omit({ start_date: true }))
        .extend({
          billing_address: address.optional(),
          shipping_address: address.optional(),
          po_number: text.max(100).optional(),
          payment_intent: paymentIntent.optional(),
        })
        .strict(),
      async (params, [id], key) => {
        const customerId = await ownerOf(billingSubscriptions, id);
        await spending(customerId, params.payment_intent, () =>
          engine.updateSubscription(
            customerId,
            id,
            {
              ...planOf(params),
              ...changeOf(params),
              billingAddress: params.billing_address && addressOf(params.billing_address),
              shippingAddress: params.shipping_address && addressOf(params.shipping_address),
              poNumber: params.po_number,
              paymentIntentId: params.payment_intent?.id,
            },
            key,
          ),
        );
        return { subscription: await subscriptionJsonOf(customerId, id) };
      },
      true,
    ),
    route(
      "POST",
      /^\/api\/v2\/subscriptions\/([^/]+)\/override_billing_profile$/,
      z.object({ payment_source_id: text, auto_collection: z.enum(["on", "off"]) }).strict(),
      async (params, [id]) => {
        const customerId = await ownerOf(billingSubscriptions, id);
        await engine.overrideBillingProfile(customerId, id, {
          paymentSourceId: params.payment_source_id,
          autoCollection: params.auto_collection === "on",
        });
        return { subscription: await subscriptionJsonOf(customerId, id) };
      },
    ),
    route(
      "POST",
      /^\/api\/v2\/invoices$/,
      z
        .object({
          customer_id: text,
          auto_collection: z.literal("on"),
          payment_source_id: text,
          addons: z.array(pricedItem),
          shipping_address: address.optional(),
          po_number: text.max(100).optional(),
          payment_intent: paymentIntent.optional(),
        })
        .strict(),
      async (params, _match, key) => {
        const invoice = await keeping(
          spending(params.customer_id, params.payment_intent, () =>
            engine.createHardwareInvoice(
              {
                customerId: params.customer_id,
                paymentSourceId: params.payment_source_id,
                hardware: withoutShipping(params.addons),
                shippingAddress: params.shipping_address && addressOf(params.shipping_address),
                paymentIntentId: params.payment_intent?.id,
              },
              key,
            ),
          ),
          // Chargebee keeps the purchase order number on the invoice it made.
          async () => {
            const made = await engine.findInvoiceByKey(params.customer_id, key);
            if (made && params.po_number !== undefined) poNumbers.set(made.id, params.po_number);
          },
        );
        return { invoice: invoiceJsonOf(invoice) };
      },
      true,
    ),
    route(
      "GET",
      /^\/api\/v2\/invoices$/,
      z
        .object({
          ...page,
          customer_id: ofCustomer,
          subscription_id: z.object({ is: text }).strict().optional(),
          recurring: z
            .object({ is: z.literal("false") })
            .strict()
            .optional(),
          sort_by: z.object({ desc: z.literal("date") }).strict(),
        })
        .strict(),
      async (params) => {
        // Newest first; `recurring[is]=false` keeps the invoices of no subscription.
        const invoices = await engine.listInvoices(params.customer_id.is, {
          subscriptionId: params.subscription_id?.is,
        });
        return listPage(
          invoices
            .filter((invoice) => !params.recurring || invoice.subscriptionId === null)
            .map((invoice) => ({ invoice: invoiceJsonOf(invoice) })),
          params,
        );
      },
    ),
    route("GET", /^\/api\/v2\/invoices\/([^/]+)$/, none, async (_params, [id]) => ({
      invoice: invoiceJsonOf(await engine.retrieveInvoice(await ownerOf(billingInvoices, id), id)),
    })),
    route(
      "POST",
      /^\/api\/v2\/invoices\/([^/]+)\/pdf$/,
      z.object({ disposition_type: z.enum(["attachment", "inline"]).optional() }).strict(),
      async (_params, [id]) => {
        await engine.retrieveInvoice(await ownerOf(billingInvoices, id), id);
        // Chargebee's download address is good for a while (its valid_till); the fake's for an hour.
        return {
          download: {
            download_url: `http://127.0.0.1:${server.port}/downloads/invoices/${encodeURIComponent(id)}.pdf`,
            valid_till: seconds(now()) + 3600,
            mime_type: "application/pdf",
          },
        };
      },
    ),
    // update_details replaces the invoice's billing address, VAT number and PO number (what the call leaves out is
    // removed), and only where the invoice's tax stays as it was: a change of country is refused.
    route(
      "POST",
      /^\/api\/v2\/invoices\/([^/]+)\/update_details$/,
      z
        .object({
          billing_address: address.optional(),
          vat_number: text.max(20).optional(),
          po_number: text.max(100).optional(),
        })
        .strict(),
      async (params, [id], key) => {
        const customerId = await ownerOf(billingInvoices, id);
        const issued = await engine.retrieveInvoice(customerId, id);
        const billingAddress = addressOf(params.billing_address ?? {});
        const issuedCountry = issued.billedTo?.address?.country;
        if (issuedCountry && billingAddress.country !== issuedCountry) {
          throw new Refusal(
            400,
            "The invoice's details cannot be updated as the change affects the tax of the invoice.",
            "invalid_request",
            "billing_address[country]",
          );
        }
        const { company = "", ...rest } = billingAddress;
        const invoice = await engine.correctInvoice(
          customerId,
          id,
          {
            company,
            billingAddress: rest,
            vatNumber: params.vat_number ?? null,
            vatNumberStatus: await vatNumberStatusOf(params.vat_number),
            poNumber: params.po_number ?? null,
          },
          key,
        );
        return { invoice: invoiceJsonOf(invoice) };
      },
      true,
    ),
    route(
      "POST",
      /^\/api\/v2\/invoices\/([^/]+)\/collect_payment$/,
      z.object({ payment_source_id: text }).strict(),
      async (params, [id], key) => {
        const invoice = await engine.collectPayment(
          await ownerOf(billingInvoices, id),
          id,
          params.payment_source_id,
          key,
        );
        return { invoice: invoiceJsonOf(invoice), transaction: transactionJson(invoice, "success") };
      },
      true,
    ),
    // The customer's collect_payment, which takes a payment intent (the invoice's does not): the portal allocates
    // the payment to one invoice, its whole amount due.
    route(
      "POST",
      /^\/api\/v2\/customers\/([^/]+)\/collect_payment$/,
      z
        .object({
          payment_source_id: text,
          payment_intent: paymentIntent,
          invoice_allocations: z.array(z.object({ invoice_id: text }).strict()).length(1),
        })
        .strict(),
      async (params, [customerId], key) => {
        const [{ invoice_id: invoiceId }] = params.invoice_allocations;
        const invoice = await spending(customerId, params.payment_intent, () =>
          engine.collectPayment(customerId, invoiceId, params.payment_source_id, key, params.payment_intent.id),
        );
        return {
          customer: customerJsonOf(await engine.retrieveCustomer(customerId)),
          transaction: transactionJson(invoice, "success"),
        };
      },
      true,
    ),
    // A payment intent for a card the gateway keeps (reference_id), exclusive to the customer; it expires an hour
    // after it was made, as Chargebee's do (the engine expires it by the same clock).
    route(
      "POST",
      /^\/api\/v2\/payment_intents$/,
      z
        .object({
          customer_id: text,
          amount: formNumber.pipe(z.number().int().min(0)),
          currency_code: z.literal("USD"),
          gateway_account_id: z.literal(FAKE_GATEWAY_ACCOUNT_ID),
          reference_id: text,
          payment_method_type: z.literal("card"),
        })
        .strict(),
      async (params, _match, key) => {
        const sources = await engine.listPaymentSources(params.customer_id);
        const source = sources.find((entry) => entry.referenceId === params.reference_id);
        if (!source)
          throw new Refusal(400, "reference_id : is not a card of the customer", "param_wrong_value", "reference_id");
        const made = await engine.createPaymentIntent(
          { customerId: params.customer_id, paymentSourceId: source.id, amount: params.amount, returnUrl: "" },
          key,
        );
        if (!intents.has(made.id)) {
          intents.set(made.id, {
            customerId: params.customer_id,
            referenceId: params.reference_id,
            createdAt: seconds(now()),
          });
        }
        return { payment_intent: await intentJsonOf(made.id) };
      },
      true,
    ),
    route("GET", /^\/api\/v2\/payment_intents\/([^/]+)$/, none, async (_params, [id]) => ({
      payment_intent: await intentJsonOf(id),
    })),
    route(
      "POST",
      /^\/api\/v2\/subscriptions\/([^/]+)\/cancel$/,
      z.object({ end_of_term: z.literal("true") }).strict(),
      async (_params, [id], key) => {
        const customerId = await ownerOf(billingSubscriptions, id);
        const subscription = await engine.cancelSubscriptionAtTermEnd(customerId, id, key);
        return { subscription: keptSubscriptionJson(subscription), customer: { id: customerId } };
      },
      true,
    ),
    route(
      "POST",
      /^\/api\/v2\/subscriptions\/([^/]+)\/remove_scheduled_cancellation$/,
      none,
      async (_params, [id], key) => {
        const customerId = await ownerOf(billingSubscriptions, id);
        const subscription = await engine.removeScheduledCancellation(customerId, id, key);
        return { subscription: keptSubscriptionJson(subscription), customer: { id: customerId } };
      },
      true,
    ),
    route(
      "GET",
      /^\/api\/v2\/events$/,
      z
        .object({
          ...page,
          occurred_at: z.object({ after: formNumber }).strict(),
          sort_by: z.object({ asc: z.literal("occurred_at") }).strict(),
        })
        .strict(),
      async (params) => {
        // The engine writes events in the order they occur; `after` is strictly after, in seconds.
        const listed = await engine.listEvents({
          since: new Date((params.occurred_at.after + 1) * 1000),
          limit: params.limit,
          pageToken: params.offset,
        });
        return {
          list: listed.events.map((event) => ({ event: eventJson(event) })),
          next_offset: listed.nextPageToken ?? undefined,
        };
      },
    ),
  ];

  /**
   * Chargebee's idempotency: a key of at most 100 characters; within 30 minutes the same key with the same
   * request replays the first answer, and with another request it is refused. What Chargebee does with a key
   * after its window is not documented (it may well run the request again, a second charge): the fake refuses
   * it, so that nothing in the portal can depend on it, and a late retry has to ask what the first call made.
   * The codes of these refusals are not documented either; the fake answers 400 invalid_request.
   */
  function replayed(key: string, request: string): FakeResponse | undefined {
    if (key.length > MAX_KEY_LENGTH) {
      throw new Refusal(
        400,
        `chargebee-idempotency-key : is longer than ${MAX_KEY_LENGTH} characters`,
        "invalid_request",
      );
    }
    const use = keys.get(key);
    if (!use) {
      keys.set(key, { at: now().getTime(), request });
      return undefined;
    }
    if (now().getTime() - use.at > IDEMPOTENCY_WINDOW_MS) {
      throw new Refusal(400, "chargebee-idempotency-key : was used more than 30 minutes ago", "invalid_request");
    }
    if (use.request !== request) {
      throw new Refusal(400, "chargebee-idempotency-key : was used with other parameters", "invalid_request");
    }
    return use.answer;
  }

  /** A request to Chargebee's API: its key checked, then the route that serves it. */
  const serve = async (request: FakeRequest, key: string | undefined): Promise<FakeResponse> => {
    if (request.headers.authorization !== `Basic ${Buffer.from(`${FAKE_API_KEY}:`).toString("base64")}`) {
      return chargebeeError(401, "Sorry, authentication failed. Invalid api key", "api_authentication_failed");
    }
    const refuse = (refusal: Refusal) => {
      refusals.push(`${request.method} ${request.path}: ${refusal.message}`);
      return chargebeeError(refusal.status, refusal.message, refusal.code, refusal.param);
    };
    for (const route of routes) {
      const match = route.method === request.method ? route.path.exec(request.path) : null;
      if (!match) continue;
      try {
        if (route.idempotent && !key)
          throw new Refusal(400, "chargebee-idempotency-key header missing", "invalid_request");
        const fingerprint = JSON.stringify([request.method, request.path, request.params]);
        const replay = route.idempotent && key ? replayed(key, fingerprint) : undefined;
        if (replay) return replay;
        onOffQuantity(request.params);
        const parsed = route.parse(request.params);
        if (!parsed.success) {
          // Chargebee refuses a parameter an endpoint does not have, or one of the wrong form.
          const issue = parsed.error.issues[0];
          throw new Refusal(
            400,
            `${issue.path.join(".")} : ${issue.message}`,
            "param_wrong_value",
            issue.path.join("."),
          );
        }
        const body = await route.handle(parsed.data, match.slice(1).map(decodeURIComponent), key ?? "");
        const answer = { status: 200, json: body };
        const use = key ? keys.get(key) : undefined;
        if (use && route.idempotent) use.answer = answer;
        return answer;
      } catch (error) {
        if (error instanceof Refusal) return refuse(error);
        if (!(error instanceof ProviderError)) throw error;
        return errorOf(error);
      }
    }
    return { status: 404, html: "<html><body><h1>404 Not Found</h1></body></html>" };
  };

  /** An invoice's PDF at the download address Chargebee gave (a signed link: no API key). */
  const download = async (request: FakeRequest): Promise<FakeResponse | undefined> => {
    const match = /^\/downloads\/invoices\/([^/]+)\.pdf$/.exec(request.path);
    if (request.method !== "GET" || !match) return undefined;
    const id = decodeURIComponent(match[1]);
    const pdf = await engine.invoicePdf(await ownerOf(billingInvoices, id), id).catch(() => null);
    return pdf?.kind === "document"
      ? { status: 200, bytes: pdf.bytes, contentType: "application/pdf" }
      : { status: 404, html: "<html><body><h1>404 Not Found</h1></body></html>" };
  };

  const respond = async (request: FakeRequest): Promise<FakeResponse> => {
    const key = headerOf(request, "chargebee-idempotency-key");
    requests.push({ method: request.method, path: request.path, params: request.params, idempotencyKey: key });
    const downloaded = await download(request);
    if (downloaded) return downloaded;
    const canned = nextResponse;
    if (
      canned &&
      (canned.path ?? request.path) === request.path &&
      (canned.method ?? request.method) === request.method
    ) {
      nextResponse = undefined;
      // An answer lost on the way back: Chargebee did what was asked all the same.
      if (canned.served) await serve(request, key);
      return canned.response;
    }
    return serve(request, key);
  };

  const server = await startFake(respond);

  /**
   * Chargebee's webhooks: the events the engine recorded, posted as Chargebee posts them (JSON, with the basic
   * auth of its webhook settings) to the address a test configures. An event whose post was not answered 2xx
   * is posted again on the next delivery, as Chargebee retries.
   */
  const webhooks: {
    target?: { url: string; username: string; password: string };
    /** The events whose post was answered 2xx: Chargebee does not send them again. */
    delivered: Set<string>;
  } = { delivered: new Set() };

  const post = async (body: unknown, authorization: string | undefined) => {
    const target = webhooks.target;
    if (!target) throw new Error("Configure the webhook target first.");
    const response = await fetch(target.url, {
      method: "POST",
      headers: { "content-type": "application/json", ...(authorization ? { authorization } : {}) },
      body: JSON.stringify(body),
    });
    await response.arrayBuffer();
    return response.status;
  };

  /** Every event the engine recorded, oldest first. */
  const recorded = async () => {
    const events: ProviderEvent[] = [];
    let pageToken: string | undefined;
    do {
      const page = await engine.listEvents({ since: new Date(0), pageToken });
      events.push(...page.events);
      pageToken = page.nextPageToken ?? undefined;
    } while (pageToken);
    return events;
  };

  /** Every event the engine recorded that no post has delivered yet, oldest first. */
  const undelivered = async () => (await recorded()).filter((event) => !webhooks.delivered.has(event.id));

  const rightCredentials = (target: { username: string; password: string }) =>
    `Basic ${Buffer.from(`${target.username}:${target.password}`).toString("base64")}`;

  return {
    port: server.port,
    close: server.close,
    requests,
    refusals,
    /** The last request to a path, to check what the adapter sent. */
    lastRequest: (method: string, path: string) =>
      requests.filter((r) => r.method === method && r.path === path).at(-1),
    /**
     * Credits given to a customer outside the portal, as a site's operator can in Chargebee: promotional credits,
     * or an excess payment recorded against the customer. Chargebee takes them off the next invoices.
     */
    grantCredits: async (customerId: string, credits: { promotional?: number; excess?: number }) => {
      const grant = granted.get(customerId) ?? { promotional: 0, excess: 0 };
      const promotional = credits.promotional ?? 0;
      const excess = credits.excess ?? 0;
      granted.set(customerId, { promotional: grant.promotional + promotional, excess: grant.excess + excess });
      await store
        .update(billingCustomers)
        .set({ creditBalance: sql`${billingCustomers.creditBalance} + ${promotional + excess}` })
        .where(eq(billingCustomers.id, customerId));
    },
    /**
     * Answers the next request (to this path, when given) with this response instead of serving it; with
     * `served`, the request is served first and its answer lost (the caller cannot know it took effect).
     */
    answerNextWith: (response: FakeResponse, to: { method?: string; path?: string; served?: boolean } = {}) => {
      nextResponse = { response, ...to };
    },
    /**
     * The cardholder's answer to the bank's challenge that Chargebee.js opens for a payment intent: the intent is
     * authorized, or its attempt refused in the gateway's words.
     */
    answerPaymentIntent: async (id: string, outcome: "complete" | "fail") => {
      await answerSetup(store, id, outcome);
    },
    /** A test site's time machine: moves Chargebee's clock forward, processing what falls due on the way. */
    advanceClock: (days: number) => engine.advanceClock(days),
    webhooks: {
      /** Where Chargebee posts its events, with the user name and password of its webhook settings. */
      configure: (target: { url: string; username: string; password: string }) => {
        webhooks.target = target;
      },
      /**
       * Posts the events no post has delivered yet (new ones, and those a post failed for), oldest first,
       * or newest first with `reversed`; each twice with `duplicate`. `auth` sends the configured credentials
       * (right), others (wrong) or none. What the endpoint answered, by event.
       */
      deliver: async (
        options: { reversed?: boolean; duplicate?: boolean; auth?: "right" | "wrong" | "none" } = {},
      ): Promise<{ eventId: string; eventType: string; status: number }[]> => {
        const target = webhooks.target;
        if (!target) throw new Error("Configure the webhook target first.");
        const authorization =
          options.auth === "none"
            ? undefined
            : rightCredentials(options.auth === "wrong" ? { ...target, password: "not-the-password" } : target);
        const due = await undelivered();
        const ordered = options.reversed ? due.reverse() : due;
        const posts = options.duplicate ? ordered.flatMap((event) => [event, event]) : ordered;
        const statuses: { eventId: string; eventType: string; status: number }[] = [];
        for (const event of posts) {
          const status = await post(eventJson(event), authorization);
          statuses.push({ eventId: event.id, eventType: event.providerType, status });
          if (status >= 200 && status < 300) webhooks.delivered.add(event.id);
        }
        return statuses;
      },
      /** The events the engine recorded, as its webhooks post them (JSON), oldest first: for a test to alter. */
      recorded: async () => (await recorded()).map(eventJson),
      /**
       * Posts a body with the configured credentials, as someone who holds them could: a made-up event. What the
       * endpoint answered.
       */
      send: (body: unknown) => {
        if (!webhooks.target) throw new Error("Configure the webhook target first.");
        return post(body, rightCredentials(webhooks.target));
      },
    },
  };
}

export type ChargebeeFake = Awaited<ReturnType<typeof startChargebeeFake>>;

/** The portal's Chargebee adapter, talking to the fake as it would to a Chargebee site. */
export const chargebeeBillingOf = (fake: ChargebeeFake) =>
  createChargebeeBilling({
    site: FAKE_SITE,
    apiKey: FAKE_API_KEY,
    gatewayAccountId: FAKE_GATEWAY_ACCOUNT_ID,
    endpoint: { protocol: "http", hostSuffix: "", port: fake.port },
  });

/**
 * A creating call, and then what Chargebee keeps of the request on what it made: also when the engine made it
 * and then lost its answer (an injected fault), as the object exists at Chargebee all the same.
 */
async function keeping<T>(creating: Promise<T>, keep: () => Promise<void>): Promise<T> {
  try {
    return await creating;
  } finally {
    await keep();
  }
}

// --- what Chargebee refuses beyond a request's shape ----------------------------------------------

/**
 * Chargebee refuses a quantity for an on_off add-on, 400 'addons[quantity][0] : This param should not be sent
 * for on_off addon type' (Chargebee support KB 257026), and requires one for a quantity add-on ('Mandatory for
 * quantity based addons', the add-on parameters of every PC 1.0 endpoint), on every list of add-ons.
 */
function onOffQuantity(params: Record<string, unknown>) {
  for (const list of ["addons", "event_based_addons"]) {
    const items = params[list];
    if (!Array.isArray(items)) continue;
    items.forEach((entry: Partial<Record<string, unknown>>, index) => {
      const type = priceList.addons.find((addon) => addon.id === entry.id)?.type;
      const param = `${list}[quantity][${index}]`;
      if (type === "on_off" && entry.quantity !== undefined) {
        throw new Refusal(
          400,
          `${param} : This param should not be sent for on_off addon type`,
          "param_wrong_value",
          param,
        );
      }
      if (type !== undefined && type !== "on_off" && entry.quantity === undefined) {
        throw new Refusal(400, `${param} : cannot be blank`, "param_wrong_value", param);
      }
    });
  }
}

/** One page of a list: `limit` entries from `offset`, and where the next page starts when there is one. */
function listPage<T>(entries: T[], { limit, offset }: { limit: number; offset?: string }) {
  const start = offset === undefined ? 0 : Number(offset);
  const end = start + limit;
  return { list: entries.slice(start, end), next_offset: end < entries.length ? String(end) : undefined };
}

// --- requests to the engine's terms ------------------------------------------------------------

const headerOf = (request: FakeRequest, name: string) => {
  const value = request.headers[name];
  return typeof value === "string" ? value : undefined;
};

const profileOf = (fields: z.infer<typeof profile>) => ({
  firstName: fields.first_name,
  lastName: fields.last_name,
  email: fields.email,
  phone: fields.phone,
  company: fields.company,
});

/** A present address in the port's terms (the adapter's own mapping; the schema above checks the names). */
const addressOf = (fields: AddressParams): Address => chargebeeAddressOf(fields) ?? {};

const planOf = (params: Omit<z.infer<typeof plan>, "start_date"> & { start_date?: number }) => ({
  planId: params.plan_id,
  planQuantity: params.plan_quantity,
  startDate: params.start_date === undefined ? undefined : new Date(params.start_date * 1000),
});

/** An add-on of an order in the engine's terms: an on_off add-on (sent without quantity) is ordered once. */
const quantityOf = ({ id, quantity }: ItemParams): ItemQuantity => ({ id, quantity: quantity ?? 1 });

/**
 * The adapter sends the shipping line itself; the fake checks it is the one the hardware in the order needs
 * (750 cents per box of five, as its price), and the engine then adds it again from the hardware.
 */
function withoutShipping(charges: ItemParams[]): ItemQuantity[] {
  const items = charges.filter((charge) => charge.id !== SHIPPING_ADDON_ID).map(quantityOf);
  const hardwareCount = items
    .filter((charge) => catalogue.addon(charge.id)?.addonType === "hardware")
    .reduce((count, charge) => count + charge.quantity, 0);
  const sent = charges.find((charge) => charge.id === SHIPPING_ADDON_ID);
  const expected = shippingCharge(hardwareCount);
  if ((sent?.unit_price ?? null) !== (expected?.unitPrice ?? null)) {
    throw new Error(`shipping line ${JSON.stringify(sent)} does not match ${JSON.stringify(expected)}`);
  }
  return items;
}

function orderOf(params: z.infer<typeof order>) {
  const oneTime = withoutShipping(params.event_based_addons ?? []);
  const isHardware = (charge: ItemQuantity) => catalogue.addon(charge.id)?.addonType === "hardware";
  return {
    addons: params.addons?.map(quantityOf),
    oneTimeAddons: oneTime.filter((charge) => !isHardware(charge)),
    hardware: oneTime.filter(isHardware),
    couponIds: params.coupon_ids,
  };
}

const changeOf = (params: z.infer<typeof planChange>) => ({
  addons: params.replace_addon_list ? (params.addons ?? []).map(quantityOf) : undefined,
  couponIds: params.coupon_ids,
});

// --- the engine's answers in Chargebee's shapes ----------------------------------------------------

const secondsOrUndefined = (date: Date | null) => (date ? seconds(date) : undefined);
const addressJson = (value: Address | null) => (value ? toChargebeeAddress(value) : undefined);

function customerJson(customer: Customer) {
  return {
    id: customer.id,
    first_name: customer.firstName,
    last_name: customer.lastName,
    email: customer.email,
    phone: customer.phone,
    company: customer.company,
    billing_address: addressJson(customer.billingAddress),
    vat_number: customer.vatNumber ?? undefined,
    vat_number_status: customer.vatNumber
      ? customer.vatNumberStatus === "unchecked" || !customer.vatNumberStatus
        ? "not_validated"
        : customer.vatNumberStatus
      : undefined,
    primary_payment_source_id: customer.primaryPaymentSourceId ?? undefined,
    refundable_credits: customer.creditBalance,
    promotional_credits: 0,
    excess_payments: 0,
    unbilled_charges: 0,
    auto_collection: "on",
    deleted: false,
  };
}

function sourceJson(source: PaymentSource) {
  const { card } = source;
  return {
    id: source.id,
    customer_id: source.customerId,
    type: source.type,
    status: source.status,
    reference_id: source.referenceId,
    gateway: "stripe",
    gateway_account_id: FAKE_GATEWAY_ACCOUNT_ID,
    card: card && {
      brand: card.brand,
      last4: card.last4,
      first_name: card.firstName,
      last_name: card.lastName,
      expiry_month: card.expiryMonth,
      expiry_year: card.expiryYear,
      masked_number: `************${card.last4}`,
    },
    deleted: false,
  };
}

function subscriptionJson(subscription: Subscription) {
  return {
    id: subscription.id,
    customer_id: subscription.customerId,
    plan_id: subscription.planId,
    plan_quantity: subscription.planQuantity,
    plan_unit_price: subscription.planUnitPrice,
    status: subscription.status,
    addons: subscription.addons,
    current_term_start: secondsOrUndefined(subscription.currentTermStart),
    current_term_end: secondsOrUndefined(subscription.currentTermEnd),
    next_billing_at: secondsOrUndefined(subscription.nextBillingAt),
    payment_source_id: subscription.paymentSourceId ?? undefined,
    auto_collection: subscription.autoCollection ? "on" : "off",
    shipping_address: addressJson(subscription.shippingAddress),
    meta_data: subscription.licenseAssignment ? { license_assignment: subscription.licenseAssignment } : undefined,
    cancelled_at: secondsOrUndefined(subscription.cancelledAt),
    total_dues: subscription.totalDues > 0 ? subscription.totalDues : undefined,
    due_since: secondsOrUndefined(subscription.dueSince),
    resource_version: subscription.resourceVersion,
    currency_code: "USD",
    deleted: false,
  };
}

function totalsJson(totals: InvoiceTotals) {
  return {
    line_items: totals.lineItems.map((line) => ({
      entity_type: line.entityType,
      entity_id: line.entityId ?? undefined,
      description: line.description,
      quantity: line.quantity,
      unit_amount: line.unitAmount,
      amount: line.amount,
      date_from: secondsOrUndefined(line.dateFrom),
      date_to: secondsOrUndefined(line.dateTo),
    })),
    discounts: totals.discounts.map((discount) => ({
      entity_type: discount.entityType,
      entity_id: discount.entityId ?? undefined,
      description: discount.description,
      amount: discount.amount,
    })),
    sub_total: totals.subTotal,
    total: totals.total,
    credits_applied: totals.creditsApplied,
    amount_due: totals.amountDue,
  };
}

const creditNote = (type: "adjustment" | "refundable", total: number, allocated: number) => ({
  type,
  price_type: "tax_exclusive",
  currency_code: "USD",
  sub_total: total,
  total,
  amount_allocated: allocated,
  amount_available: total - allocated,
});

/**
 * An estimate as Chargebee gives it. Nothing invoiced now: no invoice estimate, and the next invoice estimated
 * instead (Chargebee returns next_invoice_estimate only then). The unused part of replaced items is a
 * refundable credit note, allocated to the invoice as far as it goes; the part of a term still unpaid is an
 * adjustment credit note against that unpaid invoice, allocated to it in full.
 */
function estimateJson(estimate: Estimate) {
  const next = estimate.nextBilling;
  const invoicedNow = estimate.lineItems.length > 0;
  const notes = [
    ...(estimate.adjustments > 0 ? [creditNote("adjustment", estimate.adjustments, estimate.adjustments)] : []),
    ...(estimate.creditsIssued > 0
      ? [creditNote("refundable", estimate.creditsIssued, Math.min(estimate.creditsIssued, estimate.creditsApplied))]
      : []),
  ];
  return {
    estimate: {
      created_at: Math.floor(Date.now() / 1000),
      invoice_estimate: invoicedNow ? totalsJson(estimate) : undefined,
      next_invoice_estimate:
        !invoicedNow && next
          ? {
              ...totalsJson({
                lineItems: [],
                discounts: [],
                subTotal: next.amount,
                total: next.amount,
                creditsApplied: 0,
                amountDue: next.amount,
              }),
              recurring: true,
              price_type: "tax_exclusive",
              currency_code: "USD",
            }
          : undefined,
      credit_note_estimates: notes.length > 0 ? notes : undefined,
      subscription_estimate: {
        currency_code: "USD",
        next_billing_at: secondsOrUndefined(next?.at ?? null),
      },
    },
  };
}

/**
 * An invoice as Chargebee gives it. Its id is its number, as on Chargebee; what it was for is only in what
 * Chargebee says of it: the subscription's first invoice (`first_invoice`), and the credits a change applies
 * (`applied_credits` of a credit note for a subscription change). Dunning in progress has its next retry.
 */
function invoiceJson(invoice: Invoice) {
  const change = invoice.purpose === "subscription_change" && invoice.creditsApplied > 0;
  return {
    ...totalsJson(invoice),
    id: invoice.id,
    customer_id: invoice.customerId,
    subscription_id: invoice.subscriptionId ?? undefined,
    recurring: invoice.subscriptionId !== null,
    first_invoice: invoice.purpose === "new_subscription",
    applied_credits: change
      ? [
          {
            cn_id: `cn_${invoice.id}`,
            applied_amount: invoice.creditsApplied,
            applied_at: seconds(invoice.date),
            cn_reason_code: "subscription_change",
          },
        ]
      : undefined,
    status: invoice.status,
    amount_paid: invoice.amountPaid,
    paid_at: secondsOrUndefined(invoice.paidAt),
    dunning_status: invoice.nextRetryAt ? "in_progress" : invoice.status === "not_paid" ? "exhausted" : undefined,
    next_retry_at: secondsOrUndefined(invoice.nextRetryAt),
    resource_version: invoice.resourceVersion,
    date: seconds(invoice.date),
    price_type: "tax_exclusive",
    currency_code: "USD",
    tax: 0,
    // The buyer as the invoice keeps them: its billing address (with the company) and VAT number.
    billing_address: invoice.billedTo?.address
      ? {
          ...addressJson(invoice.billedTo.address),
          company: invoice.billedTo.name !== invoice.billedTo.contact ? invoice.billedTo.name : undefined,
          email: invoice.billedTo.email || undefined,
        }
      : undefined,
    vat_number: invoice.billedTo?.vatNumber ?? undefined,
    term_finalized: true,
    is_gifted: false,
    deleted: false,
  };
}

/** The transaction of a payment's event or of collect_payment: the invoice's amount, succeeded or failed. */
function transactionJson(invoice: Invoice, status: "success" | "failure") {
  return {
    id: `txn_${invoice.id}_${invoice.resourceVersion}`,
    customer_id: invoice.customerId,
    subscription_id: invoice.subscriptionId ?? undefined,
    type: "payment",
    status,
    amount: status === "success" ? invoice.amountPaid : invoice.amountDue,
    currency_code: "USD",
    date: seconds(invoice.paidAt ?? invoice.date),
    linked_invoices: [{ invoice_id: invoice.id, applied_amount: invoice.amountPaid }],
  };
}

/** A payment intent of the engine's as Chargebee gives it: `inited` until answered, a refused attempt after a failure. */
function paymentIntentJson(
  intent: PaymentIntent,
  kept: { customerId: string; referenceId: string; createdAt: number },
) {
  const attempt = (status: "authorized" | "refused") => ({
    id: `attempt_${intent.id}`,
    status,
    payment_method_type: "card",
    ...(status === "refused" && { error_code: "payment_intent_authentication_failure", error_text: intent.failure }),
    created_at: kept.createdAt,
    modified_at: kept.createdAt,
  });
  // Waiting for the cardholder, or after a failed attempt (a new one may start), Chargebee's intent is `inited`.
  const status = intent.status === "requires_action" || intent.status === "failed" ? "inited" : intent.status;
  return {
    id: intent.id,
    object: "payment_intent",
    status,
    amount: intent.amount,
    currency_code: "USD",
    gateway_account_id: FAKE_GATEWAY_ACCOUNT_ID,
    gateway: "stripe",
    customer_id: kept.customerId,
    reference_id: kept.referenceId,
    payment_method_type: "card",
    created_at: kept.createdAt,
    modified_at: kept.createdAt,
    expires_at: kept.createdAt + 3600,
    active_payment_attempt:
      intent.status === "failed"
        ? attempt("refused")
        : intent.status === "requires_action"
          ? undefined
          : attempt("authorized"),
  };
}

/** The fake's code for a payment intent of another amount than the charge's (the engine's refusal does not say). */
const INTENT_AMOUNT_MISMATCH = "payment_intent_invalid_amount";

// --- errors ------------------------------------------------------------------------------------

function chargebeeError(
  status: number,
  message: string,
  code: string,
  param?: string,
  type: "invalid_request" | "payment" = "invalid_request",
): FakeResponse {
  return { status, json: { message, type, api_error_code: code, param, http_status_code: status } };
}

/**
 * The engine's failure as Chargebee answers: a card that cannot be charged as a payment error quoting the
 * gateway's reason after 'Error message:' (Chargebee's documented payment_processing_failed sample); another
 * refusal 4xx with its message; 503 when busy; 500 otherwise.
 */
function errorOf(error: ProviderError): FakeResponse {
  if (error.kind === "retryable") return chargebeeError(503, error.message, "site_not_ready");
  if (error.kind === "unknown") return chargebeeError(500, error.message, "internal_error");
  const message = error.providerMessage ?? error.message;
  if (error.code === PAYMENT_INTENT_INVALID || error.code === PAYMENT_INTENT_EXPIRED) {
    return chargebeeError(400, message, "payment_intent_invalid", "payment_intent[id]", "payment");
  }
  if (error.code === INTENT_AMOUNT_MISMATCH) {
    return chargebeeError(400, message, INTENT_AMOUNT_MISMATCH, "payment_intent[id]", "payment");
  }
  if (error.code === AUTHENTICATION_REQUIRED) {
    // The gateway's decline, quoted with its code as any other: Stripe's for a payment its bank asks about.
    return chargebeeError(
      400,
      `We are not able to collect the payment from the card on file. Error message: (authentication_required) ${message}`,
      "payment_processing_failed",
      undefined,
      "payment",
    );
  }
  if (error.code === "payment_method_not_usable" || error.code === "payment_processing_failed") {
    return chargebeeError(
      400,
      `We are not able to collect the payment from the card on file. Error message: (card_declined) ${message}`,
      "payment_processing_failed",
      undefined,
      "payment",
    );
  }
  const notFound = error.code === "not_found";
  return chargebeeError(
    notFound ? 404 : 400,
    message,
    notFound ? "resource_not_found" : (error.code ?? "invalid_request"),
    error.field,
  );
}
