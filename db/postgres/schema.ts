import {
  bigint,
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  uniqueIndex,
  type AnyPgColumn,
} from "drizzle-orm/pg-core";
import type {
  InvoicePurpose,
  InvoiceStatus,
  ItemQuantity,
  ProviderEventType,
  ProviderResourceType,
  SubscriptionStatus,
} from "../billing-values";
import {
  JOB_STATUSES,
  LICENSE_UPLOAD_STATES,
  MEMBER_ROLES,
  ORGANIZATION_KINDS,
  PROVIDER_EVENT_OUTCOMES,
  PROVIDER_EVENT_SOURCES,
  QUOTE_EVENT_KINDS,
  QUOTE_STATUSES,
  RENEWAL_REMINDER_KINDS,
  TAX_ID_STATUSES,
  type PostalAddress,
  type QuotedEstimate,
  type ShippingAddress,
} from "../schema";
import { timestamp } from "./provider-columns";

/**
 * The portal's tables on PostgreSQL: the same tables, columns, defaults and indexes under the same names as the
 * SQLite schema (db/schema.ts, where each table and column is described), in PostgreSQL's own types: timestamptz
 * to the millisecond, boolean, jsonb. tests/db/schema-parity.test.ts fails when the two differ.
 */

export {
  JOB_STATUSES,
  LICENSE_UPLOAD_STATES,
  MEMBER_ROLES,
  ORGANIZATION_KINDS,
  PROVIDER_EVENT_OUTCOMES,
  PROVIDER_EVENT_SOURCES,
  QUOTE_EVENT_KINDS,
  QUOTE_STATUSES,
  RENEWAL_REMINDER_KINDS,
  TAX_ID_STATUSES,
  type JobStatus,
  type MemberRole,
  type OrganizationKind,
  type PostalAddress,
  type ShippingAddress,
} from "../schema";

const createdAt = () => timestamp("created_at").notNull().defaultNow();
const updatedAt = () => timestamp("updated_at").notNull().defaultNow();

export const users = pgTable(
  "users",
  {
    id: text("id").primaryKey(),
    email: text("email").notNull().unique(),
    searchEmail: text("search_email").notNull().default(""),
    passwordHash: text("password_hash").notNull(),
    firstName: text("first_name").notNull(),
    lastName: text("last_name").notNull(),
    company: text("company").notNull().default(""),
    phone: text("phone").notNull().default(""),
    isGKAdmin: boolean("is_gk_admin").notNull().default(false),
    emailVerifiedAt: timestamp("email_verified_at"),
    lastSignedInAt: timestamp("last_signed_in_at"),
    createdAt: createdAt(),
  },
  (table) => [index("users_search_email_idx").on(table.searchEmail)],
);

export const organizations = pgTable(
  "organizations",
  {
    id: text("id").primaryKey(),
    name: text("name").notNull(),
    searchName: text("search_name").notNull().default(""),
    customerType: text("customer_type", { enum: ORGANIZATION_KINDS }).notNull().default("customer"),
    billingCustomerId: text("billing_customer_id").unique(),
    shippingAddress: jsonb("shipping_address").$type<ShippingAddress>(),
    country: text("country").notNull().default(""),
    managedBy: text("managed_by").references((): AnyPgColumn => organizations.id),
    address: jsonb("address").$type<PostalAddress>(),
    contactName: text("contact_name").notNull().default(""),
    contactEmail: text("contact_email").notNull().default(""),
    createdAt: createdAt(),
  },
  (table) => [
    index("organizations_managed_by_name_idx").on(table.managedBy, table.name, table.id),
    index("organizations_search_name_idx").on(table.searchName, table.id),
  ],
);

export const memberships = pgTable(
  "memberships",
  {
    organizationId: text("organization_id")
      .notNull()
      .references(() => organizations.id, { onDelete: "cascade" }),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    role: text("role", { enum: MEMBER_ROLES }).notNull(),
    sortLastName: text("sort_last_name").notNull().default(""),
    sortFirstName: text("sort_first_name").notNull().default(""),
    createdAt: createdAt(),
  },
  (table) => [
    primaryKey({ columns: [table.organizationId, table.userId] }),
    index("memberships_name_idx").on(table.organizationId, table.sortLastName, table.sortFirstName, table.userId),
    index("memberships_user_idx").on(table.userId),
  ],
);

