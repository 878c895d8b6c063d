import { env } from "~/server/platform/config/env.server";
import { databaseChoice } from "~/server/platform/config/database-url.server";
import { tablesOf, type Engine } from "./portal-database.server";

/**
 * The portal's tables for the engine DATABASE_URL names, chosen once when the process starts, typed as
 * PostgreSQL's on both engines (portal-database.server). The app imports its tables from here, never from the
 * schema files; the schema's types and constants come along under their usual names.
 */
export * from "~db/schema";

export const engine: Engine = databaseChoice(env.DATABASE_URL)?.engine ?? "sqlite";

export const tables = tablesOf(engine);

export const {
  users,
  organizations,
  memberships,
  invitations,
  activity,
  licenses,
  licenseCounts,
  hubInstallations,
  hubInstallationLicenses,
  trials,
  drafts,
  jobs,
  sessions,
  knownDevices,
  oneTimeTokens,
  outbox,
  rateLimits,
  portalSecrets,
  providerEvents,
  subscriptions,
  renewalReminders,
  quotes,
  quoteEvents,
  quoteCounters,
  invoices,
  taxIds,
  organizationCounts,
  providerSync,
  billingCustomers,
  billingPaymentSources,
  billingSubscriptions,
  billingInvoices,
  billingInvoiceRevisions,
  billingEvents,
  billingClock,
  billingSequences,
  billingIdempotencyKeys,
  billingFaults,
  taxIdFaults,
  cardTokens,
  cardSetups,
  cardAuthentications,
  hubTenants,
  hubAdmins,
  hubLicenses,
  hubSignInLinks,
  hubFaults,
} = tables;

export type { PortalDatabase, PortalExecutor, PortalSchema, PortalTransaction } from "./portal-database.server";
