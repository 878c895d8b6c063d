import { eq } from "drizzle-orm";
import { z } from "zod";
import { shippingCharge, SHIPPING_ADDON_ID } from "~/domain/shipping";
import { catalogue } from "~/server/billing/catalogue.server";
import {
  addressOf as chargebeeAddressOf,
  seconds,
  toChargebeeAddress,
} from "~/server/billing/chargebee/mapping.server";
import { notFound } from "~/server/billing/errors.server";
import { ProviderError } from "~/server/providers/errors.server";
import { createLocalBilling } from "~/server/billing/local/engine.server";
import type { EmbeddedStore } from "~/server/providers/embedded.server";
import type {
  Address,
  Customer,
  Estimate,
  Invoice,
  InvoiceTotals,
  ItemQuantity,
  PaymentSource,
  Subscription,
} from "~/server/billing/port.server";
import priceList from "~db/catalogue.json";
import { billingIdempotencyKeys, billingPaymentSources, billingSubscriptions } from "~db/schema";
import { formBoolean, formNumber, startFake, type FakeRequest, type FakeResponse } from "./http";

/**
 * A wire-level fake of Chargebee's API v2 (Product Catalog 1.0) for the calls the portal makes. It checks
 * every request the SDK really sends against the shape Chargebee documents (strict: an unknown or
 * misspelt parameter is an error), then serves it from the embedded billing engine, so the contract
 * suite holds the Chargebee adapter to exactly the engine's behaviour. Shape errors are answered with a
 * 400 and collected in `shapeErrors` for the test to assert on.
 */

export const FAKE_SITE = "127.0.0.1";
export const FAKE_API_KEY = "test_fake_chargebee_key";
export const FAKE_GATEWAY_ACCOUNT_ID = "gw_fake_stripe";

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
    city: text,
    state: text,
    state_code: text,
    zip: text,
    country: text,
  })
  .partial()
  .strict();
type AddressParams = z.infer<typeof address>;
const item = z.object({ id: text, quantity: formNumber }).strict();
const pricedItem = item.extend({ unit_price: formNumber.optional() }).strict();
type PricedParams = z.infer<typeof pricedItem>;
const eventBasedAddon = pricedItem
  .extend({
    on_event: z.literal("subscription_creation"),
    charge_once: z.literal("true"),
    charge_on: z.literal("on_event"),
  })
  .strict();
const none = z.object({}).strict();
const listQuery = z
  .object({ limit: z.literal("100"), status: z.object({ is: z.literal("active") }).strict() })
  .strict();