export const invitations = pgTable(
  "invitations",
  {
    id: text("id").primaryKey(),
    organizationId: text("organization_id")
      .notNull()
      .references(() => organizations.id, { onDelete: "cascade" }),
    email: text("email").notNull(),
    role: text("role", { enum: MEMBER_ROLES }).notNull(),
    invitedBy: text("invited_by").notNull(),
    createdAt: createdAt(),
    expiresAt: timestamp("expires_at").notNull(),
  },
  (table) => [uniqueIndex("invitations_organization_email_idx").on(table.organizationId, table.email)],
);

/** Never updated: a plpgsql trigger refuses it (the hand-written part of the organizations migration). */
export const activity = pgTable(
  "activity",
  {
    id: integer("id").primaryKey().generatedAlwaysAsIdentity(),
    organizationId: text("organization_id")
      .notNull()
      .references(() => organizations.id, { onDelete: "cascade" }),
    actorUserId: text("actor_user_id").references(() => users.id, { onDelete: "set null" }),
    actorName: text("actor_name").notNull(),
    action: text("action").notNull(),
    summary: text("summary").notNull(),
    createdAt: createdAt(),
  },
  (table) => [index("activity_organization_idx").on(table.organizationId, table.id)],
);

export const licenses = pgTable(
  "licenses",
  {
    id: text("id").primaryKey(),
    ownerId: text("owner_id")
      .notNull()
      .references(() => organizations.id, { onDelete: "cascade" }),
    externalLicenseId: text("external_license_id").notNull().unique(),
    name: text("name").notNull(),
    licenseeId: text("licensee_id").references(() => organizations.id),
    nodes: integer("nodes").notNull(),
    planType: text("plan_type", { enum: ["core", "advanced", "ultimate"] }).notNull(),
    type: text("type", { enum: ["recurring", "trial"] }).notNull(),
    hasCloudSupport: boolean("has_cloud_support").notNull().default(false),
    validFrom: timestamp("valid_from").notNull(),
    validTo: timestamp("valid_to").notNull(),
    licenseCode: text("license_code").notNull(),
    isUsed: boolean("is_used").notNull().default(false),
    hubJobId: text("hub_job_id"),
    subscriptionId: text("subscription_id"),
    termsVersion: bigint("terms_version", { mode: "number" }).notNull().default(0),
    poNumber: text("po_number"),
    quoteNumber: text("quote_number"),
    createdAt: createdAt(),
  },
  (table) => [
    index("licenses_owner_valid_from_idx").on(table.ownerId, table.validFrom, table.id),
    uniqueIndex("licenses_subscription_idx").on(table.subscriptionId),
    index("licenses_subscription_renewal_idx").on(
      table.subscriptionId,
      table.ownerId,
      table.licenseeId,
      table.externalLicenseId,
      table.nodes,
    ),
    index("licenses_owner_valid_to_idx").on(table.ownerId, table.validTo),
    index("licenses_owner_type_idx").on(table.ownerId, table.type),
    index("licenses_licensee_valid_from_idx").on(table.licenseeId, table.validFrom, table.id),
    index("licenses_owner_licensee_idx").on(table.ownerId, table.licenseeId),
  ],
);

/** Kept by triggers on `licenses` (the hand-written migration license_counts_triggers in db/migrations-postgres). */
export const licenseCounts = pgTable("license_counts", {
  ownerId: text("owner_id")
    .primaryKey()
    .references(() => organizations.id, { onDelete: "cascade" }),
  total: integer("total").notNull(),
});

