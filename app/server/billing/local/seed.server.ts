import { sql } from "drizzle-orm";
import { addPeriod } from "~/domain/pricing";
import { gatewayCustomerFor } from "~/server/providers/card-vault.server";
import { env } from "~/server/platform/config/env.server";
import { wholeSeconds, type EmbeddedStore } from "~/server/providers/embedded.server";
import {
  billingCustomers,
  billingInvoices,
  billingPaymentSources,
  billingSequences,
  billingSubscriptions,
} from "~/server/platform/database/tables.server";
import { catalogue } from "../catalogue.server";
import type { Address, Invoice, InvoicePurpose, ItemQuantity, LineItem, Subscription } from "../port.server";

const DAY = 24 * 60 * 60 * 1000;

/** Ids the portal's demo seed already uses for the demo customer's user and license. */
export const DEMO_BILLING = {
  customerId: "cust_demo_customer",
  subscriptionId: "sub_demo_core_monthly",
  paymentSourceId: "src_demo_visa",
} as const;

/** The demo distributor's billing customer and card (SecureLine Resellers, which pays for its end customers). */
export const RESELLER_DEMO_BILLING = {
  customerId: "cust_demo_distributor",
  paymentSourceId: "src_demo_reseller_mastercard",
} as const;

/** A demo subscription: what it is, when it started, and whether auto-renew was turned off before its term ended. */
export interface DemoSubscriptionSpec {
  id: string;
  planId: string;
  planQuantity: number;
  addons: ItemQuantity[];
  /** Days before now it started. */
  startedDaysAgo: number;
  /** The organization its license is for. */
  licenseAssignment: string;
  /** Auto-renew turned off: cancelled at the end of its first term (a term that has ended by now). */
  endedAtFirstTerm?: boolean;
}

/** The demo customer's subscriptions, behind their four recurring licenses (app/server/demo-seed.server.ts). */
export const DEMO_SUBSCRIPTIONS: DemoSubscriptionSpec[] = [
  {
    id: DEMO_BILLING.subscriptionId,
    planId: "core-monthly",
    planQuantity: 10,
    addons: [],
    startedDaysAgo: 120,
    licenseAssignment: "Northwind Clinics",
  },
  {
    id: "sub_demo_advanced_yearly",
    planId: "advanced-yearly",
    planQuantity: 25,
    addons: [{ id: "gatekeeper-cloud-yearly", quantity: 1 }],
    startedDaysAgo: 10,
    licenseAssignment: "Northwind Clinics East",
  },
  {
    id: "sub_demo_ultimate_yearly",
    planId: "ultimate-yearly",
    planQuantity: 15,
    addons: [{ id: "gatekeeper-cloud-yearly", quantity: 1 }],
    startedDaysAgo: 200,
    licenseAssignment: "Northwind Clinics West",
  },
  {
    id: "sub_demo_core_yearly",
    planId: "core-yearly",
    planQuantity: 5,
    addons: [],
    startedDaysAgo: 430,
    licenseAssignment: "Northwind Clinics",
    endedAtFirstTerm: true,
  },
];

/**
 * The demo distributor's subscriptions, one behind each of its three end customers' licenses, at reseller prices:
 * a yearly one with cloud hosting (its Hub is deployed), a monthly one started three days ago (so it renews within
 * 30 days, and the time machine's 23 days bring its 7-day reminder), and a yearly one renewing in half a year.
 */
export const RESELLER_DEMO_SUBSCRIPTIONS: DemoSubscriptionSpec[] = [
  {
    id: "sub_demo_reseller_harbor",
    planId: "reseller-advanced-yearly",
    planQuantity: 20,
    addons: [{ id: "reseller-gatekeeper-cloud-yearly", quantity: 1 }],
    startedDaysAgo: 60,
    licenseAssignment: "Harbor Dental Group",
  },
  {
    id: "sub_demo_reseller_meridian",
    planId: "reseller-core-monthly",
    planQuantity: 8,
    addons: [{ id: "reseller-on-premise-install-monthly", quantity: 1 }],
    startedDaysAgo: 3,
    licenseAssignment: "Meridian Law LLP",
  },
  {
    id: "sub_demo_reseller_alpine",
    planId: "reseller-ultimate-yearly",
    planQuantity: 40,
    addons: [{ id: "reseller-on-premise-install-yearly", quantity: 1 }],
    startedDaysAgo: 180,
    licenseAssignment: "Alpine Logistics AG",
  },
];

