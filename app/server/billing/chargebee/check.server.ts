import { randomUUID } from "node:crypto";
import { z } from "zod";
import priceList from "~db/catalogue.json";
import { addonOf, planOf, type CatalogueEntry } from "../catalogue.server";
import type { Address, BillingProvider, Invoice, PaymentSource, Subscription } from "../port.server";
import { chargebeeSdk, createChargebeeBilling, type ChargebeeOptions } from "./adapter.server";
import { billingErrorOf } from "./mapping.server";

/**
 * `npm run chargebee:check`: every call the portal makes to Chargebee, made once on a throwaway customer of a
 * test site, each call's result printed, so a first deployment finds any difference between the site and what
 * the portal sends in minutes instead of at a customer's first order. It refuses a live site: it creates a
 * customer, charges a Stripe test card and deletes what it made.
 */

/** Chargebee names a site's test twin `<site>-test`; anything else may be a live site with real cards. */
const TEST_SITE = /-test$/;

const configSchema = z.object({
  CHARGEBEE_SITE: z
    .string({ required_error: "is required (the test site's name, e.g. acme-test)" })
    .min(1, "is required (the test site's name, e.g. acme-test)")
    .regex(TEST_SITE, "must be a test site (its name ends in -test): the check creates and charges a customer"),
  CHARGEBEE_API_KEY: z
    .string({ required_error: "is required" })
    .min(1, "is required")
    .refine((key) => !key.startsWith("live_"), "is a live site's key (live_...): the check needs a test site's"),
  CHARGEBEE_GATEWAY_ACCOUNT_ID: z.string({ required_error: "is required" }).min(1, "is required"),
  /** A card token the site's Stripe gateway takes; Stripe's test token for a Visa by default. */
  CHARGEBEE_CHECK_CARD_TOKEN: z.string().min(1).default("tok_visa"),
});

export interface CheckConfig {
  options: ChargebeeOptions;
  cardToken: string;
}

/** The check's configuration from the environment; a missing or live value is refused in one line. */
export function checkConfig(env: Record<string, string | undefined>): CheckConfig {
  const parsed = configSchema.safeParse(env);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new Error(`${issue.path.join(".")} ${issue.message}`);
  }
  const { CHARGEBEE_SITE, CHARGEBEE_API_KEY, CHARGEBEE_GATEWAY_ACCOUNT_ID, CHARGEBEE_CHECK_CARD_TOKEN } = parsed.data;
  return {
    options: { site: CHARGEBEE_SITE, apiKey: CHARGEBEE_API_KEY, gatewayAccountId: CHARGEBEE_GATEWAY_ACCOUNT_ID },
    cardToken: CHARGEBEE_CHECK_CARD_TOKEN,
  };
}

export interface CheckResult {
  call: string;
  outcome: "ok" | "failed" | "skipped";
  detail: string;
}

/** A step that cannot run because one it needs failed. */
class Skipped extends Error {}

function need<T>(value: T | undefined, what: string): T {
  if (value === undefined) throw new Skipped(`needs ${what}`);
  return value;
}

const ADDRESS: Address = {
  firstName: "Chargebee",
  lastName: "Check",
  company: "GateKeeper Portal check",
  line1: "1 Main Street",
  city: "Seattle",
  state: "Washington",
  stateCode: "WA",
  zip: "98101",
  country: "US",
};

/** What of db/catalogue.json the site does not have as the portal expects it: ids, prices, add-on types. */
function catalogueDifferences<T extends { id: string; price: number }>(
  listed: T[],
  expected: T[],
  same: (site: T, ours: T) => boolean = () => true,
): string[] {
  const byId = new Map(listed.map((item) => [item.id, item]));
  return expected.flatMap((ours) => {
    const site = byId.get(ours.id);
    if (!site) return [`${ours.id} is missing`];
    if (site.price !== ours.price) return [`${ours.id} costs ${site.price}, not ${ours.price}`];
    return same(site, ours) ? [] : [`${ours.id} is of another type`];
  });
}

const describeSubscription = (subscription: Subscription) =>
  `${subscription.id}, ${subscription.status}, ${subscription.planQuantity} x ${subscription.planId}, add-ons ${
    subscription.addons.map((addon) => addon.id).join(", ") || "none"
  }`;
const describeInvoice = (invoice: Invoice) => `${invoice.id}, ${invoice.status}, total ${invoice.total} cents`;

/**
 * Walks the portal's calls in the order a customer's first order, a license update and a trial make them,
 * on a throwaway customer, and deletes that customer's subscription and the customer at the end (also after a
 * failure). `report` gets each call's result as it comes.
 */
