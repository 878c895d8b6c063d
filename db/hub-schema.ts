import { index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { faultColumns, timestamp } from "./provider-columns";

/**
 * The embedded Hub service simulator's data (`hub_*`): what the Hub cloud service keeps when the HTTP
 * adapter is configured. Nothing of the portal reads these tables; the portal's own record of a customer's
 * Hubs is hub_installations. Dates are stored in milliseconds but always whole seconds.
 */
/** A cloud Hub tenant: its subdomain is unique across all customers, and its address never changes. */
export const hubTenants = sqliteTable(
  "hub_tenants",
  {
    id: text("id").primaryKey(),
    /** The portal user the tenant was created for (the service's userId). */
    customerId: text("customer_id").notNull(),
    subdomain: text("subdomain").notNull().unique(),
    url: text("url").notNull(),
    /** 1 = US, 2 = EU, as the service numbers regions. */
    region: integer("region").notNull(),
    /** When the instance is provisioned (ready), and when it is up (running); set at creation. */
    readyAt: timestamp("ready_at").notNull(),
    runningAt: timestamp("running_at").notNull(),
    addedAt: timestamp("added_at"),
    registeredAt: timestamp("registered_at"),
    createdAt: timestamp("created_at").notNull(),
  },
  (table) => [index("hub_tenants_customer_idx").on(table.customerId)],
);

/** A Hub's administrator, made by admin setup; the password is kept only as a scrypt hash. */
export const hubAdmins = sqliteTable("hub_admins", {
  hubId: text("hub_id")
    .primaryKey()
    .references(() => hubTenants.id, { onDelete: "cascade" }),
  userName: text("user_name").notNull(),
  firstName: text("first_name").notNull(),
  lastName: text("last_name").notNull(),
  email: text("email").notNull(),
  phoneNumber: text("phone_number").notNull().default(""),
  passwordHash: text("password_hash").notNull(),
  /** SHA-256 of the latest session token admin setup returned; license upload must present it. */
  tokenHash: text("token_hash").notNull(),
  createdAt: timestamp("created_at").notNull(),
});

/** A license uploaded to a Hub; a license is in use on one Hub only. */
export const hubLicenses = sqliteTable(
  "hub_licenses",
  {
    /** The license's external id (e.g. GK-2026-0A1B2C3D), read from the signed license file. */
    licenseId: text("license_id").primaryKey(),
    hubId: text("hub_id")
      .notNull()
      .references(() => hubTenants.id, { onDelete: "cascade" }),
    customerId: text("customer_id").notNull(),
    licenseCode: text("license_code").notNull(),
    name: text("name").notNull(),
    nodes: integer("nodes").notNull(),
    planType: text("plan_type").notNull(),
    validFrom: timestamp("valid_from").notNull(),
    validTo: timestamp("valid_to").notNull(),
    uploadedAt: timestamp("uploaded_at").notNull(),
  },
  (table) => [index("hub_licenses_customer_idx").on(table.customerId)],
);

/** One-time sign-in links to a Hub ('Go to Hub'), kept as SHA-256 of the ticket, never the ticket itself. */
export const hubSignInLinks = sqliteTable("hub_sign_in_links", {
  ticketHash: text("ticket_hash").primaryKey(),
  hubId: text("hub_id")
    .notNull()
    .references(() => hubTenants.id, { onDelete: "cascade" }),
  userName: text("user_name").notNull(),
  expiresAt: timestamp("expires_at").notNull(),
  usedAt: timestamp("used_at"),
  createdAt: timestamp("created_at").notNull(),
});

/**
 * Faults to inject into the simulator's calls: fail, hang and then time out, lose the answer, or answer that
 * the Hub is not ready (create, sync) or not running (Hub state).
 */
export const hubFaults = sqliteTable("hub_faults", faultColumns(["fail", "hang", "lose", "not_ready"]));