/** What the seed made at the engine, in the port's terms: the portal's copies are made from it. */
export interface DemoBilling {
  subscriptions: Subscription[];
  invoices: Invoice[];
}

/** A demo billing customer at the engine: who, their card on file, their billing address and subscriptions. */
interface DemoCustomer {
  customerId: string;
  paymentSourceId: string;
  person: { firstName: string; lastName: string; email: string; phone: string; company: string };
  card: { brand: string; last4: string };
  address: Address;
  /** Days before now the customer and their card were made. */
  sinceDays: number;
  subscriptions: DemoSubscriptionSpec[];
}

const DEMO_CUSTOMERS: DemoCustomer[] = [
  {
    ...DEMO_BILLING,
    person: {
      firstName: "Dana",
      lastName: "Whitfield",
      email: "customer@example.com",
      phone: "+1 415 555 0134",
      company: "Northwind Clinics",
    },
    card: { brand: "visa", last4: "4242" },
    address: {
      firstName: "Dana",
      lastName: "Whitfield",
      line1: "450 Mission Street",
      line2: "Suite 300",
      city: "San Francisco",
      state: "California",
      stateCode: "CA",
      zip: "94105",
      country: "US",
    },
    sinceDays: 430,
    subscriptions: DEMO_SUBSCRIPTIONS,
  },
  {
    ...RESELLER_DEMO_BILLING,
    person: {
      firstName: "Ravi",
      lastName: "Patel",
      email: "distributor@example.com",
      phone: "+44 20 7946 0321",
      company: "SecureLine Resellers",
    },
    card: { brand: "mastercard", last4: "4444" },
    address: {
      firstName: "Ravi",
      lastName: "Patel",
      line1: "20 Finsbury Circus",
      city: "London",
      state: "London",
      zip: "EC2M 7EA",
      country: "GB",
    },
    sinceDays: 200,
    subscriptions: RESELLER_DEMO_SUBSCRIPTIONS,
  },
];

/**
 * The demo billing data in the embedded engine: the demo customer's and the demo distributor's, each with a card on
 * file, a billing address, and a subscription behind each of their recurring licenses, in the term it is in today
 * (one ended at its first term, its auto-renew off), with a paid invoice for every term so far. Nothing is due when
 * the engine first looks, so what the portal is seeded with is what the engine holds. With a real billing provider
 * there is nothing to seed here (null).
 */
export async function seedBillingDemo(
  store: EmbeddedStore,
  now = new Date(),
  provider = env.BILLING_PROVIDER,
): Promise<DemoBilling | null> {
  if (provider !== "local") return null;
  const today = wholeSeconds(now);
  const made: DemoBilling = { subscriptions: [], invoices: [] };
  let number = 0;
  for (const customer of DEMO_CUSTOMERS) {
    const since = new Date(today.getTime() - customer.sinceDays * DAY);
    await store.insert(billingCustomers).values({
      id: customer.customerId,
      ...customer.person,
      billingAddress: customer.address,
      primaryPaymentSourceId: customer.paymentSourceId,
      createdAt: since,
    });
    await store.insert(billingPaymentSources).values({
      id: customer.paymentSourceId,
      customerId: customer.customerId,
      status: "valid",
      referenceId: `${gatewayCustomerFor(customer.customerId)}/${customer.paymentSourceId.replace(/^src_/, "card_")}`,
      ...customer.card,
      firstName: customer.person.firstName,
      lastName: customer.person.lastName,
      expiryMonth: 12,
      expiryYear: today.getUTCFullYear() + 3,
      createdAt: since,
    });
    for (const spec of customer.subscriptions) {
      const terms = termsSoFar(spec, today);
      for (const [index, term] of terms.entries()) {
        number += 1;
        made.invoices.push(
          await seedInvoice(store, customer, spec, term, String(number), index === 0 ? "new_subscription" : "renewal"),
        );
      }
      made.subscriptions.push(await seedSubscription(store, customer, spec, terms[terms.length - 1], terms[0].start));
    }
  }
  // Invoices made from now on are numbered after the seeded ones.
  await store
    .insert(billingSequences)
    .values({ name: "invoice", value: number })
    .onConflictDoUpdate({ target: billingSequences.name, set: { value: sql`${number}` } });
  return made;
}

type Term = { start: Date; end: Date };

