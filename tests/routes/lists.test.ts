import type { LoaderFunctionArgs } from "@remix-run/node";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { loader as homeLoader } from "~/routes/_portal.home";
import { loader as hubsLoader } from "~/routes/_portal.hubs";
import { loader as hubLicensesLoader } from "~/routes/_portal.hubs.$hubId.licenses";
import { action as loginAction } from "~/routes/login";
import { hubInstallationLicenses, hubInstallations, licenses } from "~/server/platform/database/tables.server";
import { db } from "~/server/platform/database/db.server";
import { memberByEmail } from "../support/members";
import { licenseRow } from "~/server/subscriptions/license-issuing.server";
import { cookieFrom, formRequest, getRequest, respond } from "../support/requests";

async function customerCookie(): Promise<string> {
  const request = await formRequest("/login", { email: "customer@example.com", password: "GateKeeper-demo-1" });
  return cookieFrom((await respond(() => loginAction({ request, params: {}, context: {} }))).headers.get("Set-Cookie"));
}

const hubsOf = (ownerId: string) => db.select().from(hubInstallations).where(eq(hubInstallations.ownerId, ownerId));

const call = async (loader: (args: LoaderFunctionArgs) => Promise<unknown>, path: string, cookie: string) =>
  respond(async () => loader({ request: getRequest(path, cookie), params: {}, context: {} }));

describe("the home page's figures", () => {
  it("count active and expired licenses and Hubs in SQL, as the lists would", async () => {
    const owner = (await memberByEmail("customer@example.com")).organization;
    const now = Date.now();
    const rows = await db.select({ validTo: licenses.validTo }).from(licenses).where(eq(licenses.ownerId, owner.id));
    const hubs = await hubsOf(owner.id);
    const data = await (await call(homeLoader, "/home", await customerCookie())).json();
    expect(data.activeLicenses).toBe(rows.filter((row) => row.validTo.getTime() > now).length);
    expect(data.expiredLicenses).toBe(rows.filter((row) => row.validTo.getTime() <= now).length);
    expect(data.activeLicenses).toBeGreaterThan(0);
    expect(data.expiredLicenses).toBeGreaterThan(0);
    expect(data.hubs).toBe(hubs.length);
  });
});

describe("the Hubs page", () => {
  it("shows 10 Hubs per page, most recently seen first, with plain ?page= links", async () => {
    const owner = (await memberByEmail("customer@example.com")).organization;
    const existing = await hubsOf(owner.id);
    const [template] = existing;
    const before = existing.length;
    const seenAt = (n: number) => new Date(Date.UTC(2020, 0, 1) + n * 60_000);
    await db
      .insert(hubInstallations)
      .values(Array.from({ length: 21 }, (_, n) => ({ ...template, id: `page-test-${n}`, lastSeen: seenAt(n) })));
    const cookie = await customerCookie();

    const first = await (await call(hubsLoader, "/hubs", cookie)).json();
    expect(first).toMatchObject({
      query: { type: "all", page: 1 },
      pages: Math.ceil((before + 21) / 10),
      total: before + 21,
    });
    expect(first.hubs).toHaveLength(10);
    const last = await (await call(hubsLoader, `/hubs?page=${first.pages}`, cookie)).json();
    expect(last.hubs).toHaveLength((before + 21) % 10 || 10);
    // The oldest of the added Hubs comes last.
    expect(last.hubs.at(-1).id).toBe("page-test-0");

    for (const [path, location] of [
      ["/hubs?page=zero", "/hubs"],
      ["/hubs?type=moon&page=2", "/hubs"],
      ["/hubs?type=cloud&page=zero", "/hubs?type=cloud"],
      [`/hubs?page=${first.pages + 5}`, `/hubs?page=${first.pages}`],
    ]) {
      const response = await call(hubsLoader, path, cookie);
      expect(response.status).toBe(302);
      expect(response.headers.get("Location")).toBe(location);
    }
  });
});

describe("the Hubs page's Type filter", () => {
  it("pages only the Hubs of that type, with every column of the spec", async () => {
    const owner = (await memberByEmail("customer@example.com")).organization;
    const cookie = await customerCookie();
    const all = await hubsOf(owner.id);
    const local = all.filter((hub) => hub.type === "local");
    const data = await (await call(hubsLoader, "/hubs?type=local", cookie)).json();
    expect(data.total).toBe(local.length);
    expect(data.hubs.map((hub: { type: string }) => hub.type)).toEqual(
      Array(Math.min(10, local.length)).fill("On-Premise"),
    );
    const seeded = data.hubs.find((hub: { address: string }) => hub.address === "10.20.0.15");
    expect(seeded).toMatchObject({
      users: "8/10",
      tokens: 9,
      passwords: 87,
      locks: "960/11,022",
      unlocks: "941/10,870",
      web: "45/601",
    });
    expect(seeded.licensesUrl).toBe(`/hubs/${seeded.id}/licenses?type=local`);
  });
});

