import { randomBytes } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import type { LoaderFunctionArgs } from "@remix-run/node";
import { and, count, eq, isNotNull } from "drizzle-orm";
import type { PgTable } from "drizzle-orm/pg-core";
import { describe, expect, inject, it } from "vitest";
import { licenseEndOf } from "~/domain/renewals";
import { loader as invoicesLoader } from "~/routes/_portal.account_.invoices";
import { loader as invoicePdfLoader } from "~/routes/_portal.account_.invoices.$invoiceId.pdf";
import { loader as licensesLoader } from "~/routes/_portal.licenses";
import { loader as quotesLoader } from "~/routes/_portal.quotes._index";
import { priceListVersion } from "~/server/orders/index.server";
import { estimateView } from "~/domain/estimate";
import { subscriptionDraftSchema } from "~/domain/new-subscription";
import { estimateDraft } from "~/server/orders/new-subscription-wizard.server";
import { getBilling } from "~/server/billing/index.server";
import { migrateDatabase, openDatabase, type PortalDatabase } from "~/server/platform/database/portal-database.server";
import { db } from "~/server/platform/database/db.server";
import { seedDemo } from "~/server/demo-seed.server";
import { openSecret } from "~/server/platform/wizards/sealed.server";
import { verifyLicenseFile } from "~/server/hubs/license-files.server";
import { memberByEmail } from "../support/members";
import {
  billingCustomers,
  engine,
  hubInstallations,
  hubTenants,
  licenses,
  memberships,
  organizations,
  quotes,
  subscriptions,
  users,
} from "~/server/platform/database/tables.server";
import { createDatabase, dropDatabase } from "../../scripts/postgres-cluster.mjs";
import { messagesOf } from "../support/refused-writes";
import { getRequest, respond } from "../support/requests";
import { demoCookie } from "../support/sign-in";

/** A fresh clone's demo data: what the portal shows of the demo customer is what the embedded engine holds. */
const call = async (loader: (args: LoaderFunctionArgs) => Promise<unknown>, path: string, cookie: string) =>
  respond(async () => loader({ request: getRequest(path, cookie), params: {}, context: {} }));

const customer = async () => (await memberByEmail("customer@example.com")).organization;

describe("the demo data", () => {
  it("gives every recurring license the term of its subscription at the engine, in the portal's copy and in its file", async () => {
    const owner = await customer();
    const recurring = await db
      .select()
      .from(licenses)
      .where(and(eq(licenses.ownerId, owner.id), eq(licenses.type, "recurring")));
    expect(recurring.length).toBe(4);
    for (const license of recurring) {
      expect(license.subscriptionId, license.externalLicenseId).not.toBeNull();
      const atEngine = await getBilling().retrieveSubscription(owner.billingCustomerId!, license.subscriptionId!);
      expect(license.validTo, license.externalLicenseId).toEqual(licenseEndOf(atEngine));
      expect(verifyLicenseFile(license.licenseCode)?.validTo).toBe(license.validTo.toISOString());
      const [copy] = await db.select().from(subscriptions).where(eq(subscriptions.id, atEngine.id));
      expect(copy).toMatchObject({
        ownerId: owner.id,
        status: atEngine.status,
        currentTermEnd: atEngine.currentTermEnd,
        nextBillingAt: atEngine.nextBillingAt,
        resourceVersion: atEngine.resourceVersion,
      });
    }

    const page = await (await call(licensesLoader, "/licenses", await demoCookie("customer@example.com"))).json();
    const shown = (id: string) =>
      page.licenses.find((license: { externalLicenseId: string }) => license.externalLicenseId === id);
    for (const license of recurring) {
      expect(shown(license.externalLicenseId)?.validTo).toBe(license.validTo.toISOString());
    }
    // Three running, renewing; the oldest ended at its first term with auto-renew off, and can be renewed.
    expect(page.licenses.map((license: { status: string }) => license.status).sort()).toEqual([
      "active",
      "active",
      "active",
      "expired",
    ]);
    expect(shown("GK-NWC-2024-0003")).toMatchObject({ status: "expired", renewUrl: expect.any(String) });
  });

  it("lists every invoice the engine holds for the demo customer on /account/invoices, newest first", async () => {
    const owner = await customer();
    const atEngine = await getBilling().listInvoices(owner.billingCustomerId!);
    expect(atEngine.length).toBeGreaterThan(4);
    const cookie = await demoCookie("customer@example.com");
    const listed: { id: string; number: string; status: string }[] = [];
    let pages = 1;
    for (let page = 1; page <= pages; page += 1) {
      const data = await (await call(invoicesLoader, `/account/invoices?page=${page}`, cookie)).json();
      pages = data.pages;
      listed.push(...data.invoices);
    }
    expect(listed.map((invoice) => invoice.id)).toEqual(atEngine.map((invoice) => invoice.id));
    expect(new Set(listed.map((invoice) => invoice.status))).toEqual(new Set(["Paid"]));
  });

  it("gives the demo customer and distributor quotes in each state, priced as the plan step prices them today", async () => {
    const listed = async (email: string) => {
      const data = await (await call(quotesLoader, "/quotes", await demoCookie(email))).json();
      return data.quotes.map((quote: { organizationName: string; status: string }) => [
        quote.organizationName,
        quote.status,
      ]);
    };
    // Newest first.
    expect(await listed("customer@example.com")).toEqual([
      ["Northwind Clinics", "open"],
      ["Northwind Clinics", "expired"],
    ]);
    expect(await listed("distributor@example.com")).toEqual([
      ["Meridian Law LLP", "open"],
      ["Alpine Logistics AG", "accepted"],
      ["Harbor Dental Group", "withdrawn"],
    ]);
    // Each is priced as a fresh estimate of its order prices it: the accepted one can be ordered as quoted.
    const owners = new Map((await db.select().from(organizations)).map((row) => [row.id, row]));
    for (const quote of await db.select().from(quotes)) {
      const draft = subscriptionDraftSchema.parse(quote.order);
      const fresh = estimateView(await estimateDraft(owners.get(quote.ownerId)!, draft, { withCoupon: false }));
      expect(priceListVersion(fresh), quote.number).toBe(quote.priceListVersion);
      expect(fresh.amountDue, quote.number).toBe(quote.estimate.amountDue);
    }
  });

  it("gives each of them as a PDF to its account only: another account's invoice is 404", async () => {
    const [invoice] = await getBilling().listInvoices((await customer()).billingCustomerId!);
    const pdf = (email: string) =>
      demoCookie(email).then((cookie) =>
        respond(async () =>
          invoicePdfLoader({
            request: getRequest(`/account/invoices/${invoice.id}/pdf`, cookie),
            params: { invoiceId: invoice.id },
            context: {},
          }),
        ),
      );
    const own = await pdf("customer@example.com");
    expect(own.status).toBe(200);
    expect(own.headers.get("Content-Type")).toBe("application/pdf");
    expect(
      Buffer.from(await own.arrayBuffer())
        .subarray(0, 5)
        .toString(),
    ).toBe("%PDF-");
    expect((await pdf("distributor@example.com")).status).toBe(404);
  });

  it("keeps the session of the cloud Hub's administrator, sealed, so that a renewed license can be uploaded to it", async () => {
    const owner = await customer();
    const [cloudHub] = await db
      .select()
      .from(hubInstallations)
      .where(and(eq(hubInstallations.ownerId, owner.id), isNotNull(hubInstallations.adminToken)));
    expect(cloudHub.adminToken).not.toMatch(/^demo\./);
    expect(openSecret(cloudHub.adminToken!)).toMatch(/^demo\./);
  });
});