export const hubInstallations = pgTable(
  "hub_installations",
  {
    id: text("id").primaryKey(),
    ownerId: text("owner_id")
      .notNull()
      .references(() => organizations.id, { onDelete: "cascade" }),
    licenseeId: text("licensee_id").references(() => organizations.id),
    type: text("type", { enum: ["cloud", "local"] }).notNull(),
    url: text("url"),
    ip: text("ip"),
    lastSeen: timestamp("last_seen"),
    version: text("version"),
    computers: integer("computers").notNull().default(0),
    users: integer("users").notNull().default(0),
    maxUsers: integer("max_users").notNull().default(0),
    devices: integer("devices").notNull().default(0),
    credentials: integer("credentials").notNull().default(0),
    locksThisMonth: integer("locks_this_month").notNull().default(0),
    locksThisYear: integer("locks_this_year").notNull().default(0),
    unlocksThisMonth: integer("unlocks_this_month").notNull().default(0),
    unlocksThisYear: integer("unlocks_this_year").notNull().default(0),
    webCredentialsUsedThisMonth: integer("web_credentials_used_this_month").notNull().default(0),
    webCredentialsUsedThisYear: integer("web_credentials_used_this_year").notNull().default(0),
    adminToken: text("admin_token"),
    createdAt: createdAt(),
  },
  (table) => [
    index("hub_installations_owner_last_seen_idx").on(table.ownerId, table.lastSeen, table.id),
    index("hub_installations_owner_type_last_seen_idx").on(table.ownerId, table.type, table.lastSeen, table.id),
    index("hub_installations_licensee_last_seen_idx").on(table.licenseeId, table.lastSeen, table.id),
  ],
);

export const hubInstallationLicenses = pgTable(
  "hub_installation_licenses",
  {
    hubInstallationId: text("hub_installation_id")
      .notNull()
      .references(() => hubInstallations.id, { onDelete: "cascade" }),
    licenseId: text("license_id")
      .notNull()
      .references(() => licenses.id, { onDelete: "cascade" }),
    uploadState: text("upload_state", { enum: LICENSE_UPLOAD_STATES }),
    uploadMessage: text("upload_message"),
  },
  (table) => [
    primaryKey({ columns: [table.hubInstallationId, table.licenseId] }),
    index("hub_installation_licenses_license_idx").on(table.licenseId),
  ],
);

export const trials = pgTable(
  "trials",
  {
    id: text("id").primaryKey(),
    ownerId: text("owner_id")
      .notNull()
      .references(() => organizations.id, { onDelete: "cascade" }),
    userId: text("user_id").references(() => users.id, { onDelete: "set null" }),
    hubType: text("hub_type", { enum: ["cloud", "onpremise"] }).notNull(),
    hubId: text("hub_id"),
    hubUrl: text("hub_url"),
    licenseId: text("license_id").references(() => licenses.id),
    nodes: integer("nodes").notNull(),
    employees: integer("employees").notNull(),
    tokens: integer("tokens").notNull().default(0),
    sensors: integer("sensors").notNull().default(0),
    duration: integer("duration").notNull(),
    userName: text("user_name"),
    address: jsonb("address").$type<Record<string, string>>(),
    hardwareInvoiceId: text("hardware_invoice_id"),
    createdAt: createdAt(),
  },
  (table) => [
    index("trials_owner_idx").on(table.ownerId),
    index("trials_hardware_invoice_idx").on(table.hardwareInvoiceId),
  ],
);

