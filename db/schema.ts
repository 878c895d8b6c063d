import { sql } from "drizzle-orm";
import {
  index,
  integer,
  primaryKey,
  sqliteTable,
  text,
  uniqueIndex,
  type AnySQLiteColumn,
} from "drizzle-orm/sqlite-core";
import type {
  InvoicePurpose,
  InvoiceStatus,
  ItemQuantity,
  ProviderEventType,
  ProviderResourceType,
  SubscriptionStatus,
} from "./billing-values";
import type { EstimateView } from "./estimate-values";

/**
 * The portal's own data. Tables of the emulated outside services carry their port's prefix
 * (`billing_*`, `hub_*`) and live in their own files, re-exported at the bottom.
 */

const createdAt = () =>
  integer("created_at", { mode: "timestamp_ms" })
    .notNull()
    .default(sql`(unixepoch('subsec') * 1000)`);

/**
 * A person who signs in. What they can see and do belongs to the organizations they are members of
 * (memberships); being a GateKeeper administrator is the person's own.
 */
export const users = sqliteTable(
  "users",
  {
    id: text("id").primaryKey(),
    email: text("email").notNull().unique(),
    /** The address folded for staff search (app/domain/search-key.ts), kept by accounts' writes and the start-up. */
    searchEmail: text("search_email").notNull().default(""),
    passwordHash: text("password_hash").notNull(),
    firstName: text("first_name").notNull(),
    lastName: text("last_name").notNull(),
    company: text("company").notNull().default(""),
    phone: text("phone").notNull().default(""),
    isGKAdmin: integer("is_gk_admin", { mode: "boolean" }).notNull().default(false),
    /** When the person proved they read the address's mail (a verification or invitation link); null until then. */
    emailVerifiedAt: integer("email_verified_at", { mode: "timestamp_ms" }),
    lastSignedInAt: integer("last_signed_in_at", { mode: "timestamp_ms" }),
    createdAt: createdAt(),
  },
  (table) => [index("users_search_email_idx").on(table.searchEmail)],
);

/** What kind of customer of GateKeeper an organization is (app/domain/access-policy.ts says what each may do). */
export const ORGANIZATION_KINDS = ["customer", "distributor"] as const;
export type OrganizationKind = (typeof ORGANIZATION_KINDS)[number];

/**
 * A customer of GateKeeper: one billing customer, and the licenses, Hubs, trials, drafts and jobs that go with
 * it, whichever member made them. Its people are its memberships. An end customer is an organization a
 * distributor manages (managed_by): the distributor buys, pays for and renews its licenses, which are the
 * distributor's (owner_id) and licensed to it (licenses.licensee_id).
 */
export const organizations = sqliteTable(
  "organizations",
  {
    id: text("id").primaryKey(),
    name: text("name").notNull(),
    /** The name folded for staff search (app/domain/search-key.ts), kept by accounts' writes and the start-up. */
    searchName: text("search_name").notNull().default(""),
    /** 'customer' or 'distributor' (a reseller): decides the price list and how many trials it gets. */
    customerType: text("customer_type", { enum: ORGANIZATION_KINDS }).notNull().default("customer"),
    /** The billing provider's customer id that scopes all of the organization's billing data; set on first need. */
    billingCustomerId: text("billing_customer_id").unique(),
    /** Where hardware is shipped when it differs from the billing address; null means "same as billing". */
    shippingAddress: text("shipping_address", { mode: "json" }).$type<ShippingAddress>(),
    /** ISO 3166 code given at sign-up: the billing address's country until one is saved; "" when not known. */
    country: text("country").notNull().default(""),
    /** The distributor that manages this end customer; null for an organization of its own. */
    managedBy: text("managed_by").references((): AnySQLiteColumn => organizations.id),
    /** An end customer's postal address as its distributor keeps it; null when not given. */
    address: text("address", { mode: "json" }).$type<PostalAddress>(),
    /** An end customer's technical contact, as its distributor names them ("" when not given). */
    contactName: text("contact_name").notNull().default(""),
    contactEmail: text("contact_email").notNull().default(""),
    createdAt: createdAt(),
  },
  (table) => [
    // A distributor's end customers, by name: /customers counts and pages them straight off this index.
    index("organizations_managed_by_name_idx").on(table.managedBy, table.name, table.id),
    index("organizations_search_name_idx").on(table.searchName, table.id),
  ],
);

/** A postal address without the country (the organization's own column): what an end customer's record keeps. */
export interface PostalAddress {
  line1: string;
  line2?: string;
  city: string;
  state?: string;
  zip: string;
}

/** The roles a member can have (app/domain/access-policy.ts says what each may do). */
export const MEMBER_ROLES = ["owner", "billing_admin", "technical_contact", "viewer"] as const;
export type MemberRole = (typeof MEMBER_ROLES)[number];

