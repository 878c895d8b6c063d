import type { LoaderFunctionArgs } from "@remix-run/node";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { loader as homeLoader } from "~/routes/_portal.home";
import { loader as hubsLoader } from "~/routes/_portal.hubs";
import { action as loginAction } from "~/routes/login";
import { db } from "~/server/db.server";
import { findUserByEmail } from "~/server/users.server";
import { hubInstallations, licenses } from "~db/schema";
import { cookieFrom, formRequest, getRequest, respond } from "../support/requests";

async function customerCookie(): Promise<string> {
  const request = await formRequest("/login", { email: "customer@example.com", password: "GateKeeper-demo-1" });
  return cookieFrom((await respond(() => loginAction({ request, params: {}, context: {} }))).headers.get("Set-Cookie"));
}

const call = async (loader: (args: LoaderFunctionArgs) => Promise<unknown>, path: string, cookie: string) =>
  respond(async () => loader({ request: getRequest(path, cookie), params: {}, context: {} }));

describe("the home page's figures", () => {
  it("count active and expired licenses and Hubs in SQL, as the lists would", async () => {
    const owner = findUserByEmail("customer@example.com")!;
    const now = Date.now();
    const rows = db.select({ validTo: licenses.validTo }).from(licenses).where(eq(licenses.ownerId, owner.id)).all();
    const hubs = db.select().from(hubInstallations).where(eq(hubInstallations.ownerId, owner.id)).all();
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
    const owner = findUserByEmail("customer@example.com")!;
    const [template] = db.select().from(hubInstallations).where(eq(hubInstallations.ownerId, owner.id)).all();
    const before = db.select().from(hubInstallations).where(eq(hubInstallations.ownerId, owner.id)).all().length;
    const seenAt = (n: number) => new Date(Date.UTC(2020, 0, 1) + n * 60_000);
    db.insert(hubInstallations)
      .values(Array.from({ length: 21 }, (_, n) => ({ ...template, id: `page-test-${n}`, lastSeen: seenAt(n) })))
      .run();
    const cookie = await customerCookie();

    const first = await (await call(hubsLoader, "/hubs", cookie)).json();
    expect(first).toMatchObject({ page: 1, pages: Math.ceil((before + 21) / 10), total: before + 21 });
    expect(first.hubs).toHaveLength(10);
    const last = await (await call(hubsLoader, `/hubs?page=${first.pages}`, cookie)).json();
    expect(last.hubs).toHaveLength((before + 21) % 10 || 10);
    // The oldest of the added Hubs comes last.
    expect(last.hubs.at(-1).id).toBe("page-test-0");

    for (const [path, location] of [
      ["/hubs?page=zero", "/hubs"],
      [`/hubs?page=${first.pages + 5}`, `/hubs?page=${first.pages}`],
    ]) {
      const response = await call(hubsLoader, path, cookie);
      expect(response.status).toBe(302);
      expect(response.headers.get("Location")).toBe(location);
    }
  });
});
