import { createHmac, generateKeyPairSync } from "node:crypto";
import type { LoaderFunctionArgs } from "@remix-run/node";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { loader as publicKeyLoader } from "~/routes/license-public-key[.]pem";
import { loader as licensesLoader } from "~/routes/_portal.licenses";
import { loader as downloadLoader } from "~/routes/_portal.licenses.$licenseId.download";
import { action as loginAction } from "~/routes/login";
import { sqlitePlan } from "../support/query-plan";
import { engine, licenses, subscriptions } from "~/server/platform/database/tables.server";
import { db } from "~/server/platform/database/db.server";
import { licenseVerifier, verifyLicenseFile } from "~/server/hubs/license-files.server";
import { licenseRow, reissueLicenseFiles } from "~/server/subscriptions/license-issuing.server";
import { payableInvoiceIdOf } from "~/server/subscriptions/invoices.server";
import { LICENSE_GRACE_DAYS } from "~/domain/renewals";
import { billingAccountOf } from "~/server/accounts/billing-accounts.server";
import { saveSubscriptionCopy, subscriptionCopy } from "~/server/subscriptions/copies.server";
import { licenseFollowsSubscription } from "~/server/subscriptions/license-follows.server";
import { memberByEmail } from "../support/members";
import { subscriptionFixture } from "../support/billing-copies";
import { cookieFrom, formRequest, getRequest } from "../support/requests";

/** License files: signed with Ed25519, verified with the public key alone, re-issued at start-up. */

type Loader = (args: LoaderFunctionArgs) => Promise<unknown> | unknown;

const settle = (run: Promise<unknown> | unknown) =>
  Promise.resolve(run).then(
    (response) => response as Response,
    (thrown: unknown) => (thrown instanceof Response ? thrown : Promise.reject(thrown)),
  );

const cookies = new Map<string, string>();
async function cookieOf(email: string) {
  if (!cookies.has(email)) {
    const request = await formRequest("/login", { email, password: "GateKeeper-demo-1" });
    const signedIn = await settle(loginAction({ request, params: {}, context: {} }));
    cookies.set(email, cookieFrom(signedIn.headers.get("Set-Cookie")));
  }
  return cookies.get(email) ?? "";
}

async function get(loader: Loader, path: string, email: string, params: Record<string, string> = {}) {
  return settle(loader({ request: getRequest(path, await cookieOf(email)), params, context: {} }));
}

async function customerLicense(externalLicenseId: string) {
  const [license] = await db.select().from(licenses).where(eq(licenses.externalLicenseId, externalLicenseId));
  if (!license) throw new Error(`no license ${externalLicenseId}`);
  return license;
}

/** The file's JSON with its payload's terms changed, the signature kept. */
function tampered(file: string, change: Record<string, unknown>): string {
  const parsed = JSON.parse(file) as { protected: string; payload: string; signature: string };
  const terms = JSON.parse(Buffer.from(parsed.payload, "base64url").toString("utf8")) as Record<string, unknown>;
  const payload = Buffer.from(JSON.stringify({ ...terms, ...change })).toString("base64url");
  return JSON.stringify({ ...parsed, payload });
}