export async function walkChargebee(
  config: CheckConfig,
  report: (result: CheckResult) => void = () => undefined,
): Promise<CheckResult[]> {
  const billing: BillingProvider = createChargebeeBilling(config.options);
  const results: CheckResult[] = [];
  const run = async <T>(call: string, step: () => Promise<{ value: T; detail: string }>): Promise<T | undefined> => {
    let result: CheckResult;
    let value: T | undefined;
    try {
      const done = await step();
      value = done.value;
      result = { call, outcome: "ok", detail: done.detail };
    } catch (error) {
      result =
        error instanceof Skipped
          ? { call, outcome: "skipped", detail: error.message }
          : { call, outcome: "failed", detail: error instanceof Error ? error.message : String(error) };
    }
    results.push(result);
    report(result);
    return value;
  };
  const check = (ok: boolean, detail: string) => {
    if (!ok) throw new Error(detail);
    return detail;
  };

  const started = new Date();
  const runId = randomUUID();
  const customerId = `cust_check_${runId.slice(0, 8)}`;
  // As long as a job's keys (kind, draft, digest, step, refusals): the adapter must shorten them for Chargebee.
  const key = (step: string) => `chargebee-check:${runId}:${"k".repeat(43)}:${step}:0`;
  const expectedPlans = (priceList.plans as CatalogueEntry[]).map(planOf);
  const expectedAddons = (priceList.addons as CatalogueEntry[]).map(addonOf);
  const coupon = priceList.coupons.find((entry) => entry.status === "active")?.id ?? "WELCOME10";
  const perUnit = expectedAddons.find((addon) => addon.addonType === "hardware" && addon.chargedPerUnit);
  const onOff = expectedAddons.find((addon) => addon.addonType === "recurring" && !addon.chargedPerUnit);
  const extra = expectedAddons.find((addon) => addon.addonType === "recurring" && addon.id.startsWith("offsite"));
  const hardware = [{ id: perUnit?.id ?? "usb-sensor", quantity: 6 }];
  const order = {
    planId: "core-monthly",
    planQuantity: 3,
    addons: [{ id: onOff?.id ?? "gatekeeper-cloud-monthly", quantity: 1 }],
    oneTimeAddons: [{ id: "virtual-installation", quantity: 1 }],
    hardware,
    couponIds: [coupon],
    shippingAddress: ADDRESS,
  };

  await run("plan.list", async () => {
    const plans = await billing.listPlans();
    const differences = catalogueDifferences(plans, expectedPlans);
    return {
      value: plans,
      detail: check(
        differences.length === 0,
        `${plans.length} plans; ${differences.join("; ") || "db/catalogue.json's all there at its prices"}`,
      ),
    };
  });
  await run("addon.list", async () => {
    const addons = await billing.listAddons();
    const differences = catalogueDifferences(
      addons,
      expectedAddons,
      (site, ours) => site.chargedPerUnit === ours.chargedPerUnit,
    );
    return {
      value: addons,
      detail: check(
        differences.length === 0,
        `${addons.length} add-ons, ${addons.filter((addon) => !addon.chargedPerUnit).length} on_off; ${differences.join("; ") || "db/catalogue.json's all there at its prices and types"}`,
      ),
    };
  });
  await run("coupon.retrieve", async () => {
    const found = await billing.retrieveCoupon(coupon);
    return { value: found, detail: check(found.status === "active", `${found.id}, ${found.status}`) };
  });
  await run("estimate.create_subscription", async () => {
    const estimate = await billing.estimateNewSubscription(order);
    return { value: estimate, detail: `${estimate.lineItems.length} lines, due ${estimate.amountDue} cents` };
  });
  const customer = await run("customer.create", async () => {
    const made = await billing.ensureCustomer(
      customerId,
      { firstName: "Chargebee", lastName: "Check", email: "chargebee-check@example.com", phone: "", company: "" },
      key("customer"),
    );
    return { value: made, detail: made.id };
  });
  await run("customer.update", async () => {
    const id = need(customer, "the customer").id;
    const updated = await billing.updateCustomer(id, {
      firstName: "Chargebee",
      lastName: "Check",
      email: "chargebee-check@example.com",
      phone: "+1 206 555 0100",
      company: "GateKeeper Portal check",
    });
    return { value: updated, detail: check(updated.company === "GateKeeper Portal check", "profile saved") };
  });
  await run("customer.update_billing_info", async () => {
    const updated = await billing.updateBillingInfo(need(customer, "the customer").id, {
      billingAddress: ADDRESS,
      vatNumber: null,
      vatNumberStatus: "unchecked",
    });
    return { value: updated, detail: check(updated.billingAddress?.stateCode === "WA", "billing address saved") };
  });
  const card = await run<PaymentSource>("payment_source.create_using_temp_token", async () => {
    const source = await billing.createPaymentSourceFromTempToken(
      { customerId: need(customer, "the customer").id, tmpToken: config.cardToken, setAsPrimary: true },
      key("card"),
    );
    return {
      value: source,
      detail: `${source.id}, ${source.card?.brand} ending ${source.card?.last4}, ${source.status}`,
    };
  });
  await run("payment_source.list", async () => {
    const sources = await billing.listPaymentSources(need(customer, "the customer").id);
    const id = need(card, "the card").id;
    return {
      value: sources,
      detail: check(
        sources.some((source) => source.id === id),
        `${sources.length} card(s)`,
      ),
    };
  });
  await run("estimate.create_subscription_estimate", async () => {
    const estimate = await billing.estimateNewSubscription({ ...order, customerId: need(customer, "the customer").id });
    return { value: estimate, detail: `${estimate.lineItems.length} lines, due ${estimate.amountDue} cents` };
  });
  const subscription = await run("subscription.create_for_customer", async () => {
    const made = await billing.createSubscription(
      {
        ...order,
        customerId: need(customer, "the customer").id,
        paymentSourceId: need(card, "the card").id,
        licenseAssignment: "GateKeeper Portal check",
      },
      key("create-subscription"),
    );
    return { value: made, detail: describeSubscription(made) };
  });
  await run("subscription.list", async () => {
    const made = need(subscription, "the subscription");
    const found = await billing.findSubscriptionByKey(made.customerId, key("create-subscription"));
    return { value: found, detail: check(found?.id === made.id, `found ${found?.id ?? "nothing"} by its key`) };
  });
  const change = {
    planId: "core-monthly",
    planQuantity: 4,
    addons: [...order.addons, ...(extra ? [{ id: extra.id, quantity: 1 }] : [])],
  };
  await run("estimate.update_subscription", async () => {
    const made = need(subscription, "the subscription");
    const estimate = await billing.estimateSubscriptionUpdate(made.customerId, made.id, change);
    return { value: estimate, detail: `due ${estimate.amountDue} cents, next ${estimate.nextBilling?.amount} cents` };
  });
  await run("subscription.update", async () => {
    const made = need(subscription, "the subscription");
    const updated = await billing.updateSubscription(made.customerId, made.id, change, key("update-subscription"));
    return { value: updated, detail: check(updated.planQuantity === 4, describeSubscription(updated)) };
  });
  await run("subscription.override_billing_profile", async () => {
    const made = need(subscription, "the subscription");
    const updated = await billing.overrideBillingProfile(made.customerId, made.id, {
      paymentSourceId: need(card, "the card").id,
      autoCollection: true,
    });
    return {
      value: updated,
      detail: check(updated.autoCollection, `auto collection on, card ${updated.paymentSourceId}`),
    };
  });
  const invoice = await run("invoice.create", async () => {
    const made = await billing.createHardwareInvoice(
      {
        customerId: need(customer, "the customer").id,
        paymentSourceId: need(card, "the card").id,
        hardware,
        shippingAddress: ADDRESS,
      },
      key("purchase-hardware"),
    );
    return { value: made, detail: describeInvoice(made) };
  });
  await run("invoice.list", async () => {
    const made = need(invoice, "the invoice");
    const found = await billing.findInvoiceByKey(made.customerId, key("purchase-hardware"));
    const all = await billing.listInvoices(made.customerId);
    const purposes = all.map((listed) => listed.purpose).join(", ");
    return {
      value: found,
      detail: check(
        found?.id === made.id && all.some((listed) => listed.id === made.id),
        `found ${found?.id ?? "nothing"} by its key; ${all.length} invoices (${purposes})`,
      ),
    };
  });
  await run("invoice.retrieve", async () => {
    const made = need(invoice, "the invoice");
    const retrieved = await billing.retrieveInvoice(made.customerId, made.id);
    return {
      value: retrieved,
      detail: check(retrieved.purpose === "one_time", `invoice ${retrieved.number}, ${retrieved.purpose}`),
    };
  });
  await run("invoice.pdf", async () => {
    const made = need(invoice, "the invoice");
    const pdf = await billing.invoicePdf(made.customerId, made.id);
    return {
      value: pdf,
      detail: check(
        pdf.kind === "url",
        pdf.kind === "url" ? `download until ${pdf.expiresAt.toISOString()}` : "no URL",
      ),
    };
  });
  // A payment intent for the card, as a charge its bank asks about needs: made and read, never authorized or
  // spent (it expires unconsumed an hour later), to prove the site takes the portal's parameters.
  const intent = await run("payment_intent.create", async () => {
    const made = await billing.createPaymentIntent(
      {
        customerId: need(customer, "the customer").id,
        paymentSourceId: need(card, "the card").id,
        amount: 100,
        returnUrl: "/",
      },
      key("payment-intent"),
    );
    return { value: made, detail: check(made.status === "requires_action", `${made.id}, ${made.status}`) };
  });
  await run("payment_intent.retrieve", async () => {
    const made = need(intent, "the payment intent");
    const read = await billing.retrievePaymentIntent(need(customer, "the customer").id, made.id);
    return {
      value: read,
      detail: check(read.paymentSourceId === made.paymentSourceId, `${read.status}, card ${read.paymentSourceId}`),
    };
  });
  await run("subscription.cancel", async () => {
    const made = need(subscription, "the subscription");
    const scheduled = await billing.cancelSubscriptionAtTermEnd(made.customerId, made.id, key("auto-renew-off"));
    return {
      value: scheduled,
      detail: check(
        scheduled.status === "non_renewing",
        `${scheduled.status}, cancelled at ${scheduled.cancelledAt?.toISOString() ?? "no date"}`,
      ),
    };
  });
  await run("subscription.remove_scheduled_cancellation", async () => {
    const made = need(subscription, "the subscription");
    const resumed = await billing.removeScheduledCancellation(made.customerId, made.id, key("auto-renew-on"));
    return { value: resumed, detail: check(resumed.status === "active", resumed.status) };
  });
  await run("event.list", async () => {
    const id = need(customer, "the customer").id;
    // Every event Chargebee lists must read as the port's; the check's own may take a moment to be listed.
    const { events } = await billing.listEvents({ since: started });
    const mine = events.filter((event) => event.customerId === id);
    return { value: mine, detail: `${events.length} events since the check began, ${mine.length} of its customer` };
  });
  await run("payment_source.delete_local", async () => {
    const id = need(card, "the card").id;
    await billing.deleteLocalPaymentSource(need(customer, "the customer").id, id);
    return { value: id, detail: `${id} removed from Chargebee (the gateway keeps it)` };
  });

  // Clean-up with the SDK itself: the portal never deletes a subscription or a customer.
  const Chargebee = await chargebeeSdk();
  const chargebee = new Chargebee({
    site: config.options.site,
    apiKey: config.options.apiKey,
    ...config.options.endpoint,
  });
  const sdk = async (operation: string, call: () => Promise<unknown>) => {
    try {
      await call();
    } catch (failure) {
      throw billingErrorOf(operation, true, failure);
    }
  };
  await run("subscription.delete", async () => {
    const id = need(subscription, "the subscription").id;
    await sdk("subscription.delete", () => chargebee.subscription.delete(id));
    return { value: id, detail: `${id} deleted` };
  });
  await run("customer.delete", async () => {
    const id = need(customer, "the customer").id;
    await sdk("customer.delete", () => chargebee.customer.delete(id));
    return { value: id, detail: `${id} deleted` };
  });
  return results;
}

