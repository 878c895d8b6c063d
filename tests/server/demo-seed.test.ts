import type { LoaderFunctionArgs } from "@remix-run/node";
import { and, eq, isNotNull } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { licenseEndOf } from "~/domain/renewals";
import { loader as invoicesLoader } from "~/routes/_portal.account_.invoices";
import { loader as invoicePdfLoader } from "~/routes/_portal.account_.invoices.$invoiceId.pdf";
import { loader as licensesLoader } from "~/routes/_portal.licenses";
import { getBilling } from "~/server/billing/index.server";
import { db } from "~/server/db.server";
import { openSecret } from "~/server/wizards/sealed.server";
import { verifyLicenseFile } from "~/server/license-files.server";
import { memberByEmail } from "../support/members";
import { hubInstallations, licenses, subscriptions } from "~db/schema";
import { getRequest, respond } from "../support/requests";
import { demoCookie } from "../support/sign-in";

/** A fresh clone's demo data: what the portal shows of the demo customer is what the embedded engine holds. */
const call = async (loader: (args: LoaderFunctionArgs) => Promise<unknown>, path: string, cookie: string) =>
  respond(async () => loader({ request: getRequest(path, cookie), params: {}, context: {} }));

const customer = () => memberByEmail("customer@example.com").organization;

describe("the demo data", () => {
  it("gives every recurring license the term of its subscription at the engine, in the portal's copy and in its file", async () => {
    const owner = customer();
    const recurring = db
      .select()
      .from(licenses)
      .where(and(eq(licenses.ownerId, owner.id), eq(licenses.type, "recurring")))
      .all();
    expect(recurring.length).toBe(4);
    for (const license of recurring) {
      expect(license.subscriptionId, license.externalLicenseId).not.toBeNull();
      const atEngine = await getBilling().retrieveSubscription(owner.billingCustomerId!, license.subscriptionId!);
      expect(license.validTo, license.externalLicenseId).toEqual(licenseEndOf(atEngine));
      expect(verifyLicenseFile(license.licenseCode)?.validTo).toBe(license.validTo.toISOString());
      const copy = db.select().from(subscriptions).where(eq(subscriptions.id, atEngine.id)).get();
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
    const owner = customer();
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

  it("gives each of them as a PDF to its account only: another account's invoice is 404", async () => {
    const [invoice] = await getBilling().listInvoices(customer().billingCustomerId!);
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

  it("keeps the session of the cloud Hub's administrator, sealed, so that a renewed license can be uploaded to it", () => {
    const owner = customer();
    const [cloudHub] = db
      .select()
      .from(hubInstallations)
      .where(and(eq(hubInstallations.ownerId, owner.id), isNotNull(hubInstallations.adminToken)))
      .all();
    expect(cloudHub.adminToken).not.toMatch(/^demo\./);
    expect(openSecret(cloudHub.adminToken!)).toMatch(/^demo\./);
  });
});
