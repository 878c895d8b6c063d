import { index, integer, primaryKey, sqliteTable, text } from "drizzle-orm/sqlite-core";
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
  /** The VAT number with its country's prefix (Chargebee's vat_number), and what the register said of it. */
  vatNumber: text("vat_number"),
  vatNumberStatus: text("vat_number_status").$type<Stored.VatNumberStatus>(),
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
    /** The customer's purchase order number, printed on the subscription's invoices (Chargebee's po_number). */
    poNumber: text("po_number"),
    createdAt: timestamp("created_at").notNull(),
    /** When it was cancelled, or (non_renewing) when its scheduled cancellation takes effect. */
    cancelledAt: timestamp("cancelled_at"),
    /** Chargebee's resource_version: milliseconds, greater after every change. */
    resourceVersion: integer("resource_version").notNull().default(0),
  },
  (table) => [
    index("billing_subscriptions_customer_idx").on(table.customerId),
    // What the engine's clock has made due: renewals, scheduled cancellations and starts, by status.
    index("billing_subscriptions_due_idx").on(table.status, table.currentTermEnd),
  ],
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
    /** What the invoice was for; invoices made before it was kept count as renewals (the migration fixes the rest). */
    purpose: text("purpose").$type<Stored.InvoicePurpose>().notNull().default("renewal"),
    /** The customer's billing address when the invoice was made. */
    billingAddress: text("billing_address", { mode: "json" }).$type<Stored.Address>(),
    paidAt: timestamp("paid_at"),
    /** Dunning: the next automatic attempt to collect a failed payment, and how many were made. */
    nextRetryAt: timestamp("next_retry_at"),
    paymentAttempts: integer("payment_attempts").notNull().default(0),
    /**
     * Why the last attempt to collect it failed, as the provider's code (authentication_required: the card's bank
     * asks the cardholder to confirm the payment); null when none failed or it is paid.
     */
    paymentFailure: text("payment_failure"),
    resourceVersion: integer("resource_version").notNull().default(0),
    /**
     * The parties as the document shows them, fixed when it is issued and changed only by a correction (a new
     * revision); null on invoices made before they were kept, until the start-up records them.
     */
    seller: text("seller", { mode: "json" }).$type<Stored.InvoiceParty>(),
    billedTo: text("billed_to", { mode: "json" }).$type<Stored.InvoiceParty>(),
    poNumber: text("po_number"),
    /** The document's revision: 1 as issued, one more with each correction (same number, a new document). */
    revision: integer("revision").notNull().default(1),
    revisedAt: timestamp("revised_at"),
  },
  (table) => [
    index("billing_invoices_customer_idx").on(table.customerId),
    index("billing_invoices_retry_idx").on(table.status, table.nextRetryAt),
  ],
);

/** Every earlier revision of a corrected invoice: the parties it showed, so its document can be made again. */
export const billingInvoiceRevisions = sqliteTable(
  "billing_invoice_revisions",
  {
    invoiceId: text("invoice_id")
      .notNull()
      .references(() => billingInvoices.id, { onDelete: "cascade" }),
    revision: integer("revision").notNull(),
    seller: text("seller", { mode: "json" }).$type<Stored.InvoiceParty>(),
    billedTo: text("billed_to", { mode: "json" }).$type<Stored.InvoiceParty>(),
    poNumber: text("po_number"),
    /** When this revision was issued (the invoice's date for the first). */
    issuedAt: timestamp("issued_at").notNull(),
  },
  (table) => [primaryKey({ columns: [table.invoiceId, table.revision] })],
);

/**
 * The events the engine caused (Chargebee's events), each written in the transaction of its change. `seq` is
 * the order they were written in; `content` holds the port's snapshots of the resources after the change.
 */
export const billingEvents = sqliteTable(
  "billing_events",
  {
    seq: integer("seq").primaryKey(),
    id: text("id").notNull().unique(),
    occurredAt: timestamp("occurred_at").notNull(),
    type: text("type").$type<Stored.ProviderEventType>().notNull(),
    /** Chargebee's name for the event (its event_type). */
    providerType: text("provider_type").notNull(),
    resourceType: text("resource_type").$type<Stored.ProviderResourceType>().notNull(),
    resourceId: text("resource_id").notNull(),
    resourceVersion: integer("resource_version"),
    customerId: text("customer_id").notNull(),
    content: text("content", { mode: "json" }).$type<Record<string, unknown>>().notNull(),
  },
  (table) => [index("billing_events_occurred_idx").on(table.occurredAt)],
);

/**
 * The engine's clock, one row: how far its time machine has moved it ahead of real time. A row, not process
 * memory, so that every process of the portal agrees on the engine's date.
 */
export const billingClock = sqliteTable("billing_clock", {
  id: text("id").primaryKey(),
  advancedMs: integer("advanced_ms").notNull().default(0),
});

/** Counters the engine numbers things with (invoices), one row each, incremented in the numbering transaction. */
export const billingSequences = sqliteTable("billing_sequences", {
  name: text("name").primaryKey(),
  value: integer("value").notNull(),
});

/** The first result of every creating call, by its idempotency key. */
export const billingIdempotencyKeys = sqliteTable("billing_idempotency_keys", {
  key: text("key").primaryKey(),
  call: text("call").notNull(),
  result: text("result", { mode: "json" }).$type<unknown>().notNull(),
  createdAt: timestamp("created_at").notNull(),
});

/** Faults to inject into the embedded engine's calls: fail, hang and then time out, or lose the answer. */
export const billingFaults = sqliteTable("billing_faults", faultColumns(["fail", "hang", "lose"]));

/** Faults to inject into the embedded tax-id register's calls (an unavailable register, for tests and demos). */
export const taxIdFaults = sqliteTable("tax_id_faults", faultColumns(["fail", "hang", "lose"]));

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
  /** The decline every charge to this card gets (a test card that saves but cannot be charged), or null. */
  chargeDecline: text("charge_decline"),
  /**
   * When the card's bank asks the cardholder to authenticate (3-D Secure): on every payment they make while present
   * and when saved (`always`), or only when saved (`setup`); null: never.
   */
  authentication: text("authentication", { enum: ["always", "setup"] }),
  usedAt: timestamp("used_at"),
  createdAt: timestamp("created_at").notNull(),
});

/**
 * The embedded card gateway's card setups (Stripe's SetupIntents) whose bank asked the cardholder to authenticate:
 * the token being saved, waiting on the bank page (`requires_action`) until the cardholder completes it
 * (`succeeded`) or fails it (`failed`), and where the bank page sends them back. The bank page answers a setup
 * once: a reload or a second tab finds it answered. A payment the bank asks about (Stripe's PaymentIntent) waits
 * here the same way, `token_id` naming the saved card it is charged to.
 */
export const cardSetups = sqliteTable("card_setups", {
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
