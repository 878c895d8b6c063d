import { index, integer, pgTable, text } from "drizzle-orm/pg-core";
import { faultColumns, timestamp } from "./provider-columns";

/**
 * The embedded Hub service simulator's tables (`hub_*`) on PostgreSQL, the same as on SQLite
 * (db/hub-schema.ts, where each is described).
 */

export const hubTenants = pgTable(
  "hub_tenants",
  {
    id: text("id").primaryKey(),
    customerId: text("customer_id").notNull(),
    subdomain: text("subdomain").notNull().unique(),
    url: text("url").notNull(),
    region: integer("region").notNull(),
    readyAt: timestamp("ready_at").notNull(),
    runningAt: timestamp("running_at").notNull(),
    addedAt: timestamp("added_at"),
    registeredAt: timestamp("registered_at"),
    createdAt: timestamp("created_at").notNull(),
  },
  (table) => [index("hub_tenants_customer_idx").on(table.customerId)],
);

export const hubAdmins = pgTable("hub_admins", {
  hubId: text("hub_id")
    .primaryKey()
    .references(() => hubTenants.id, { onDelete: "cascade" }),
  userName: text("user_name").notNull(),
  firstName: text("first_name").notNull(),
  lastName: text("last_name").notNull(),
  email: text("email").notNull(),
  phoneNumber: text("phone_number").notNull().default(""),
  passwordHash: text("password_hash").notNull(),
  tokenHash: text("token_hash").notNull(),
  createdAt: timestamp("created_at").notNull(),
});

export const hubLicenses = pgTable(
  "hub_licenses",
  {
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

export const hubSignInLinks = pgTable("hub_sign_in_links", {
  ticketHash: text("ticket_hash").primaryKey(),
  hubId: text("hub_id")
    .notNull()
    .references(() => hubTenants.id, { onDelete: "cascade" }),
  userName: text("user_name").notNull(),
  expiresAt: timestamp("expires_at").notNull(),
  usedAt: timestamp("used_at"),
  createdAt: timestamp("created_at").notNull(),
});

export const hubFaults = pgTable("hub_faults", faultColumns(["fail", "hang", "lose", "not_ready"]));