const plan = z.object({ plan_id: text, plan_quantity: formNumber, start_date: formNumber.optional() }).strict();
const order = z
  .object({
    coupon_ids: z.array(text).optional(),
    addons: z.array(item).optional(),
    event_based_addons: z.array(eventBasedAddon).optional(),
    shipping_address: address.optional(),
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
  /** Creating calls must carry the chargebee-idempotency-key header. */
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

export async function startChargebeeFake({ store, now }: { store: EmbeddedStore; now: () => Date }) {
  const engine = createLocalBilling({ store, now });
  const requests: RecordedRequest[] = [];
  const shapeErrors: string[] = [];
  let nextResponse: FakeResponse | undefined;

  /** Chargebee serves any object on the site; the engine wants its owner, which the fake looks up. */
  const ownerOf = (table: typeof billingSubscriptions | typeof billingPaymentSources, id: string) =>
    store.select({ customerId: table.customerId }).from(table).where(eq(table.id, id)).get()?.customerId ?? "";
  const sourceOf = async (id: string) => {
    const source = (await engine.listPaymentSources(ownerOf(billingPaymentSources, id))).find((s) => s.id === id);
    if (!source) throw notFound(`Payment source ${id}`);
    return source;
  };

  const routes: Route[] = [
    // The engine answers (and can be made to fail); Chargebee's entries are the price list's own.
    route("GET", /^\/api\/v2\/plans$/, listQuery, async () => ({
      list: (await engine.listPlans()).map(({ id }) => ({ plan: priceList.plans.find((entry) => entry.id === id) })),
    })),
    route("GET", /^\/api\/v2\/addons$/, listQuery, async () => ({
      list: (await engine.listAddons()).map(({ id }) => ({ addon: priceList.addons.find((entry) => entry.id === id) })),
    })),
    route("GET", /^\/api\/v2\/coupons\/([^/]+)$/, none, async (_params, [code]) => {
      await engine.retrieveCoupon(code);
      return { coupon: priceList.coupons.find((coupon) => coupon.id === code) };
    }),
    route(
      "POST",
      /^\/api\/v2\/customers$/,
      profile.extend({ id: text }).strict(),
      async ({ id, ...fields }, _match, key) => ({
        customer: customerJson(await engine.ensureCustomer(id, profileOf(fields), key)),
      }),
      true,
    ),
    route("GET", /^\/api\/v2\/customers\/([^/]+)$/, none, async (_params, [id]) => ({
      customer: customerJson(await engine.retrieveCustomer(id)),
    })),
    route("POST", /^\/api\/v2\/customers\/([^/]+)$/, profile, async (fields, [id]) => ({
      customer: customerJson(await engine.updateCustomer(id, profileOf(fields))),
    })),
    route(
      "POST",
      /^\/api\/v2\/customers\/([^/]+)\/update_billing_info$/,
      z.object({ billing_address: address }).strict(),
      async ({ billing_address }, [id]) => ({
        customer: customerJson(await engine.updateBillingInfo(id, addressOf(billing_address))),
      }),
    ),
    route(
      "GET",
      /^\/api\/v2\/payment_sources$/,
      z.object({ limit: z.literal("100"), customer_id: z.object({ is: text }).strict() }).strict(),
      async ({ customer_id }) => ({
        list: (await engine.listPaymentSources(customer_id.is)).map((source) => ({
          payment_source: sourceJson(source),
        })),
      }),
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
      subscription: subscriptionJson(await engine.retrieveSubscription(ownerOf(billingSubscriptions, id), id)),
    })),
    route(
      "GET",
      /^\/api\/v2\/customers\/([^/]+)\/create_subscription_estimate$/,
      order.extend({ use_existing_balances: z.literal("true"), subscription: plan }).strict(),
      async (params, [customerId]) =>
        estimateJson(
          await engine.estimateNewSubscription({ customerId, ...planOf(params.subscription), ...orderOf(params) }),
        ),
    ),
    route(
      "POST",
      /^\/api\/v2\/estimates\/create_subscription$/,
      order.extend({ subscription: plan }).strict(),
      async (params) =>
        estimateJson(await engine.estimateNewSubscription({ ...planOf(params.subscription), ...orderOf(params) })),
    ),
    route(
      "GET",
      /^\/api\/v2\/subscriptions$/,
      z
        .object({
          limit: z.literal("100"),
          customer_id: z.object({ is: text }).strict(),
        })
        .strict(),
      async (params) => {
        const customerId = params.customer_id.is;
        const rows = store
          .select({ id: billingSubscriptions.id })
          .from(billingSubscriptions)
          .where(eq(billingSubscriptions.customerId, customerId))
          .all();
        // Chargebee keeps the meta_data sent on creation; the engine keeps the key in its idempotency table.
        const keyOf = (id: string) =>
          store
            .select({ key: billingIdempotencyKeys.key })
            .from(billingIdempotencyKeys)
            .where(eq(billingIdempotencyKeys.result, id))
            .get()?.key;
        return {
          list: await Promise.all(
            rows.map(async ({ id }) => {
              const json = subscriptionJson(await engine.retrieveSubscription(customerId, id));
              return { subscription: { ...json, meta_data: { ...json.meta_data, order_key: keyOf(id) } } };
            }),
          ),
        };
      },
    ),
    route(
      "POST",
      /^\/api\/v2\/customers\/([^/]+)\/subscriptions$/,
      order
        .merge(plan)
        .extend({
          auto_collection: z.literal("on"),
          payment_source_id: text,
          meta_data: z
            .string()
            .transform((json) => JSON.parse(json) as unknown)
            .pipe(z.object({ license_assignment: text, order_key: text }).strict()),
        })
        .strict(),
      async (params, [customerId], key) => ({
        subscription: subscriptionJson(
          await engine.createSubscription(
            {
              customerId,
              ...planOf(params),
              ...orderOf(params),
              paymentSourceId: params.payment_source_id,
              licenseAssignment: params.meta_data.license_assignment,
            },
            key,
          ),
        ),
      }),
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
          await engine.estimateSubscriptionUpdate(ownerOf(billingSubscriptions, id), id, {
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
        .extend({ billing_address: address.optional(), shipping_address: address.optional() })
        .strict(),
      async (params, [id], key) => ({
        subscription: subscriptionJson(
          await engine.updateSubscription(
            ownerOf(billingSubscriptions, id),
            id,
            {
              ...planOf(params),
              ...changeOf(params),
              billingAddress: params.billing_address && addressOf(params.billing_address),
              shippingAddress: params.shipping_address && addressOf(params.shipping_address),
            },
            key,
          ),
        ),
      }),
      true,
    ),
    route(
      "POST",
      /^\/api\/v2\/subscriptions\/([^/]+)\/override_billing_profile$/,
      z.object({ payment_source_id: text, auto_collection: z.enum(["on", "off"]) }).strict(),
      async (params, [id]) => ({
        subscription: subscriptionJson(
          await engine.overrideBillingProfile(ownerOf(billingSubscriptions, id), id, {
            paymentSourceId: params.payment_source_id,
            autoCollection: params.auto_collection === "on",
          }),
        ),
      }),
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
        })
        .strict(),
      async (params, _match, key) => ({
        invoice: invoiceJson(
          await engine.createHardwareInvoice(
            {
              customerId: params.customer_id,
              paymentSourceId: params.payment_source_id,
              hardware: withoutShipping(params.addons),
              shippingAddress: params.shipping_address && addressOf(params.shipping_address),
            },
            key,
          ),
        ),
      }),
      true,
    ),
  ];

  const respond = async (request: FakeRequest): Promise<FakeResponse> => {
    const key = headerOf(request, "chargebee-idempotency-key");
    requests.push({ method: request.method, path: request.path, params: request.params, idempotencyKey: key });
    if (nextResponse) {
      const response = nextResponse;
      nextResponse = undefined;
      return response;
    }
    if (request.headers.authorization !== `Basic ${Buffer.from(`${FAKE_API_KEY}:`).toString("base64")}`) {
      return chargebeeError(401, "Sorry, authentication failed. Invalid api key", "api_authentication_failed");
    }
    for (const route of routes) {
      const match = route.method === request.method ? route.path.exec(request.path) : null;
      if (!match) continue;
      const parsed = route.parse(request.params);
      const problems = [
        ...(parsed.success ? [] : parsed.error.issues.map((issue) => `${issue.path.join(".")}: ${issue.message}`)),
        ...(route.idempotent && !key ? ["chargebee-idempotency-key header missing"] : []),
      ];
      if (problems.length > 0) {
        shapeErrors.push(`${request.method} ${request.path}: ${problems.join("; ")}`);
        return chargebeeError(400, problems.join("; "), "param_wrong_value");
      }
      try {
        const body = await route.handle(parsed.data, match.slice(1).map(decodeURIComponent), key ?? "");
        return { status: 200, json: body };
      } catch (error) {
        if (!(error instanceof ProviderError)) throw error;
        return errorOf(error);
      }
    }
    return { status: 404, html: "<html><body><h1>404 Not Found</h1></body></html>" };
  };

  const server = await startFake(respond);
  return {
    port: server.port,
    close: server.close,
    requests,
    shapeErrors,
    /** The last request to a path, to check what the adapter sent. */
    lastRequest: (method: string, path: string) =>
      requests.filter((r) => r.method === method && r.path === path).at(-1),
    /** Answers the next request with this response instead of serving it. */
    answerNextWith: (response: FakeResponse) => {
      nextResponse = response;
    },
  };
}