describe("a downloaded license file", () => {
  it("verifies with the public key served at /license-public-key.pem, and says what the license is", async () => {
    const license = await customerLicense("GK-NWC-2026-0001");
    const download = await get(downloadLoader, `/licenses/${license.id}/download`, "customer@example.com", {
      licenseId: license.id,
    });
    expect(download.status).toBe(200);
    expect(download.headers.get("Content-Disposition")).toBe(
      'attachment; filename="gatekeeper-license-GK-NWC-2026-0001.json"',
    );
    expect(download.headers.get("Cache-Control")).toBe("no-store");
    const file = await download.text();

    const publicKey = await settle(publicKeyLoader());
    expect(publicKey.headers.get("Content-Type")).toBe("application/x-pem-file");
    const pem = await publicKey.text();
    expect(pem).toMatch(/^-----BEGIN PUBLIC KEY-----\n/);

    expect(licenseVerifier(pem)(file)).toEqual({
      id: "GK-NWC-2026-0001",
      organization: "Northwind Clinics",
      users: 10,
      plan: "core",
      cloudSupport: false,
      validFrom: license.validFrom.toISOString(),
      validTo: license.validTo.toISOString(),
      type: "recurring",
      issuedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/) as unknown as string,
    });
    // The documented check, with nothing but node:crypto and the PEM (docs/license-files.md).
    const { createPublicKey, verify } = await import("node:crypto");
    const parsed = JSON.parse(file) as { protected: string; payload: string; signature: string };
    const signed = Buffer.from(`${parsed.protected}.${parsed.payload}`);
    expect(verify(null, signed, createPublicKey(pem), Buffer.from(parsed.signature, "base64url"))).toBe(true);
    expect(JSON.parse(Buffer.from(parsed.protected, "base64url").toString())).toMatchObject({ alg: "EdDSA" });
  });

  it("is rejected when its terms were edited, its signature changed, or another key signed it", async () => {
    const file = (await customerLicense("GK-NWC-2026-0002")).licenseCode;
    expect(verifyLicenseFile(file)).toMatchObject({ users: 25 });
    expect(verifyLicenseFile(tampered(file, { users: 1000 }))).toBeNull();
    expect(verifyLicenseFile(tampered(file, { validTo: "2099-01-01T00:00:00.000Z" }))).toBeNull();
    const parsed = JSON.parse(file) as { signature: string };
    const flipped = Buffer.from(parsed.signature, "base64url");
    flipped[0] ^= 1;
    expect(verifyLicenseFile(JSON.stringify({ ...parsed, signature: flipped.toString("base64url") }))).toBeNull();
    const stranger = generateKeyPairSync("ed25519").publicKey;
    expect(licenseVerifier(stranger)(file)).toBeNull();
    expect(verifyLicenseFile("not json")).toBeNull();
    expect(verifyLicenseFile("{}")).toBeNull();
  });

  it("is another account's: 404, like an unknown license", async () => {
    const license = await customerLicense("GK-NWC-2026-0001");
    for (const [email, id] of [
      ["distributor@example.com", license.id],
      ["customer@example.com", "no-such-license"],
    ]) {
      const response = await get(downloadLoader, `/licenses/${id}/download`, email, { licenseId: id });
      expect(response.status).toBe(404);
    }
  });
});

describe("a subscription's license after the subscription changed", () => {
  it("takes the new users, plan and validity from the account's copy, and its file is re-signed with them", async () => {
    const customer = (await memberByEmail("customer@example.com")).organization;
    const account = billingAccountOf(customer);
    const termEnd = new Date("2027-06-01T00:00:00Z");
    const before = await subscriptionCopy(account, "sub_demo_core_monthly");
    await saveSubscriptionCopy(
      account,
      subscriptionFixture({
        id: "sub_demo_core_monthly",
        customerId: customer.billingCustomerId!,
        planId: "advanced-monthly",
        planQuantity: 15,
        currentTermStart: new Date("2027-05-01T00:00:00Z"),
        currentTermEnd: termEnd,
        resourceVersion: (before?.resourceVersion ?? 0) + 1,
      }),
    );
    expect(await licenseFollowsSubscription(account, "sub_demo_core_monthly")).toMatchObject({ resigned: true });
    const validTo = new Date(termEnd.getTime() + LICENSE_GRACE_DAYS * 24 * 60 * 60 * 1000);
    const [updated] = await db.select().from(licenses).where(eq(licenses.subscriptionId, "sub_demo_core_monthly"));
    expect(updated).toMatchObject({ externalLicenseId: "GK-NWC-2026-0001", nodes: 15, planType: "advanced", validTo });
    expect(verifyLicenseFile(updated!.licenseCode)).toMatchObject({
      id: "GK-NWC-2026-0001",
      users: 15,
      plan: "advanced",
      validTo: validTo.toISOString(),
    });
    // Another organization has no copy of the subscription, nor its license: nothing of theirs follows it.
    const distributor = (await memberByEmail("distributor@example.com")).organization;
    expect(await licenseFollowsSubscription(billingAccountOf(distributor), "sub_demo_core_monthly")).toBeNull();
  });
});

describe("re-issuing license files at start-up", () => {
  it("re-signs licenses from before signed files, once", async () => {
    const owner = (await memberByEmail("admin@example.com")).organization;
    const row = licenseRow(owner.id, {
      externalLicenseId: "GK-OLD-HMAC-1",
      name: "Old Format Ltd",
      nodes: 7,
      planType: "advanced",
      type: "recurring",
      hasCloudSupport: true,
      validFrom: new Date("2026-01-01T00:00:00Z"),
      validTo: new Date("2027-01-01T00:00:00Z"),
    });
    // The old code: HMAC-signed base64url JSON, `GK1.<mac>.<terms>`.
    const body = Buffer.from(JSON.stringify({ externalLicenseId: "GK-OLD-HMAC-1" })).toString("base64url");
    const oldCode = `GK1.${createHmac("sha256", "old").update(body).digest("base64url")}.${body}`;
    await db.insert(licenses).values({ ...row, licenseCode: oldCode });

    expect(await reissueLicenseFiles(db)).toBe(1);
    const reissued = (await customerLicense("GK-OLD-HMAC-1")).licenseCode;
    expect(verifyLicenseFile(reissued)).toMatchObject({ id: "GK-OLD-HMAC-1", users: 7, plan: "advanced" });
    expect(await reissueLicenseFiles(db)).toBe(0);
    await db.delete(licenses).where(eq(licenses.externalLicenseId, "GK-OLD-HMAC-1"));
  });
});

