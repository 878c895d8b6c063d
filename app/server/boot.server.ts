import { reissueLicenseFiles, startProviderSync, startRenewalReminders } from "~/server/subscriptions/index.server";
import { preloadBillingSdk, recordSellerOnEarlierInvoices } from "~/server/billing/index.server";
import { serverOperations, type ServerOperations } from "~/server/operations/index.server";
import { fillSearchKeys } from "~/server/accounts/index.server";
import { cardsAtStripe, preloadCardsSdk } from "~/server/cards/index.server";
import { preloadMailSdk } from "~/server/mail/index.server";
import { startQuoteReminders } from "~/server/quotes/index.server";
import { env } from "~/server/platform/config/env.server";
import { connection, databaseInUse, migratePortalDatabase } from "~/server/platform/database/connection.server";
import { withStartupLock } from "~/server/platform/database/startup-lock.server";
import { startJobRunner } from "~/server/platform/jobs/runner.server";
import { loadSecrets } from "~/server/platform/secrets.server";
import { DEMO_ACCOUNTS, DEMO_PASSWORD, seedDemo } from "./demo-seed.server";
import { JOB_KINDS } from "./job-kinds.server";
import { logger } from "~/server/platform/log/log.server";

/** What the HTTP server in front of the app takes from the start-up. */
export interface Booted {
  /** PUBLIC_URL's origin, on which every request's URL is built; undefined when it is not set. */
  publicOrigin: string | undefined;
  /** CARD_PROVIDER=stripe: the documents of the routes that take a card let Stripe.js load (decision 228). */
  cardsAtStripe: boolean;
  /** Each request's log line and metrics, /metrics, and the clean stop. */
  operations: ServerOperations;
}

const globalForBoot = globalThis as unknown as { __portalPrepared?: Promise<void> };

/**
 * Makes the database ready for this process, once: the migrations, the secrets (generated and kept in demo
 * mode), the demo seed (SEED_DEMO, into an empty database only), the re-issue of license files signed with an
 * older key, the seller named on the embedded engine's invoices issued before they kept it, and the search keys
 * of organizations and people that have none. Each step runs under the start-up lock and finds what a process that
 * held it before did, so however many processes and instances start at once on one database, each is done once.
 */
function prepare(): Promise<void> {
  return (globalForBoot.__portalPrepared ??= (async () => {
    await migratePortalDatabase();
    await loadSecrets();
    await withStartupLock(databaseInUse(), async () => {
      if (env.SEED_DEMO && (await seedDemo(connection.db))) {
        // Named by the part before the @: the log masks every email address.
        const names = DEMO_ACCOUNTS.map((address) => address.split("@")[0]).join(", ");
        logger.info(`Demo accounts seeded (SEED_DEMO=true): ${names} at example.com, password ${DEMO_PASSWORD}`);
      }
      await reissueLicenseFiles(connection.db);
      await recordSellerOnEarlierInvoices();
      await fillSearchKeys(connection.db);
    });
  })());
}

/**
 * The portal's one start-up, called by the server entry (scripts/server.mjs, through the build's entry module),
 * by `npm run migrate` and by the tests: importing a module of app/ does none of it. With `jobs` (the server's
 * default) the process then runs the durable jobs, resuming what a restart interrupted, and follows the billing
 * provider (its events as they come, the reconciliation on schedule) and mails the renewal and quote reminders that
 * fall due.
 */
export async function boot({ jobs = true }: { jobs?: boolean } = {}): Promise<Booted> {
  await prepare();
  if (jobs) {
    // A server loads the SDKs of the services it is configured for now, in the background, not on a page's first call.
    preloadCardsSdk();
    preloadBillingSdk();
    preloadMailSdk();
    startJobRunner(JOB_KINDS);
    startProviderSync();
    startRenewalReminders();
    startQuoteReminders();
  }
  return { publicOrigin: env.PUBLIC_URL, cardsAtStripe: cardsAtStripe(), operations: serverOperations() };
}