describe("a Hub's licenses", () => {
  const DAY = 24 * 60 * 60 * 1000;
  const owner = async () => (await memberByEmail("customer@example.com")).organization;
  const hubLicenses = (path: string, hubId: string, cookie: string) =>
    respond(async () => hubLicensesLoader({ request: getRequest(path, cookie), params: { hubId }, context: {} }));

  /** A Hub of the customer's with 7 licenses: 4 active, 3 expired, named so that name order is known. */
  async function hubWithLicenses(): Promise<string> {
    const hubId = "licenses-test-hub";
    const { id: ownerId } = await owner();
    const [template] = await hubsOf(ownerId);
    await db.insert(hubInstallations).values({ ...template, id: hubId });
    // In whole seconds, as the engine's clock that the pages judge licenses by keeps time.
    const now = Math.floor(Date.now() / 1000) * 1000;
    for (let n = 0; n < 7; n += 1) {
      const expired = n % 2 === 1;
      const row = licenseRow(ownerId, {
        externalLicenseId: `GK-HUBTEST-${n}`,
        name: `Org ${String.fromCharCode(65 + n)}`,
        nodes: 10 + n,
        planType: "core",
        type: "recurring",
        hasCloudSupport: true,
        validFrom: new Date(now - (100 - n) * DAY),
        validTo: new Date(now + (expired ? -n : n + 1) * DAY),
      });
      await db.insert(licenses).values(row);
      await db.insert(hubInstallationLicenses).values({ hubInstallationId: hubId, licenseId: row.id });
    }
    return hubId;
  }

  it("says on the Hubs page which license's new file could not be put on the Hub, and why, with the file", async () => {
    const cookie = await customerCookie();
    const { id: ownerId } = await owner();
    const [template] = await hubsOf(ownerId);
    const [license] = await db.select().from(licenses).where(eq(licenses.ownerId, ownerId)).limit(1);
    // Seen last of all, so first on the page.
    const hubId = "upload-test-hub";
    await db.insert(hubInstallations).values({ ...template, id: hubId, lastSeen: new Date(Date.now() + DAY) });
    await db.insert(hubInstallationLicenses).values({ hubInstallationId: hubId, licenseId: license.id });
    const shown = async () => (await (await call(hubsLoader, "/hubs", cookie)).json()).hubs[0];
    expect(await shown()).toMatchObject({ id: hubId, notUploaded: null });
    await db
      .update(hubInstallationLicenses)
      .set({ uploadState: "failed", uploadMessage: "Upload it on the Hub." })
      .where(eq(hubInstallationLicenses.hubInstallationId, hubId));
    expect((await shown()).notUploaded).toEqual({
      message: "Upload it on the Hub.",
      downloadUrl: `/licenses/${license.id}/download`,
    });
  });

  it("shows 5 a page, newest first, sorted and filtered through the URL, with the range of rows", async () => {
    const cookie = await customerCookie();
    const hubId = await hubWithLicenses();
    const base = `/hubs/${hubId}/licenses`;
    const first = await (await hubLicenses(base, hubId, cookie)).json();
    expect(first).toMatchObject({
      total: 7,
      pages: 2,
      query: { status: "all", sort: "validFrom", direction: "desc", page: 1 },
      closeTo: "/hubs",
    });
    expect(first.licenses.map((license: { name: string }) => license.name)).toEqual([
      "Org G",
      "Org F",
      "Org E",
      "Org D",
      "Org C",
    ]);
    expect(first.licenses[0].key).toMatch(/^.{15}\.\.\.$/);

    const byName = await (
      await hubLicenses(`${base}?type=local&licensesSort=name&licensesPage=2`, hubId, cookie)
    ).json();
    expect(byName.licenses.map((license: { name: string }) => license.name)).toEqual(["Org F", "Org G"]);
    expect(byName.closeTo).toBe("/hubs?type=local");

    const expired = await (
      await hubLicenses(`${base}?licensesStatus=expired&licensesSort=-nodes`, hubId, cookie)
    ).json();
    expect(expired.total).toBe(3);
    expect(
      expired.licenses.map((license: { nodes: number; status: string }) => [license.nodes, license.status]),
    ).toEqual([
      [15, "expired"],
      [13, "expired"],
      [11, "expired"],
    ]);
    const byDaysLeft = await (
      await hubLicenses(`${base}?licensesStatus=active&licensesSort=-daysLeft`, hubId, cookie)
    ).json();
    expect(byDaysLeft.licenses.map((license: { daysLeft: number }) => license.daysLeft)).toEqual([7, 5, 3, 1]);
    const byStatus = await (await hubLicenses(`${base}?licensesSort=status`, hubId, cookie)).json();
    expect(byStatus.licenses.slice(0, 3).map((license: { status: string }) => license.status)).toEqual([
      "expired",
      "expired",
      "expired",
    ]);

    for (const [path, location] of [
      [`${base}?licensesSort=key`, base],
      [`${base}?licensesStatus=maybe&type=cloud`, `${base}?type=cloud`],
      [`${base}?licensesStatus=expired&licensesPage=9`, `${base}?licensesStatus=expired`],
    ]) {
      const response = await hubLicenses(path, hubId, cookie);
      expect(response.status, path).toBe(302);
      expect(response.headers.get("Location"), path).toBe(location);
    }
  });

  it("is empty for a Hub without licenses, and not found for someone else's Hub", async () => {
    const cookie = await customerCookie();
    const [template] = await hubsOf((await owner()).id);
    await db.insert(hubInstallations).values({ ...template, id: "no-licenses-hub" });
    expect(await (await hubLicenses("/hubs/no-licenses-hub/licenses", "no-licenses-hub", cookie)).json()).toMatchObject(
      { total: 0, licenses: [] },
    );

    const distributor = (await memberByEmail("distributor@example.com")).organization;
    await db.insert(hubInstallations).values({ ...template, id: "someone-elses-hub", ownerId: distributor.id });
    expect((await hubLicenses("/hubs/someone-elses-hub/licenses", "someone-elses-hub", cookie)).status).toBe(404);
  });
});