/**
 * A migrated database of the test's engine with nothing in it (a SQLite file of its own, or a copy of the migrated
 * PostgreSQL template), for `work`; removed after it.
 */
async function withEmptyDatabase(work: (empty: PortalDatabase) => Promise<void>) {
  const postgres = engine === "postgres" ? inject("postgres") : null;
  const name = `portal_test_empty_${randomBytes(6).toString("hex")}`;
  const directory = await mkdtemp(path.join(tmpdir(), "gk-empty-"));
  const url = postgres
    ? await createDatabase(postgres.server, name, postgres.template)
    : `file:${path.join(directory, "portal.sqlite")}`;
  const connection = openDatabase(url, { poolMax: 2 });
  try {
    await migrateDatabase(connection);
    await work(connection.db);
  } finally {
    await connection.close();
    if (postgres) await dropDatabase(postgres.server, name);
    await rm(directory, { recursive: true, force: true });
  }
}

/** How many rows of the seed's tables the database has. */
async function rowsOf(store: PortalDatabase) {
  const rows = async (table: PgTable) => (await store.select({ n: count() }).from(table))[0].n;
  return {
    users: await rows(users),
    organizations: await rows(organizations),
    memberships: await rows(memberships),
    licenses: await rows(licenses),
    billingCustomers: await rows(billingCustomers),
  };
}

describe("the demo seed", () => {
  it("is one transaction: a failure part-way leaves nothing of it, and the next start seeds it whole, once", async () => {
    await withEmptyDatabase(async (empty) => {
      // The Hub service already has a tenant of the demo cloud Hub's id: the seed fails at the Hub service, when
      // the people, organizations, licenses and the billing engine's customer are already written.
      const since = new Date();
      await empty.insert(hubTenants).values({
        id: "hub_demo_northwind-west",
        customerId: "someone-else",
        subdomain: "taken-before-the-seed",
        url: "https://taken-before-the-seed.example.com",
        region: 1,
        readyAt: since,
        runningAt: since,
        createdAt: since,
      });
      const failure = await seedDemo(empty).then(
        () => "seeded",
        (error: unknown) => messagesOf(error),
      );
      expect(failure).toContain("hub_tenants");
      expect(await rowsOf(empty)).toEqual({
        users: 0,
        organizations: 0,
        memberships: 0,
        licenses: 0,
        billingCustomers: 0,
      });

      await empty.delete(hubTenants);
      expect(await seedDemo(empty)).toBe(true);
      expect(await seedDemo(empty)).toBe(false);
      // The distributor's three end customers, their licenses and the distributor's billing customer too.
      expect(await rowsOf(empty)).toEqual({
        users: 4,
        organizations: 6,
        memberships: 4,
        licenses: 7,
        billingCustomers: 2,
      });
    });
  }, 60_000);
});