describe("the licenses page", () => {
  it("shows the demo customer's licenses, keys shortened, with Download and Add Users links", async () => {
    const response = await get(licensesLoader, "/licenses", "customer@example.com");
    const data = (await response.json()) as {
      total: number;
      licenses: { externalLicenseId: string; key: string; downloadUrl: string; addUsersUrl: string | null }[];
    };
    expect(data.total).toBe(4);
    expect(data.licenses.map((license) => license.externalLicenseId)).toEqual([
      "GK-NWC-2026-0002",
      "GK-NWC-2026-0001",
      "GK-NWC-2025-0007",
      "GK-NWC-2024-0003",
    ]);
    for (const license of data.licenses) expect(license.key).toMatch(/^[\w-]{15}\.\.\.$/);
    const core = data.licenses[1];
    expect(core.downloadUrl).toBe(`/licenses/${(await customerLicense("GK-NWC-2026-0001")).id}/download`);
    expect(core.addUsersUrl).toBe("/licenses/sub_demo_core_monthly/update/product");
    // Users are added to each running subscription: not to the license whose subscription ended.
    expect(data.licenses.filter((license) => license.addUsersUrl).map((license) => license.externalLicenseId)).toEqual([
      "GK-NWC-2026-0002",
      "GK-NWC-2026-0001",
      "GK-NWC-2025-0007",
    ]);
  });

  it("pages by five in SQL, and sends a page out of range to the nearest one", async () => {
    const owner = (await memberByEmail("admin@example.com")).organization;
    const rows = Array.from({ length: 12 }, (_, i) =>
      licenseRow(owner.id, {
        externalLicenseId: `GK-PAGE-${String(i).padStart(2, "0")}`,
        name: "Paging Ltd",
        nodes: 1,
        planType: "core",
        type: "trial",
        hasCloudSupport: false,
        validFrom: new Date(Date.UTC(2026, 0, 1 + i)),
        validTo: new Date(Date.UTC(2027, 0, 1 + i)),
      }),
    );
    await db.insert(licenses).values(rows);
    const page = async (query: string) => get(licensesLoader, `/licenses${query}`, "admin@example.com");
    const ids = async (query: string) =>
      ((await (await page(query)).json()) as { licenses: { externalLicenseId: string }[] }).licenses.map(
        (license) => license.externalLicenseId,
      );
    expect(await ids("")).toEqual(["GK-PAGE-11", "GK-PAGE-10", "GK-PAGE-09", "GK-PAGE-08", "GK-PAGE-07"]);
    expect(await ids("?page=3")).toEqual(["GK-PAGE-01", "GK-PAGE-00"]);
    expect((await page("?page=4")).headers.get("Location")).toBe("/licenses?page=3");
    for (const wrong of ["?page=0", "?page=-1", "?page=two", "?page=1.5"]) {
      expect((await page(wrong)).headers.get("Location")).toBe("/licenses");
    }
  });

  // SQLite's query plan; on PostgreSQL the planner's choice depends on the table's statistics.
  it.skipIf(engine === "postgres")(
    "reads a page off the owner's index, without sorting or scanning other accounts' rows",
    () => {
      const details = sqlitePlan(
        "select * from licenses where owner_id = ? order by valid_from desc, id desc limit 5 offset 5",
        "someone",
      );
      expect(details).toContain("USING INDEX licenses_owner_valid_from_idx");
      expect(details).not.toContain("TEMP B-TREE");
    },
  );

  it.skipIf(engine === "postgres")(
    "finds each row's newest payable invoice off the (subscription, status, date) index, without sorting per row",
    () => {
      // Joined as the page joins them: in a select of one table, drizzle leaves columns unqualified, and the
      // subquery's would name the invoice's own.
      const query = db
        .select({ invoiceId: payableInvoiceIdOf(licenses.subscriptionId, licenses.ownerId) })
        .from(licenses)
        .leftJoin(subscriptions, eq(subscriptions.id, licenses.subscriptionId))
        .where(eq(licenses.ownerId, "someone"))
        .toSQL();
      const details = sqlitePlan(query.sql, ...query.params);
      expect(details).toContain("USING INDEX invoices_subscription_status_date_idx");
      expect(details).not.toContain("TEMP B-TREE");
    },
  );
});