export const drafts = pgTable(
  "drafts",
  {
    id: text("id").primaryKey(),
    ownerId: text("owner_id")
      .notNull()
      .references(() => organizations.id, { onDelete: "cascade" }),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    wizard: text("wizard").notNull(),
    data: jsonb("data").notNull().$type<Record<string, unknown>>(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (table) => [uniqueIndex("drafts_owner_user_wizard_idx").on(table.ownerId, table.userId, table.wizard)],
);

export const jobs = pgTable(
  "jobs",
  {
    id: text("id").primaryKey(),
    kind: text("kind").notNull(),
    /** The organization the job is for; null for a job about no organization yet (it finds its account itself). */
    ownerId: text("owner_id").references(() => organizations.id, { onDelete: "cascade" }),
    idempotencyKey: text("idempotency_key").notNull().unique(),
    input: jsonb("input").notNull().$type<Record<string, unknown>>(),
    steps: jsonb("steps").notNull().$type<Record<string, unknown>>(),
    status: text("status", { enum: JOB_STATUSES }).notNull().default("queued"),
    error: jsonb("error").$type<Record<string, unknown>>(),
    result: jsonb("result").$type<Record<string, unknown>>(),
    attempts: integer("attempts").notNull().default(0),
    nextRunAt: timestamp("next_run_at"),
    leaseHolder: text("lease_holder"),
    leaseUntil: timestamp("lease_until"),
    cause: text("cause"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    finishedAt: timestamp("finished_at"),
  },
  (table) => [index("jobs_owner_idx").on(table.ownerId), index("jobs_due_idx").on(table.status, table.nextRunAt)],
);

export const sessions = pgTable(
  "sessions",
  {
    id: text("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    createdAt: timestamp("created_at").notNull(),
    lastSeenAt: timestamp("last_seen_at").notNull(),
    expiresAt: timestamp("expires_at").notNull(),
    userAgent: text("user_agent").notNull().default(""),
    csrfToken: text("csrf_token").notNull(),
    organizationId: text("organization_id").references(() => organizations.id, { onDelete: "set null" }),
  },
  (table) => [index("sessions_user_idx").on(table.userId)],
);

export const knownDevices = pgTable(
  "known_devices",
  {
    id: text("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    createdAt: createdAt(),
    expiresAt: timestamp("expires_at").notNull(),
  },
  (table) => [index("known_devices_user_idx").on(table.userId)],
);

export const oneTimeTokens = pgTable(
  "one_time_tokens",
  {
    id: text("id").primaryKey(),
    purpose: text("purpose").notNull(),
    userId: text("user_id").references(() => users.id, { onDelete: "cascade" }),
    invitationId: text("invitation_id").references(() => invitations.id, { onDelete: "cascade" }),
    quoteId: text("quote_id").references((): AnyPgColumn => quotes.id, { onDelete: "cascade" }),
    data: jsonb("data").notNull().$type<Record<string, string>>(),
    createdAt: createdAt(),
    expiresAt: timestamp("expires_at").notNull(),
  },
  (table) => [
    index("one_time_tokens_user_idx").on(table.userId, table.purpose),
    index("one_time_tokens_invitation_idx").on(table.invitationId),
    index("one_time_tokens_quote_idx").on(table.quoteId),
  ],
);

export const outbox = pgTable("outbox", {
  id: integer("id").primaryKey().generatedAlwaysAsIdentity(),
  messageId: text("message_id").notNull().unique(),
  from: text("from_address").notNull(),
  to: text("to_address").notNull(),
  subject: text("subject").notNull(),
  text: text("text_body").notNull(),
  html: text("html_body").notNull(),
  createdAt: createdAt(),
});

/**
 * Throttle counters in rate-limiter-flexible's Postgres layout. `expire` is in epoch milliseconds, past what a
 * 32-bit integer holds, hence bigint (SQLite's integer is 64-bit).
 */
export const rateLimits = pgTable("rate_limits", {
  key: text("key").primaryKey(),
  points: integer("points").notNull().default(0),
  expire: bigint("expire", { mode: "number" }),
});

export const portalSecrets = pgTable("portal_secrets", {
  name: text("name").primaryKey(),
  value: text("value").notNull(),
});

export const providerEvents = pgTable(
  "provider_events",
  {
    id: text("id").primaryKey(),
    type: text("type").$type<ProviderEventType>().notNull(),
    providerType: text("provider_type").notNull(),
    resourceType: text("resource_type").$type<ProviderResourceType>().notNull(),
    resourceId: text("resource_id"),
    resourceVersion: bigint("resource_version", { mode: "number" }),
    customerId: text("customer_id"),
    occurredAt: timestamp("occurred_at").notNull(),
    payload: jsonb("payload").notNull().$type<Record<string, unknown>>(),
    receivedFrom: text("received_from", { enum: PROVIDER_EVENT_SOURCES }).notNull(),
    receivedAt: timestamp("received_at").notNull().defaultNow(),
    appliedAt: timestamp("applied_at"),
    outcome: text("outcome", { enum: PROVIDER_EVENT_OUTCOMES }),
  },
  (table) => [
    index("provider_events_pending_idx").on(table.appliedAt, table.receivedAt),
    index("provider_events_customer_outcome_idx").on(table.customerId, table.outcome),
  ],
);

export const subscriptions = pgTable(
  "subscriptions",
  {
    id: text("id").primaryKey(),
    ownerId: text("owner_id")
      .notNull()
      .references(() => organizations.id, { onDelete: "cascade" }),
    customerId: text("customer_id").notNull(),
    planId: text("plan_id").notNull(),
    planQuantity: integer("plan_quantity").notNull(),
    status: text("status").$type<SubscriptionStatus>().notNull(),
    addons: jsonb("addons").$type<ItemQuantity[]>().notNull(),
    currentTermStart: timestamp("current_term_start"),
    currentTermEnd: timestamp("current_term_end"),
    nextBillingAt: timestamp("next_billing_at"),
    cancelledAt: timestamp("cancelled_at"),
    totalDues: integer("total_dues").notNull().default(0),
    dueSince: timestamp("due_since"),
    resourceVersion: bigint("resource_version", { mode: "number" }).notNull(),
    updatedAt: updatedAt(),
  },
  (table) => [
    index("subscriptions_owner_status_idx").on(table.ownerId, table.status),
    index("subscriptions_owner_term_end_idx").on(
      table.ownerId,
      table.currentTermEnd,
      table.status,
      table.id,
      table.planId,
      table.planQuantity,
      table.addons,
    ),
    index("subscriptions_term_end_idx").on(table.currentTermEnd),
  ],
);

export const renewalReminders = pgTable(
  "renewal_reminders",
  {
    subscriptionId: text("subscription_id").notNull(),
    termEnd: timestamp("term_end").notNull(),
    kind: text("kind", { enum: RENEWAL_REMINDER_KINDS }).notNull(),
    ownerId: text("owner_id")
      .notNull()
      .references(() => organizations.id, { onDelete: "cascade" }),
    /** The idempotency key of the mail job that sends it. */
    jobKey: text("job_key").notNull(),
    createdAt: createdAt(),
  },
  (table) => [primaryKey({ columns: [table.subscriptionId, table.termEnd, table.kind] })],
);

export const quotes = pgTable(
  "quotes",
  {
    id: text("id").primaryKey(),
    number: text("number").notNull().unique(),
    ownerId: text("owner_id")
      .notNull()
      .references(() => organizations.id, { onDelete: "cascade" }),
    customerId: text("customer_id").references(() => organizations.id, { onDelete: "cascade" }),
    organizationName: text("organization_name").notNull(),
    madeByUserId: text("made_by_user_id").references(() => users.id, { onDelete: "set null" }),
    madeByName: text("made_by_name").notNull(),
    status: text("status", { enum: QUOTE_STATUSES }).notNull().default("open"),
    order: jsonb("order").notNull().$type<Record<string, unknown>>(),
    estimate: jsonb("estimate").notNull().$type<QuotedEstimate>(),
    priceListVersion: text("price_list_version").notNull(),
    validUntil: timestamp("valid_until").notNull(),
    quotedAt: timestamp("quoted_at").notNull(),
    sentTo: text("sent_to"),
    sentAt: timestamp("sent_at"),
    openedAt: timestamp("opened_at"),
    acceptedByName: text("accepted_by_name"),
    poNumber: text("po_number"),
    acceptedAt: timestamp("accepted_at"),
    acceptedFrom: text("accepted_from"),
    remindedAt: timestamp("reminded_at"),
    orderJobId: text("order_job_id"),
    customerMayAccept: boolean("customer_may_accept").notNull().default(false),
    createdAt: createdAt(),
  },
  (table) => [
    index("quotes_owner_idx").on(table.ownerId, table.quotedAt, table.id),
    index("quotes_owner_status_idx").on(table.ownerId, table.status, table.quotedAt, table.id),
    index("quotes_customer_idx").on(table.customerId, table.quotedAt, table.id),
  ],
);

export const quoteEvents = pgTable(
  "quote_events",
  {
    id: integer("id").primaryKey().generatedAlwaysAsIdentity(),
    quoteId: text("quote_id")
      .notNull()
      .references(() => quotes.id, { onDelete: "cascade" }),
    kind: text("kind", { enum: QUOTE_EVENT_KINDS }).notNull(),
    actorName: text("actor_name").notNull(),
    detail: text("detail").notNull().default(""),
    at: timestamp("at").notNull(),
  },
  (table) => [index("quote_events_quote_idx").on(table.quoteId, table.id)],
);

export const quoteCounters = pgTable("quote_counters", {
  year: integer("year").primaryKey(),
  last: integer("last").notNull(),
});

export const invoices = pgTable(
  "invoices",
  {
    id: text("id").primaryKey(),
    ownerId: text("owner_id")
      .notNull()
      .references(() => organizations.id, { onDelete: "cascade" }),
    customerId: text("customer_id").notNull(),
    subscriptionId: text("subscription_id"),
    number: text("number").notNull(),
    date: timestamp("date").notNull(),
    purpose: text("purpose").$type<InvoicePurpose>().notNull(),
    status: text("status").$type<InvoiceStatus>().notNull(),
    total: integer("total").notNull(),
    amountPaid: integer("amount_paid").notNull(),
    amountDue: integer("amount_due").notNull(),
    paidAt: timestamp("paid_at"),
    nextRetryAt: timestamp("next_retry_at"),
    paymentFailure: text("payment_failure"),
    resourceVersion: bigint("resource_version", { mode: "number" }).notNull(),
    revision: integer("revision").notNull().default(1),
    updatedAt: updatedAt(),
  },
  (table) => [
    index("invoices_owner_date_idx").on(table.ownerId, table.date, table.id),
    index("invoices_subscription_status_date_idx").on(table.subscriptionId, table.status, table.date),
  ],
);

export const taxIds = pgTable("tax_ids", {
  organizationId: text("organization_id")
    .primaryKey()
    .references(() => organizations.id, { onDelete: "cascade" }),
  vatNumber: text("vat_number").notNull(),
  status: text("status", { enum: TAX_ID_STATUSES }).notNull(),
  checkedAt: timestamp("checked_at"),
  registerName: text("register_name"),
  registerAddress: text("register_address"),
  consultationNumber: text("consultation_number"),
  updatedAt: updatedAt(),
});

/**
 * Kept by triggers on `memberships`, `invoices` and `organizations` (the hand-written parts of migrations
 * organization_counts and end_customer_counts).
 */
export const organizationCounts = pgTable("organization_counts", {
  organizationId: text("organization_id")
    .primaryKey()
    .references(() => organizations.id, { onDelete: "cascade" }),
  members: integer("members").notNull().default(0),
  invoices: integer("invoices").notNull().default(0),
  endCustomers: integer("end_customers").notNull().default(0),
});

export const cardAuthentications = pgTable("card_authentications", {
  setupId: text("setup_id").primaryKey(),
  organizationId: text("organization_id")
    .notNull()
    .references(() => organizations.id, { onDelete: "cascade" }),
  replacesSourceId: text("replaces_source_id"),
  setAsPrimary: boolean("set_as_primary").notNull(),
  closeTo: text("close_to").notNull(),
  createdAt: createdAt(),
  usedAt: timestamp("used_at"),
});

export const providerSync = pgTable("provider_sync", {
  id: text("id").primaryKey(),
  eventsSince: timestamp("events_since").notNull(),
  nextRunAt: timestamp("next_run_at").notNull(),
  lastRunAt: timestamp("last_run_at"),
  leaseHolder: text("lease_holder"),
  leaseUntil: timestamp("lease_until"),
});

export * from "./billing-schema";
export * from "./hub-schema";