export type ChargebeeFake = Awaited<ReturnType<typeof startChargebeeFake>>;

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

/**
 * The adapter sends the shipping line itself; the fake checks it is the one spec 000 §9 asks for the
 * hardware in the order (the engine then adds it again from the hardware).
 */
function withoutShipping(charges: PricedParams[]): ItemQuantity[] {
  const items = charges.filter((charge) => charge.id !== SHIPPING_ADDON_ID);
  const hardwareCount = items
    .filter((charge) => catalogue.addon(charge.id)?.addonType === "hardware")
    .reduce((count, charge) => count + charge.quantity, 0);
  const sent = charges.find((charge) => charge.id === SHIPPING_ADDON_ID);
  const expected = shippingCharge(hardwareCount);
  if ((sent?.unit_price ?? null) !== (expected?.unitPrice ?? null) || (sent && sent.quantity !== 1)) {
    throw new Error(`shipping line ${JSON.stringify(sent)} does not match ${JSON.stringify(expected)}`);
  }
  return items.map(({ id, quantity }) => ({ id, quantity }));
}

function orderOf(params: z.infer<typeof order>) {
  const oneTime = withoutShipping(params.event_based_addons ?? []);
  const isHardware = (charge: ItemQuantity) => catalogue.addon(charge.id)?.addonType === "hardware";
  return {
    addons: params.addons,
    oneTimeAddons: oneTime.filter((charge) => !isHardware(charge)),
    hardware: oneTime.filter(isHardware),
    couponIds: params.coupon_ids,
    shippingAddress: params.shipping_address && addressOf(params.shipping_address),
  };
}