/** A person's place in an organization, with their role. An organization with members keeps at least one owner. */
export const memberships = sqliteTable(
  "memberships",
  {
    organizationId: text("organization_id")
      .notNull()
      .references(() => organizations.id, { onDelete: "cascade" }),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    role: text("role", { enum: MEMBER_ROLES }).notNull(),
    /**
     * The person's last and first name, copied here by triggers (on insert, and when the person is renamed) so
     * the team page reads one page of members in index order instead of sorting them all; never written by code.
     */
    sortLastName: text("sort_last_name").notNull().default(""),
    sortFirstName: text("sort_first_name").notNull().default(""),
    createdAt: createdAt(),
  },
  (table) => [
    primaryKey({ columns: [table.organizationId, table.userId] }),
    // The team page's order: by last name, first name, then the person's id so ties keep one order.
    index("memberships_name_idx").on(table.organizationId, table.sortLastName, table.sortFirstName, table.userId),
    // A person's organizations (the header's switcher, sign-in).
    index("memberships_user_idx").on(table.userId),
  ],
);

/**
 * An invitation to join an organization with a role, while it is pending: accepting or revoking it deletes it.
 * Its link is a one-time token (one_time_tokens.invitation_id); re-sending replaces the token.
 */
export const invitations = sqliteTable(
  "invitations",
  {
    id: text("id").primaryKey(),
    organizationId: text("organization_id")
      .notNull()
      .references(() => organizations.id, { onDelete: "cascade" }),
    /** Lowercased: one pending invitation per address and organization. */
    email: text("email").notNull(),
    role: text("role", { enum: MEMBER_ROLES }).notNull(),
    /** Who sent it, as the team page and the mail name them (a member, or GateKeeper). */
    invitedBy: text("invited_by").notNull(),
    createdAt: createdAt(),
    /** When its current link stops working (7 days after it was sent or last re-sent). */
    expiresAt: integer("expires_at", { mode: "timestamp_ms" }).notNull(),
  },
  (table) => [uniqueIndex("invitations_organization_email_idx").on(table.organizationId, table.email)],
);

/**
 * What happened to an organization, newest first on /account/activity: who (a member, or GateKeeper for the
 * billing provider and the portal itself) did what. Written in the transaction of the change it records, and
 * never changed afterwards: a trigger refuses every update (migration 0012).
 */
export const activity = sqliteTable(
  "activity",
  {
    /** In the order the entries were written: the page lists the newest first and pages on it. */
    id: integer("id").primaryKey({ autoIncrement: true }),
    organizationId: text("organization_id")
      .notNull()
      .references(() => organizations.id, { onDelete: "cascade" }),
    /** The member who did it; null for GateKeeper, or once the person's account is gone (their name stays). */
    actorUserId: text("actor_user_id").references(() => users.id, { onDelete: "set null" }),
    /** The name shown: the member's at the time, or 'GateKeeper'. */
    actorName: text("actor_name").notNull(),
    /** What kind of event (app/server/accounts/activity.server.ts), for filtering; the summary says it in words. */
    action: text("action").notNull(),
    summary: text("summary").notNull(),
    createdAt: createdAt(),
  },
  (table) => [index("activity_organization_idx").on(table.organizationId, table.id)],
);

export interface ShippingAddress {
  firstName: string;
  lastName: string;
  company?: string;
  email?: string;
  phone?: string;
  line1: string;
  line2?: string;
  city: string;
  state: string;
  zip: string;
  country: string;
}

export const licenses = sqliteTable(
  "licenses",
  {
    id: text("id").primaryKey(),
    ownerId: text("owner_id")
      .notNull()
      .references(() => organizations.id, { onDelete: "cascade" }),
    externalLicenseId: text("external_license_id").notNull().unique(),
    /** The organization the license is assigned to: the name on its file. */
    name: text("name").notNull(),
    /**
     * The end customer the license is for, when a distributor bought it for one (owner_id is then the distributor,
     * which pays for it): the end customer's members read it; null for an organization's own license.
     */
    licenseeId: text("licensee_id").references(() => organizations.id),
    nodes: integer("nodes").notNull(),
    planType: text("plan_type", { enum: ["core", "advanced", "ultimate"] }).notNull(),
    type: text("type", { enum: ["recurring", "trial"] }).notNull(),
    hasCloudSupport: integer("has_cloud_support", { mode: "boolean" }).notNull().default(false),
    validFrom: integer("valid_from", { mode: "timestamp_ms" }).notNull(),
    validTo: integer("valid_to", { mode: "timestamp_ms" }).notNull(),
    /** The signed license file a Hub accepts (app/server/hubs/license-files.server.ts, docs/license-files.md). */
    licenseCode: text("license_code").notNull(),
    /** Set once the license has been uploaded to a Hub. */
    isUsed: integer("is_used", { mode: "boolean" }).notNull().default(false),
    /**
     * The cloud Hub job (a deployment, a cloud trial) the license is reserved for while it runs: taken when the
     * job is queued, so no second Hub can be made from it meanwhile, and given back if the job fails before its
     * Hub exists.
     */
    hubJobId: text("hub_job_id"),
    /** The billing subscription that pays for a recurring license. */
    subscriptionId: text("subscription_id"),
    /**
     * The version (resourceVersion) of the portal's copy of the subscription whose terms the license and its file
     * follow: a license is re-signed only from a newer copy, so two processes can never write an older one last.
     */
    termsVersion: integer("terms_version").notNull().default(0),
    /** The customer's purchase order number of the order that bought or last changed the license. */
    poNumber: text("po_number"),
    /** The number of the quote the license was ordered from, shown on its row; null for any other order. */
    quoteNumber: text("quote_number"),
    createdAt: createdAt(),
  },
  (table) => [
    // The licenses page counts and pages an owner's licenses newest first, straight off this index.
    index("licenses_owner_valid_from_idx").on(table.ownerId, table.validFrom, table.id),
    // One license per subscription: a resumed order can never make a second one.
    uniqueIndex("licenses_subscription_idx").on(table.subscriptionId),
    // A distributor's renewals view reads each subscription's license (its number, users and end customer) off
    // this index, not off the license's row, which carries its signed file.
    index("licenses_subscription_renewal_idx").on(
      table.subscriptionId,
      table.ownerId,
      table.licenseeId,
      table.externalLicenseId,
      table.nodes,
    ),
    // The home page counts an owner's active licenses (valid to in the future) straight off this index.
    index("licenses_owner_valid_to_idx").on(table.ownerId, table.validTo),
    // Trial eligibility counts an owner's trial licenses, and the Store asks whether they hold a recurring one.
    index("licenses_owner_type_idx").on(table.ownerId, table.type),
    // An end customer's licenses, newest first (its licenses page, its page at its distributor's).
    index("licenses_licensee_valid_from_idx").on(table.licenseeId, table.validFrom, table.id),
    // What a distributor bought for one of its customers (the customers list counts them and finds the next
    // renewal per row): without it SQLite walks every license of the distributor for each row.
    index("licenses_owner_licensee_idx").on(table.ownerId, table.licenseeId),
  ],
);