/** The subscription's terms from its start to the one it is in today (its first only, when it ended there). */
function termsSoFar(spec: DemoSubscriptionSpec, today: Date): Term[] {
  const plan = catalogue.plan(spec.planId);
  if (!plan) throw new Error(`The price list has no plan ${spec.planId}.`);
  const terms: Term[] = [];
  let start = new Date(today.getTime() - spec.startedDaysAgo * DAY);
  for (;;) {
    const end = addPeriod(start, plan.period);
    terms.push({ start, end });
    if (spec.endedAtFirstTerm || end > today) return terms;
    start = end;
  }
}

/** The recurring items of a term, priced from the catalogue. */
function lineItemsOf(spec: DemoSubscriptionSpec, term: Term): LineItem[] {
  const items: (ItemQuantity & { entityType: "plan" | "addon" })[] = [
    { id: spec.planId, quantity: spec.planQuantity, entityType: "plan" },
    ...spec.addons.map((addon) => ({ ...addon, entityType: "addon" as const })),
  ];
  return items.map(({ id, quantity, entityType }) => {
    const item = entityType === "plan" ? catalogue.plan(id) : catalogue.addon(id);
    if (!item) throw new Error(`The price list has no ${id}.`);
    return {
      entityType,
      entityId: id,
      description: item.name,
      quantity,
      unitAmount: item.price,
      amount: item.price * quantity,
      dateFrom: term.start,
      dateTo: term.end,
    };
  });
}

async function seedInvoice(
  store: EmbeddedStore,
  customer: DemoCustomer,
  spec: DemoSubscriptionSpec,
  term: Term,
  id: string,
  purpose: InvoicePurpose,
): Promise<Invoice> {
  const lineItems = lineItemsOf(spec, term);
  const total = lineItems.reduce((sum, item) => sum + item.amount, 0);
  const invoice: Invoice = {
    id,
    customerId: customer.customerId,
    subscriptionId: spec.id,
    status: "paid",
    lineItems,
    discounts: [],
    subTotal: total,
    total,
    creditsApplied: 0,
    amountPaid: total,
    amountDue: 0,
    date: term.start,
    number: id,
    purpose,
    paidAt: term.start,
    nextRetryAt: null,
    paymentFailure: null,
    resourceVersion: term.start.getTime(),
    // The seller is named at start-up, from the configuration (recordSellerOnEarlierInvoices).
    billedTo: {
      name: customer.person.company,
      contact: `${customer.person.firstName} ${customer.person.lastName}`,
      email: customer.person.email,
      address: customer.address,
      vatNumber: null,
      vatNumberValid: false,
    },
    poNumber: null,
  };
  // The engine's row is the invoice with how it was paid; its number is its id.
  const { number: _number, ...columns } = invoice;
  await store.insert(billingInvoices).values({
    ...columns,
    paymentSourceId: customer.paymentSourceId,
    billingAddress: customer.address,
    paymentAttempts: 1,
  });
  return invoice;
}

async function seedSubscription(
  store: EmbeddedStore,
  customer: DemoCustomer,
  spec: DemoSubscriptionSpec,
  term: Term,
  startedAt: Date,
): Promise<Subscription> {
  const plan = catalogue.plan(spec.planId);
  if (!plan) throw new Error(`The price list has no plan ${spec.planId}.`);
  const ended = Boolean(spec.endedAtFirstTerm);
  const subscription: Subscription = {
    id: spec.id,
    customerId: customer.customerId,
    planId: plan.id,
    planQuantity: spec.planQuantity,
    planUnitPrice: plan.price,
    status: ended ? "cancelled" : "active",
    addons: spec.addons,
    currentTermStart: term.start,
    currentTermEnd: term.end,
    nextBillingAt: ended ? null : term.end,
    paymentSourceId: customer.paymentSourceId,
    autoCollection: true,
    shippingAddress: null,
    licenseAssignment: spec.licenseAssignment,
    cancelledAt: ended ? term.end : null,
    totalDues: 0,
    dueSince: null,
    resourceVersion: (ended ? term.end : term.start).getTime(),
  };
  await store.insert(billingSubscriptions).values({
    id: spec.id,
    customerId: subscription.customerId,
    planId: plan.id,
    planQuantity: spec.planQuantity,
    planUnitPrice: plan.price,
    addons: spec.addons,
    status: subscription.status,
    currentTermStart: term.start,
    currentTermEnd: term.end,
    // The engine keeps the date a cancelled subscription would have billed; the port says null.
    nextBillingAt: term.end,
    paymentSourceId: customer.paymentSourceId,
    autoCollection: true,
    licenseAssignment: spec.licenseAssignment,
    createdAt: startedAt,
    cancelledAt: subscription.cancelledAt,
    resourceVersion: subscription.resourceVersion,
  });
  return subscription;
}
