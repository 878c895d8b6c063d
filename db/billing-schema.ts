import { index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import type * as Stored from "./billing-values";
import { faultColumns, timestamp } from "./provider-columns";

/**
 * The embedded billing engine's data (`billing_*`) and the embedded card gateway's vault (`card_*`):
 * what Chargebee and Stripe keep when the real adapters are configured. The catalogue (plans, add-ons,
 * coupons) is not here: it is the fixed price list in db/catalogue.json.
 * Dates are stored in milliseconds but always whole seconds, as the real providers report them.
 */

export const billingCustomers = sqliteTable("billing_customers", {
  /** The portal user's billing customer id. */
  id: text("id").primaryKey(),
  firstName: text("first_name").notNull().default(""),
  lastName: text("last_name").notNull().default(""),
  email: text("email").notNull().default(""),
  phone: text("phone").notNull().default(""),
  company: text("company").notNull().default(""),
  billingAddress: text("billing_address", { mode: "json" }).$type<Stored.Address>(),
  primaryPaymentSourceId: text("primary_payment_source_id"),
  /** Credits kept for the customer's next invoices (cents), e.g. the unused part of a plan that exceeded an invoice. */
  creditBalance: integer("credit_balance").notNull().default(0),
  createdAt: timestamp("created_at").notNull(),
});

export const billingPaymentSources = sqliteTable(
  "billing_payment_sources",
  {
    id: text("id").primaryKey(),
    customerId: text("customer_id")
      .notNull()
      .references(() => billingCustomers.id, { onDelete: "cascade" }),
    status: text("status").$type<Stored.PaymentSourceStatus>().notNull(),
    /** `<gateway customer>/<card or payment method>` in the card gateway. */
    referenceId: text("reference_id").notNull(),
    brand: text("brand").notNull(),
    last4: text("last4").notNull(),
    firstName: text("first_name").notNull().default(""),
    lastName: text("last_name").notNull().default(""),
    expiryMonth: integer("expiry_month").notNull(),
    expiryYear: integer("expiry_year").notNull(),
    createdAt: timestamp("created_at").notNull(),
  },
  (table) => [index("billing_payment_sources_customer_idx").on(table.customerId)],
);

export const billingSubscriptions = sqliteTable(
  "billing_subscriptions",
  {
    id: text("id").primaryKey(),
    customerId: text("customer_id")
      .notNull()
      .references(() => billingCustomers.id, { onDelete: "cascade" }),
    planId: text("plan_id").notNull(),
    planQuantity: integer("plan_quantity").notNull(),
    planUnitPrice: integer("plan_unit_price").notNull(),
    /** Recurring add-ons. */
    addons: text("addons", { mode: "json" }).$type<Stored.ItemQuantity[]>().notNull(),
    status: text("status").$type<Stored.SubscriptionStatus>().notNull(),
    currentTermStart: timestamp("current_term_start").notNull(),
    currentTermEnd: timestamp("current_term_end").notNull(),
    nextBillingAt: timestamp("next_billing_at").notNull(),
    paymentSourceId: text("payment_source_id"),
    autoCollection: integer("auto_collection", { mode: "boolean" }).notNull().default(true),
    shippingAddress: text("shipping_address", { mode: "json" }).$type<Stored.Address>(),
    licenseAssignment: text("license_assignment"),
    createdAt: timestamp("created_at").notNull(),
  },
  (table) => [index("billing_subscriptions_customer_idx").on(table.customerId)],
);

export const billingInvoices = sqliteTable(
  "billing_invoices",
  {
    id: text("id").primaryKey(),
    customerId: text("customer_id")
      .notNull()
      .references(() => billingCustomers.id, { onDelete: "cascade" }),
    subscriptionId: text("subscription_id"),
    status: text("status").$type<Stored.InvoiceStatus>().notNull(),
    lineItems: text("line_items", { mode: "json" }).$type<Stored.LineItem[]>().notNull(),
    discounts: text("discounts", { mode: "json" }).$type<Stored.Discount[]>().notNull(),
    subTotal: integer("sub_total").notNull(),
    total: integer("total").notNull(),
    creditsApplied: integer("credits_applied").notNull(),
    amountPaid: integer("amount_paid").notNull(),
    amountDue: integer("amount_due").notNull(),
    paymentSourceId: text("payment_source_id"),
    shippingAddress: text("shipping_address", { mode: "json" }).$type<Stored.Address>(),
    date: timestamp("date").notNull(),
  },
  (table) => [index("billing_invoices_customer_idx").on(table.customerId)],
);

/** The first result of every creating call, by its idempotency key. */
export const billingIdempotencyKeys = sqliteTable("billing_idempotency_keys", {
  key: text("key").primaryKey(),
  call: text("call").notNull(),
  result: text("result", { mode: "json" }).$type<unknown>().notNull(),
  createdAt: timestamp("created_at").notNull(),
});

/** Faults to inject into the embedded engine's calls: fail, hang and then time out, or lose the answer. */
export const billingFaults = sqliteTable("billing_faults", faultColumns(["fail", "hang", "lose"]));

/**
 * The embedded card gateway's vault: one-time tokens from the test tokenizer and the payment methods
 * made from them. Holds only what a gateway reports back (brand, last four digits, expiry), never the number.
 */
export const cardTokens = sqliteTable("card_tokens", {
  id: text("id").primaryKey(),
  kind: text("kind", { enum: ["token", "payment_method"] }).notNull(),
  brand: text("brand").notNull(),
  last4: text("last4").notNull(),
  expiryMonth: integer("expiry_month").notNull(),
  expiryYear: integer("expiry_year").notNull(),
  firstName: text("first_name").notNull().default(""),
  lastName: text("last_name").notNull().default(""),
  /** The gateway customer a payment method is attached to. */
  gatewayCustomer: text("gateway_customer"),
  usedAt: timestamp("used_at"),
  createdAt: timestamp("created_at").notNull(),
});