/**
 * How many licenses each owner holds, kept by triggers on `licenses` in the same transaction as every insert,
 * delete or change of owner (migration 0010_license_counts_triggers, decision 120): the licenses and home pages show
 * the total on every visit without counting an account's thousands of rows. No row means no licenses.
 */
export const licenseCounts = sqliteTable("license_counts", {
  ownerId: text("owner_id")
    .primaryKey()
    .references(() => organizations.id, { onDelete: "cascade" }),
  total: integer("total").notNull(),
});

export const hubInstallations = sqliteTable(
  "hub_installations",
  {
    id: text("id").primaryKey(),
    ownerId: text("owner_id")
      .notNull()
      .references(() => organizations.id, { onDelete: "cascade" }),
    /** The end customer whose license the Hub was made from, as licenses.licensee_id; null for the owner's own. */
    licenseeId: text("licensee_id").references(() => organizations.id),
    type: text("type", { enum: ["cloud", "local"] }).notNull(),
    url: text("url"),
    ip: text("ip"),
    lastSeen: integer("last_seen", { mode: "timestamp_ms" }),
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
    /**
     * A cloud Hub's administrator session token (a JWT), sealed (app/server/platform/wizards/sealed.server.ts): what a
     * renewed license is uploaded with. Kept here only; never in the deployment job's saved results.
     */
    adminToken: text("admin_token"),
    createdAt: createdAt(),
  },
  (table) => [
    // The Hubs page counts and pages an owner's Hubs, most recently seen first, straight off this index,
    index("hub_installations_owner_last_seen_idx").on(table.ownerId, table.lastSeen, table.id),
    // and off this one when the table is filtered by Type.
    index("hub_installations_owner_type_last_seen_idx").on(table.ownerId, table.type, table.lastSeen, table.id),
    // An end customer's Hubs, most recently seen first.
    index("hub_installations_licensee_last_seen_idx").on(table.licenseeId, table.lastSeen, table.id),
  ],
);

export const LICENSE_UPLOAD_STATES = ["pending", "uploaded", "failed"] as const;

/** Which licenses are uploaded to which Hub installation. */
export const hubInstallationLicenses = sqliteTable(
  "hub_installation_licenses",
  {
    hubInstallationId: text("hub_installation_id")
      .notNull()
      .references(() => hubInstallations.id, { onDelete: "cascade" }),
    licenseId: text("license_id")
      .notNull()
      .references(() => licenses.id, { onDelete: "cascade" }),
    /**
     * The license's newest file on this Hub since it last changed (a renewal, a change at the provider): pending
     * while the portal uploads it, uploaded, or failed (why in upload_message, and the pages offer the file).
     * Null: nothing has changed since the license was put on the Hub.
     */
    uploadState: text("upload_state", { enum: LICENSE_UPLOAD_STATES }),
    uploadMessage: text("upload_message"),
  },
  (table) => [
    primaryKey({ columns: [table.hubInstallationId, table.licenseId] }),
    // The Hubs a license is on: where its renewed file goes, and whether one of them could not take it.
    index("hub_installation_licenses_license_idx").on(table.licenseId),
  ],
);