const MARKS = { ok: "✓", failed: "✗", skipped: "-" } as const;

/** One line per call: mark, call, and what came back or why it failed. */
export const formatResult = (result: CheckResult) =>
  `${MARKS[result.outcome]} ${result.call.padEnd(40)} ${result.detail}`;

/**
 * The command: the configuration from the environment, the walk, a line per call, and the exit code (0 when
 * every call went through, 1 when one failed, 2 when the configuration was refused). `connection` points the
 * SDK elsewhere after the site was checked (the test's loopback fake).
 */
export async function runChargebeeCheck(
  env: Record<string, string | undefined>,
  print: (line: string) => void,
  connection: Partial<Pick<ChargebeeOptions, "site" | "endpoint">> = {},
): Promise<number> {
  let config: CheckConfig;
  try {
    config = checkConfig(env);
  } catch (error) {
    print(`chargebee:check refused: ${error instanceof Error ? error.message : String(error)}`);
    return 2;
  }
  print(`Chargebee check on ${config.options.site}: every call the portal makes, on a throwaway customer.`);
  const results = await walkChargebee({ ...config, options: { ...config.options, ...connection } }, (result) =>
    print(formatResult(result)),
  );
  const failed = results.filter((result) => result.outcome !== "ok").length;
  print(
    failed === 0
      ? `All ${results.length} calls went through.`
      : `${failed} of ${results.length} calls did not go through.`,
  );
  return failed === 0 ? 0 : 1;
}
