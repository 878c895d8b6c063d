import { bigint, boolean, index, integer, jsonb, pgTable, primaryKey, text } from "drizzle-orm/pg-core";
import type * as Stored from "../billing-values";
import { faultColumns, timestamp } from "./provider-columns";

/**
 * The embedded billing engine's (`billing_*`) and card gateway's (`card_*`) tables on PostgreSQL, the same as
 * on SQLite (db/billing-schema.ts, where each is described).
 */

export const billingCustomers = pgTable("billing_customers", {
  id: text("id").primaryKey(),
  firstName: text("first_name").notNull().default(""),
  lastName: text("last_name").notNull().default(""),
  email: text("email").notNull().default(""),
  phone: text("phone").notNull().default(""),
  company: text("company").notNull().default(""),
  billingAddress: jsonb("billing_address").$type<Stored.Address>(),
  vatNumber: text("vat_number"),
  vatNumberStatus: text("vat_number_status").$type<Stored.VatNumberStatus>(),
  primaryPaymentSourceId: text("primary_payment_source_id"),
  creditBalance: integer("credit_balance").notNull().default(0),
  createdAt: timestamp("created_at").notNull(),
});

export const billingPaymentSources = pgTable(
  "billing_payment_sources",
  {
    id: text("id").primaryKey(),
    customerId: text("customer_id")
      .notNull()
      .references(() => billingCustomers.id, { onDelete: "cascade" }),
    status: text("status").$type<Stored.PaymentSourceStatus>().notNull(),
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

export const billingSubscriptions = pgTable(
  "billing_subscriptions",
  {
    id: text("id").primaryKey(),
    customerId: text("customer_id")
      .notNull()
      .references(() => billingCustomers.id, { onDelete: "cascade" }),
    planId: text("plan_id").notNull(),
    planQuantity: integer("plan_quantity").notNull(),
    planUnitPrice: integer("plan_unit_price").notNull(),
    addons: jsonb("addons").$type<Stored.ItemQuantity[]>().notNull(),
    status: text("status").$type<Stored.SubscriptionStatus>().notNull(),
    currentTermStart: timestamp("current_term_start").notNull(),
    currentTermEnd: timestamp("current_term_end").notNull(),
    nextBillingAt: timestamp("next_billing_at").notNull(),
    paymentSourceId: text("payment_source_id"),
    autoCollection: boolean("auto_collection").notNull().default(true),
    shippingAddress: jsonb("shipping_address").$type<Stored.Address>(),
    licenseAssignment: text("license_assignment"),
    poNumber: text("po_number"),
    createdAt: timestamp("created_at").notNull(),
    cancelledAt: timestamp("cancelled_at"),
    // Milliseconds since 1970 outgrow PostgreSQL's 4-byte integer.
    resourceVersion: bigint("resource_version", { mode: "number" }).notNull().default(0),
  },
  (table) => [
    index("billing_subscriptions_customer_idx").on(table.customerId),
    index("billing_subscriptions_due_idx").on(table.status, table.currentTermEnd),
  ],
);

export const billingInvoices = pgTable(
  "billing_invoices",
  {
    id: text("id").primaryKey(),
    customerId: text("customer_id")
      .notNull()
      .references(() => billingCustomers.id, { onDelete: "cascade" }),
    subscriptionId: text("subscription_id"),
    status: text("status").$type<Stored.InvoiceStatus>().notNull(),
    lineItems: jsonb("line_items").$type<Stored.LineItem[]>().notNull(),
    discounts: jsonb("discounts").$type<Stored.Discount[]>().notNull(),
    subTotal: integer("sub_total").notNull(),
    total: integer("total").notNull(),
    creditsApplied: integer("credits_applied").notNull(),
    amountPaid: integer("amount_paid").notNull(),
    amountDue: integer("amount_due").notNull(),
    paymentSourceId: text("payment_source_id"),
    shippingAddress: jsonb("shipping_address").$type<Stored.Address>(),
    date: timestamp("date").notNull(),
    purpose: text("purpose").$type<Stored.InvoicePurpose>().notNull().default("renewal"),
    billingAddress: jsonb("billing_address").$type<Stored.Address>(),
    paidAt: timestamp("paid_at"),
    nextRetryAt: timestamp("next_retry_at"),
    paymentAttempts: integer("payment_attempts").notNull().default(0),
    /**
     * Why the last attempt to collect it failed, as the provider's code (authentication_required: the card's bank
     * asks the cardholder to confirm the payment); null when none failed or it is paid.
     */
    paymentFailure: text("payment_failure"),
    resourceVersion: bigint("resource_version", { mode: "number" }).notNull().default(0),
    seller: jsonb("seller").$type<Stored.InvoiceParty>(),
    billedTo: jsonb("billed_to").$type<Stored.InvoiceParty>(),
    poNumber: text("po_number"),
    revision: integer("revision").notNull().default(1),
    revisedAt: timestamp("revised_at"),
  },
  (table) => [
    index("billing_invoices_customer_idx").on(table.customerId),
    index("billing_invoices_retry_idx").on(table.status, table.nextRetryAt),
  ],
);

export const billingInvoiceRevisions = pgTable(
  "billing_invoice_revisions",
  {
    invoiceId: text("invoice_id")
      .notNull()
      .references(() => billingInvoices.id, { onDelete: "cascade" }),
    revision: integer("revision").notNull(),
    seller: jsonb("seller").$type<Stored.InvoiceParty>(),
    billedTo: jsonb("billed_to").$type<Stored.InvoiceParty>(),
    poNumber: text("po_number"),
    issuedAt: timestamp("issued_at").notNull(),
  },
  (table) => [primaryKey({ columns: [table.invoiceId, table.revision] })],
);

export const billingEvents = pgTable(
  "billing_events",
  {
    seq: integer("seq").primaryKey().generatedByDefaultAsIdentity(),
    id: text("id").notNull().unique(),
    occurredAt: timestamp("occurred_at").notNull(),
    type: text("type").$type<Stored.ProviderEventType>().notNull(),
    providerType: text("provider_type").notNull(),
    resourceType: text("resource_type").$type<Stored.ProviderResourceType>().notNull(),
    resourceId: text("resource_id").notNull(),
    resourceVersion: bigint("resource_version", { mode: "number" }),
    customerId: text("customer_id").notNull(),
    content: jsonb("content").$type<Record<string, unknown>>().notNull(),
  },
  (table) => [index("billing_events_occurred_idx").on(table.occurredAt)],
);

export const billingClock = pgTable("billing_clock", {
  id: text("id").primaryKey(),
  advancedMs: bigint("advanced_ms", { mode: "number" }).notNull().default(0),
});

export const billingSequences = pgTable("billing_sequences", {
  name: text("name").primaryKey(),
  value: integer("value").notNull(),
});

export const billingIdempotencyKeys = pgTable("billing_idempotency_keys", {
  key: text("key").primaryKey(),
  call: text("call").notNull(),
  result: jsonb("result").$type<unknown>().notNull(),
  createdAt: timestamp("created_at").notNull(),
});

export const billingFaults = pgTable("billing_faults", faultColumns(["fail", "hang", "lose"]));

export const taxIdFaults = pgTable("tax_id_faults", faultColumns(["fail", "hang", "lose"]));

export const cardTokens = pgTable("card_tokens", {
  id: text("id").primaryKey(),
  kind: text("kind", { enum: ["token", "payment_method"] }).notNull(),
  brand: text("brand").notNull(),
  last4: text("last4").notNull(),
  expiryMonth: integer("expiry_month").notNull(),
  expiryYear: integer("expiry_year").notNull(),
  firstName: text("first_name").notNull().default(""),
  lastName: text("last_name").notNull().default(""),
  gatewayCustomer: text("gateway_customer"),
  chargeDecline: text("charge_decline"),
  /**
   * When the card's bank asks the cardholder to authenticate (3-D Secure): on every payment they make while present
   * and when saved (`always`), or only when saved (`setup`); null: never.
   */
  authentication: text("authentication", { enum: ["always", "setup"] }),
  usedAt: timestamp("used_at"),
  createdAt: timestamp("created_at").notNull(),
});

export const cardSetups = pgTable("card_setups", {
  id: text("id").primaryKey(),
  tokenId: text("token_id").notNull(),
  status: text("status", { enum: ["requires_action", "succeeded", "failed"] }).notNull(),
  returnUrl: text("return_url").notNull(),
  /** A payment's authentication (Stripe's PaymentIntent, `pi_`): what it authorizes; null for a card's setup. */
  amount: integer("amount"),
  currency: text("currency"),
  /** When the authorized payment was charged: an authorization pays one charge, once. */
  usedAt: timestamp("used_at"),
  createdAt: timestamp("created_at").notNull(),
});