const changeOf = (params: z.infer<typeof planChange>) => ({
  addons: params.replace_addon_list ? (params.addons ?? []) : undefined,
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
    primary_payment_source_id: customer.primaryPaymentSourceId ?? undefined,
    refundable_credits: customer.creditBalance,
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

/**
 * Chargebee leaves the invoice estimate out when nothing is invoiced now, and gives no next-invoice estimate
 * then. The unused part of replaced items is a refundable credit note, allocated to the invoice as far as it
 * goes; the rest stays available for the next invoices.
 */
function estimateJson(estimate: Estimate) {
  const allocated = Math.min(estimate.creditsIssued, estimate.creditsApplied);
  return {
    estimate: {
      created_at: Math.floor(Date.now() / 1000),
      invoice_estimate: estimate.lineItems.length > 0 ? totalsJson(estimate) : undefined,
      credit_note_estimates:
        estimate.creditsIssued > 0
          ? [
              {
                type: "refundable",
                price_type: "tax_exclusive",
                currency_code: "USD",
                sub_total: estimate.creditsIssued,
                total: estimate.creditsIssued,
                amount_allocated: allocated,
                amount_available: estimate.creditsIssued - allocated,
              },
            ]
          : undefined,
      subscription_estimate: {
        currency_code: "USD",
        next_billing_at: secondsOrUndefined(estimate.nextBilling?.at ?? null),
      },
    },
  };
}

function invoiceJson(invoice: Invoice) {
  return {
    ...totalsJson(invoice),
    id: invoice.id,
    customer_id: invoice.customerId,
    subscription_id: invoice.subscriptionId ?? undefined,
    status: invoice.status,
    amount_paid: invoice.amountPaid,
    date: seconds(invoice.date),
  };
}

// --- errors ------------------------------------------------------------------------------------

function chargebeeError(status: number, message: string, code: string, param?: string): FakeResponse {
  return {
    status,
    json: { message, type: "invalid_request", api_error_code: code, param, http_status_code: status },
  };
}

/** The engine's failure as Chargebee answers: 4xx with its message for a refusal, 503 when busy, 500 otherwise. */
function errorOf(error: ProviderError): FakeResponse {
  if (error.kind === "retryable") return chargebeeError(503, error.message, "site_not_ready");
  if (error.kind === "unknown") return chargebeeError(500, error.message, "internal_error");
  const notFound = error.code === "not_found";
  return chargebeeError(
    notFound ? 404 : 400,
    error.providerMessage ?? error.message,
    notFound ? "resource_not_found" : (error.code ?? "invalid_request"),
    error.field,
  );
}