/** A free trial an organization started; a regular customer gets one, a distributor any number. */
export const trials = sqliteTable(
  "trials",
  {
    id: text("id").primaryKey(),
    ownerId: text("owner_id")
      .notNull()
      .references(() => organizations.id, { onDelete: "cascade" }),
    /** The member who started it; null once their account is gone (the trial stays the organization's). */
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
    /** The shipping address as entered, JSON. */
    address: text("address", { mode: "json" }).$type<Record<string, string>>(),
    /** The billing provider's invoice for the trial's hardware, if any: the invoices page says what it was for. */
    hardwareInvoiceId: text("hardware_invoice_id"),
    createdAt: createdAt(),
  },
  (table) => [
    index("trials_owner_idx").on(table.ownerId),
    index("trials_hardware_invoice_idx").on(table.hardwareInvoiceId),
  ],
);

const updatedAt = () =>
  integer("updated_at", { mode: "timestamp_ms" })
    .notNull()
    .default(sql`(unixepoch('subsec') * 1000)`);

/**
 * A wizard's progress, saved by every step's action, so a refresh, the back button, a second tab or a
 * dropped connection loses nothing. One draft per member and wizard: both tabs of one person edit the same
 * draft, and two members of an organization each have their own.
 */
export const drafts = sqliteTable(
  "drafts",
  {
    id: text("id").primaryKey(),
    ownerId: text("owner_id")
      .notNull()
      .references(() => organizations.id, { onDelete: "cascade" }),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    /** Which wizard: new-subscription, subscription-update, cloud-hub, cloud-trial, onpremise-trial. */
    wizard: text("wizard").notNull(),
    data: text("data", { mode: "json" }).notNull().$type<Record<string, unknown>>(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (table) => [uniqueIndex("drafts_owner_user_wizard_idx").on(table.ownerId, table.userId, table.wizard)],
);

export const JOB_STATUSES = [
  "queued",
  "running",
  "succeeded",
  "failed",
  "needs_attention",
  "waiting_for_cardholder",
] as const;
/**
 * queued: waiting for next_run_at; running: a runner holds its lease; succeeded and failed: finished;
 * needs_attention: a step's outcome is unknown (a provider call that may have taken effect), so the runner
 * asks the provider what happened before anything is done again; waiting_for_cardholder: a charge the bank asks the
 * cardholder to authenticate, nothing charged, until they come back from the bank's page (no runner claims it).
 */
export type JobStatus = (typeof JOB_STATUSES)[number];

/**
 * A long sequence (an order, a subscription update, a cloud Hub, a trial) run step by step by the job
 * runner. The idempotency key (from the draft) makes a double submit find the first job; each step's
 * state is saved so a restart resumes where it stopped without repeating a charge or a tenant.
 */
export const jobs = sqliteTable(
  "jobs",
  {
    id: text("id").primaryKey(),
    kind: text("kind").notNull(),
    /** The organization the job is for; null for a job about no organization yet (it finds its account itself). */
    ownerId: text("owner_id").references(() => organizations.id, { onDelete: "cascade" }),
    idempotencyKey: text("idempotency_key").notNull().unique(),
    input: text("input", { mode: "json" }).notNull().$type<Record<string, unknown>>(),
    /** Per step: its status and what it produced, keyed by step name. */
    steps: text("steps", { mode: "json" }).notNull().$type<Record<string, unknown>>(),
    status: text("status", { enum: JOB_STATUSES }).notNull().default("queued"),
    /** The failure the progress page shows (spec message, failed step). */
    error: text("error", { mode: "json" }).$type<Record<string, unknown>>(),
    result: text("result", { mode: "json" }).$type<Record<string, unknown>>(),
    /** Runs since the job was queued or last retried by the customer; bounds the automatic retries. */
    attempts: integer("attempts").notNull().default(0),
    /** When a queued or needs_attention job may run (backoff); null: only when the customer retries. */
    nextRunAt: integer("next_run_at", { mode: "timestamp_ms" }),
    /** The runner (process) holding the job, until lease_until; a crashed runner's job is claimed again after it. */
    leaseHolder: text("lease_holder"),
    leaseUntil: integer("lease_until", { mode: "timestamp_ms" }),
    /** The request (X-Request-Id) the job follows from, for following it through the log; null when none did. */
    cause: text("cause"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    finishedAt: integer("finished_at", { mode: "timestamp_ms" }),
  },
  (table) => [index("jobs_owner_idx").on(table.ownerId), index("jobs_due_idx").on(table.status, table.nextRunAt)],
);

/**
 * A signed-in browser. The cookie carries only a random token; the row is keyed by the token's SHA-256, so
 * the table alone cannot be replayed. Sign-out deletes the row; a password change deletes the others.
 */
export const sessions = sqliteTable(
  "sessions",
  {
    /** SHA-256 (hex) of the session token in the cookie. */
    id: text("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    createdAt: integer("created_at", { mode: "timestamp_ms" }).notNull(),
    lastSeenAt: integer("last_seen_at", { mode: "timestamp_ms" }).notNull(),
    /** The absolute end; idle expiry is counted from lastSeenAt. */
    expiresAt: integer("expires_at", { mode: "timestamp_ms" }).notNull(),
    userAgent: text("user_agent").notNull().default(""),
    /** The CSRF token of this session: forms of a signed-in user must carry exactly this one. */
    csrfToken: text("csrf_token").notNull(),
    /** The organization the person chose in this browser (the header's switcher); null: their first one. */
    organizationId: text("organization_id").references(() => organizations.id, { onDelete: "set null" }),
  },
  (table) => [index("sessions_user_idx").on(table.userId)],
);

/**
 * A browser that signed in to an account (the known-device cookie): the cookie carries only a random token,
 * the row its SHA-256 and whose browser it is. Such a browser is outside the lockout of the account's
 * untrusted clients and has a small failure limit of its own. Sign-out forgets it; decision 170.
 */
export const knownDevices = sqliteTable(
  "known_devices",
  {
    /** SHA-256 (hex) of the token in the cookie. */
    id: text("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    createdAt: createdAt(),
    expiresAt: integer("expires_at", { mode: "timestamp_ms" }).notNull(),
  },
  (table) => [index("known_devices_user_idx").on(table.userId)],
);

/**
 * Single-use links mailed to an address (a sign-in link, email verification, password reset, an invitation):
 * the link carries a random token, the row only its SHA-256, so the table cannot be replayed. Using a link
 * deletes its row; an expired row is worth nothing and is deleted when met.
 */
export const oneTimeTokens = sqliteTable(
  "one_time_tokens",
  {
    /** SHA-256 (hex) of the token in the link. */
    id: text("id").primaryKey(),
    /** What the link is for ('sign-in', ...): a token is only ever redeemed for its own purpose. */
    purpose: text("purpose").notNull(),
    /** The person it is for; null for an invitation, which may be for someone without an account yet. */
    userId: text("user_id").references(() => users.id, { onDelete: "cascade" }),
    /** The invitation it accepts: revoking the invitation deletes its link. */
    invitationId: text("invitation_id").references(() => invitations.id, { onDelete: "cascade" }),
    /** The quote a mailed quote link opens: withdrawing the quote deletes its links. */
    quoteId: text("quote_id").references((): AnySQLiteColumn => quotes.id, { onDelete: "cascade" }),
    /** What the link carries besides who it is for (where to go after signing in). */
    data: text("data", { mode: "json" }).notNull().$type<Record<string, string>>(),
    createdAt: createdAt(),
    expiresAt: integer("expires_at", { mode: "timestamp_ms" }).notNull(),
  },
  (table) => [
    index("one_time_tokens_user_idx").on(table.userId, table.purpose),
    index("one_time_tokens_invitation_idx").on(table.invitationId),
    index("one_time_tokens_quote_idx").on(table.quoteId),
  ],
);

/**
 * Mail kept by the embedded mail adapter (no SMTP_URL): a GateKeeper administrator reads it at /admin/outbox.
 * The Message-ID is derived from the send job, so a send repeated after a lost answer finds its row.
 */
export const outbox = sqliteTable("outbox", {
  /** In the order the messages were kept: the page lists the newest first. */
  id: integer("id").primaryKey({ autoIncrement: true }),
  messageId: text("message_id").notNull().unique(),
  from: text("from_address").notNull(),
  to: text("to_address").notNull(),
  subject: text("subject").notNull(),
  text: text("text_body").notNull(),
  html: text("html_body").notNull(),
  createdAt: createdAt(),
});

/**
 * Throttle counters (sign-in, password change, coupon Apply), in rate-limiter-flexible's SQLite layout, so
 * they survive a restart and are shared by every server process. `expire` is in epoch milliseconds.
 */
export const rateLimits = sqliteTable("rate_limits", {
  key: text("key").primaryKey(),
  points: integer("points").notNull().default(0),
  expire: integer("expire"),
});

/**
 * Secrets the portal makes for itself in demo mode (the session secret, the license signing key) when the
 * environment configures none. On PostgreSQL they live here, so every instance signs and reads the same sessions
 * and license files; on SQLite they stay in files beside the database (the table is kept in both schemas alike).
 */
export const portalSecrets = sqliteTable("portal_secrets", {
  name: text("name").primaryKey(),
  value: text("value").notNull(),
});

// --- The billing provider's side, as the portal keeps it -------------------------------------------------------

export const PROVIDER_EVENT_SOURCES = ["webhook", "engine", "poll"] as const;
export const PROVIDER_EVENT_OUTCOMES = ["applied", "ignored", "unknown_customer", "foreign_resource"] as const;

/**
 * Every event the billing provider told the portal of (Chargebee's webhooks, the embedded engine's events, the
 * reconciliation's poll of the events list), stored by its id before anything acts on it: a delivery seen twice is
 * one row. The consumer (a durable job per event) applies it to the portal's copies and sets applied_at.
 */
export const providerEvents = sqliteTable(
  "provider_events",
  {
    id: text("id").primaryKey(),
    type: text("type").$type<ProviderEventType>().notNull(),
    /** The provider's own name of the event (Chargebee's event_type). */
    providerType: text("provider_type").notNull(),
    resourceType: text("resource_type").$type<ProviderResourceType>().notNull(),
    resourceId: text("resource_id"),
    resourceVersion: integer("resource_version"),
    /** The billing customer; null for an event of no customer. */
    customerId: text("customer_id"),
    occurredAt: integer("occurred_at", { mode: "timestamp_ms" }).notNull(),
    /** The resources after the change, as the event carried them (the port's types as JSON). */
    payload: text("payload", { mode: "json" }).notNull().$type<Record<string, unknown>>(),
    receivedFrom: text("received_from", { enum: PROVIDER_EVENT_SOURCES }).notNull(),
    receivedAt: integer("received_at", { mode: "timestamp_ms" })
      .notNull()
      .default(sql`(unixepoch('subsec') * 1000)`),
    /** Set once the event is applied, or ignored (an event the portal has no use for, of a customer it does not know). */
    appliedAt: integer("applied_at", { mode: "timestamp_ms" }),
    outcome: text("outcome", { enum: PROVIDER_EVENT_OUTCOMES }),
  },
  (table) => [
    // The reconciliation's sweep finds events stored but not applied (a process that died between the two).
    index("provider_events_pending_idx").on(table.appliedAt, table.receivedAt),
    // An unknown customer is logged once: whether an earlier event of theirs was already set aside.
    index("provider_events_customer_outcome_idx").on(table.customerId, table.outcome),
  ],
);

/**
 * The portal's copy of each of its customers' subscriptions at the billing provider, kept by the events and the
 * reconciliation: a row is only ever replaced by a newer resource version, so a late or repeated event changes
 * nothing. Licenses follow it (app/server/subscriptions/license-follows.server.ts).
 */
export const subscriptions = sqliteTable(
  "subscriptions",
  {
    id: text("id").primaryKey(),
    /** The organization whose billing customer holds the subscription. */
    ownerId: text("owner_id")
      .notNull()
      .references(() => organizations.id, { onDelete: "cascade" }),
    customerId: text("customer_id").notNull(),
    planId: text("plan_id").notNull(),
    planQuantity: integer("plan_quantity").notNull(),
    status: text("status").$type<SubscriptionStatus>().notNull(),
    addons: text("addons", { mode: "json" }).$type<ItemQuantity[]>().notNull(),
    currentTermStart: integer("current_term_start", { mode: "timestamp_ms" }),
    currentTermEnd: integer("current_term_end", { mode: "timestamp_ms" }),
    nextBillingAt: integer("next_billing_at", { mode: "timestamp_ms" }),
    /** When it was cancelled, or (auto-renew off) when its scheduled cancellation takes effect. */
    cancelledAt: integer("cancelled_at", { mode: "timestamp_ms" }),
    /** What its unpaid invoices still ask for, in cents, and the date of the oldest of them. */
    totalDues: integer("total_dues").notNull().default(0),
    dueSince: integer("due_since", { mode: "timestamp_ms" }),
    /** The provider's resource version of this copy: milliseconds, greater after every change. */
    resourceVersion: integer("resource_version").notNull(),
    updatedAt: updatedAt(),
  },
  (table) => [
    // The reconciliation re-reads an account's subscriptions that have not ended.
    index("subscriptions_owner_status_idx").on(table.ownerId, table.status),
    // A distributor's renewals ahead: the terms that end in a window, soonest first, off this index, with what
    // the view shows of each (its status, plan and add-ons), so no subscription's row is read for them.
    index("subscriptions_owner_term_end_idx").on(
      table.ownerId,
      table.currentTermEnd,
      table.status,
      table.id,
      table.planId,
      table.planQuantity,
      table.addons,
    ),
    // The renewal reminders' sweep: every payer's terms that end within a month, off this index.
    index("subscriptions_term_end_idx").on(table.currentTermEnd),
  ],
);

/** The reminders before a renewal: 30 days before a yearly one, 7 days before any. */
export const RENEWAL_REMINDER_KINDS = ["30_days", "7_days"] as const;
export type RenewalReminderKind = (typeof RENEWAL_REMINDER_KINDS)[number];

/**
 * The renewal reminders sent: one row per subscription, term end and reminder (30 or 7 days before). Its key is
 * the guard that makes each reminder one mail however many instances sweep at once: the row is inserted in the
 * transaction that queues the mail job (`job_key`), and a second insert of the same key inserts nothing.
 */
export const renewalReminders = sqliteTable(
  "renewal_reminders",
  {
    subscriptionId: text("subscription_id").notNull(),
    termEnd: integer("term_end", { mode: "timestamp_ms" }).notNull(),
    kind: text("kind", { enum: RENEWAL_REMINDER_KINDS }).notNull(),
    /** The organization that pays for the renewal, whose Owner and Billing admins were mailed. */
    ownerId: text("owner_id")
      .notNull()
      .references(() => organizations.id, { onDelete: "cascade" }),
    /** The idempotency key of the mail job that sends it. */
    jobKey: text("job_key").notNull(),
    createdAt: createdAt(),
  },
  (table) => [primaryKey({ columns: [table.subscriptionId, table.termEnd, table.kind] })],
);

/**
 * The portal's copy of its customers' invoices at the billing provider, kept like `subscriptions`: what
 * /account/invoices pages through in SQL, newest first. The PDF is always the provider's.
 */
export const invoices = sqliteTable(
  "invoices",
  {
    id: text("id").primaryKey(),
    ownerId: text("owner_id")
      .notNull()
      .references(() => organizations.id, { onDelete: "cascade" }),
    customerId: text("customer_id").notNull(),
    subscriptionId: text("subscription_id"),
    /** The number the customer sees (Chargebee's invoice id). */
    number: text("number").notNull(),
    date: integer("date", { mode: "timestamp_ms" }).notNull(),
    purpose: text("purpose").$type<InvoicePurpose>().notNull(),
    status: text("status").$type<InvoiceStatus>().notNull(),
    total: integer("total").notNull(),
    amountPaid: integer("amount_paid").notNull(),
    amountDue: integer("amount_due").notNull(),
    paidAt: integer("paid_at", { mode: "timestamp_ms" }),
    /** Dunning's next automatic attempt to collect it. */
    nextRetryAt: integer("next_retry_at", { mode: "timestamp_ms" }),
    /** Why the provider's last attempt to collect it failed (Invoice.paymentFailure). */
    paymentFailure: text("payment_failure"),
    resourceVersion: integer("resource_version").notNull(),
    /**
     * The revision of the document: 1 as issued, one more with each correction made through the portal (which
     * keeps the count: Chargebee does not say how often an invoice was corrected). The provider's events leave it.
     */
    revision: integer("revision").notNull().default(1),
    updatedAt: updatedAt(),
  },
  (table) => [
    // The invoices page pages an account's invoices newest first straight off this index.
    index("invoices_owner_date_idx").on(table.ownerId, table.date, table.id),
    // A subscription's unpaid renewals (the Pay now notices), newest last: the license lists read each row's
    // newest payable invoice off the index's end, without sorting a subscription's invoices per row.
    index("invoices_subscription_status_date_idx").on(table.subscriptionId, table.status, table.date),
  ],
);

/** What the register said of a VAT number (app/domain/tax-ids.ts says what each means). */
export const TAX_ID_STATUSES = ["valid", "invalid", "pending", "not_covered"] as const;

/**
 * The organization's VAT number as its billing profile gives it to the billing provider, and what the tax
 * authority's register said of it (app/domain/tax-ids.ts): the status, when it was checked, and the name and
 * address the register holds, when it disclosed them. A `pending` number is asked again by a durable job.
 */
export const taxIds = sqliteTable("tax_ids", {
  organizationId: text("organization_id")
    .primaryKey()
    .references(() => organizations.id, { onDelete: "cascade" }),
  vatNumber: text("vat_number").notNull(),
  status: text("status", { enum: TAX_ID_STATUSES }).notNull(),
  checkedAt: integer("checked_at", { mode: "timestamp_ms" }),
  registerName: text("register_name"),
  registerAddress: text("register_address"),
  /** The register's reference for the check (VIES's consultation number), the proof a check was made. */
  consultationNumber: text("consultation_number"),
  updatedAt: updatedAt(),
});

/**
 * How many members, invoices and end customers each organization has, kept by triggers on `memberships`, `invoices`
 * and `organizations` (an end customer's `managed_by`) in the same transaction as every insert, delete or move to
 * another organization (the hand-written parts of migrations 0016_organization_counts and
 * 0036_end_customer_counts, decisions 192 and 237): the team, invoices and end customers pages show their totals on
 * every visit without counting an organization's hundreds of members or thousands of invoices or end customers.
 * No row means none of any.
 */
export const organizationCounts = sqliteTable("organization_counts", {
  organizationId: text("organization_id")
    .primaryKey()
    .references(() => organizations.id, { onDelete: "cascade" }),
  members: integer("members").notNull().default(0),
  invoices: integer("invoices").notNull().default(0),
  endCustomers: integer("end_customers").notNull().default(0),
});

export const QUOTE_STATUSES = ["open", "accepted", "ordered", "expired", "withdrawn"] as const;
export type QuoteStatus = (typeof QUOTE_STATUSES)[number];

/** A quote's lines as the billing port's estimate priced them, as the pages show an estimate. */
export type QuotedEstimate = EstimateView;

/**
 * A priced, dated offer of a new license: the portal's own record (the billing provider holds no quote). It never
 * changes once made but for its status; editing one is copying it into a new quote. Expired is not stored: it is
 * an open quote whose valid_until has passed on the portal's clock.
 */
export const quotes = sqliteTable(
  "quotes",
  {
    id: text("id").primaryKey(),
    /** Q-<year>-<4 digits>, from quote_counters, one sequence per portal and year. */
    number: text("number").notNull().unique(),
    /** The organization that made it: a distributor, or a customer for its own license. */
    ownerId: text("owner_id")
      .notNull()
      .references(() => organizations.id, { onDelete: "cascade" }),
    /** The end customer it is for, when a distributor made it; null for an organization's own quote. */
    customerId: text("customer_id").references(() => organizations.id, { onDelete: "cascade" }),
    /** The licensee's name as the quote names it. */
    organizationName: text("organization_name").notNull(),
    madeByUserId: text("made_by_user_id").references(() => users.id, { onDelete: "set null" }),
    madeByName: text("made_by_name").notNull(),
    status: text("status", { enum: QUOTE_STATUSES }).notNull().default("open"),
    /** The order as the wizard's draft described it: what a copy re-prices and an order places. */
    order: text("order", { mode: "json" }).notNull().$type<Record<string, unknown>>(),
    estimate: text("estimate", { mode: "json" }).notNull().$type<QuotedEstimate>(),
    /** A digest of the unit prices quoted: a fresh estimate with another one was priced on another price list. */
    priceListVersion: text("price_list_version").notNull(),
    /** When it stops being valid, on the portal's clock. */
    validUntil: integer("valid_until", { mode: "timestamp_ms" }).notNull(),
    /** When it was made, on the portal's clock (created_at is real time). */
    quotedAt: integer("quoted_at", { mode: "timestamp_ms" }).notNull(),
    /** The address it was last mailed to, and when (portal clock); null until it is sent. */
    sentTo: text("sent_to"),
    sentAt: integer("sent_at", { mode: "timestamp_ms" }),
    /** When its mailed link was first opened since it was last sent: the history records one opening a sending. */
    openedAt: integer("opened_at", { mode: "timestamp_ms" }),
    /** Who accepted it through its link, as they typed their name, with their PO number, when and from where. */
    acceptedByName: text("accepted_by_name"),
    poNumber: text("po_number"),
    acceptedAt: integer("accepted_at", { mode: "timestamp_ms" }),
    acceptedFrom: text("accepted_from"),
    /** When its maker was reminded that the sent, open quote expires soon: once a quote. */
    remindedAt: integer("reminded_at", { mode: "timestamp_ms" }),
    /** The order job it was ordered by: set with status ordered, in the transaction that queues the job. */
    orderJobId: text("order_job_id"),
    /**
     * Whether its maker lets the end customer it is for accept it in the portal: that organization's Technical
     * contacts then see 'Accept this quote' on its page. Chosen when it is made or sent.
     */
    customerMayAccept: integer("customer_may_accept", { mode: "boolean" }).notNull().default(false),
    createdAt: createdAt(),
  },
  (table) => [
    // /quotes pages an organization's quotes newest first, filtered by status or end customer.
    index("quotes_owner_idx").on(table.ownerId, table.quotedAt, table.id),
    index("quotes_owner_status_idx").on(table.ownerId, table.status, table.quotedAt, table.id),
    index("quotes_customer_idx").on(table.customerId, table.quotedAt, table.id),
  ],
);

export const QUOTE_EVENT_KINDS = ["made", "sent", "opened", "accepted", "ordered", "withdrawn"] as const;
export type QuoteEventKind = (typeof QUOTE_EVENT_KINDS)[number];

/** A quote's history, oldest first: who did what to it and when (on the portal's clock). */
export const quoteEvents = sqliteTable(
  "quote_events",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    quoteId: text("quote_id")
      .notNull()
      .references(() => quotes.id, { onDelete: "cascade" }),
    kind: text("kind", { enum: QUOTE_EVENT_KINDS }).notNull(),
    /** Who did it: a member's name, or the name an accepter typed. */
    actorName: text("actor_name").notNull(),
    /** What else the event records (a mail's address, a PO number); "" when nothing. */
    detail: text("detail").notNull().default(""),
    at: integer("at", { mode: "timestamp_ms" }).notNull(),
  },
  (table) => [index("quote_events_quote_idx").on(table.quoteId, table.id)],
);

/**
 * The last quote number given, per year: taken and raised in the transaction that writes the quote, so that
 * makers on several instances get distinct, consecutive numbers.
 */
export const quoteCounters = sqliteTable("quote_counters", {
  year: integer("year").primaryKey(),
  last: integer("last").notNull(),
});

/**
 * The schedule of the reconciliation, one row shared by every process: the point the next poll of the provider's
 * events list starts from, when the next run is due, and which process runs it now (a lease, so that one does).
 */
export const providerSync = sqliteTable("provider_sync", {
  id: text("id").primaryKey(),
  eventsSince: integer("events_since", { mode: "timestamp_ms" }).notNull(),
  nextRunAt: integer("next_run_at", { mode: "timestamp_ms" }).notNull(),
  lastRunAt: integer("last_run_at", { mode: "timestamp_ms" }),
  leaseHolder: text("lease_holder"),
  leaseUntil: integer("lease_until", { mode: "timestamp_ms" }),
});

/**
 * A card being saved that the cardholder's bank asked to authenticate: the card provider's setup (its id), whose
 * organization saves it, what the save does once the bank said yes (replace that card, or add one; make it the
 * primary card) and the page to go back to. The return from the bank uses it once (`used_at`): a reload of the
 * bank page, a second tab or a replayed return saves nothing twice.
 */
export const cardAuthentications = sqliteTable("card_authentications", {
  setupId: text("setup_id").primaryKey(),
  organizationId: text("organization_id")
    .notNull()
    .references(() => organizations.id, { onDelete: "cascade" }),
  replacesSourceId: text("replaces_source_id"),
  setAsPrimary: integer("set_as_primary", { mode: "boolean" }).notNull(),
  closeTo: text("close_to").notNull(),
  createdAt: createdAt(),
  usedAt: integer("used_at", { mode: "timestamp_ms" }),
});

export * from "./billing-schema";
export * from "./hub-schema";
