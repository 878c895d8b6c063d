import { count, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { loader as healthz } from "~/routes/healthz";
import { databaseAnswers, db } from "~/server/db.server";
import { env } from "~/server/env.server";
import { getHubs } from "~/server/hubs/index.server";
import { countLicensesByStatus, listLicenses } from "~/server/licenses.server";
import { findUserByEmail } from "~/server/users.server";
import { seedDemo } from "~/server/demo-seed.server";
import { hubInstallations, licenses, users } from "~db/schema";

describe("the embedded database", () => {
  it("is migrated and seeded with the three demo accounts on first use", () => {
    expect(findUserByEmail("customer@example.com")).toMatchObject({ customerType: "customer", isGKAdmin: false });
    expect(findUserByEmail("distributor@example.com")).toMatchObject({ customerType: "distributor", isGKAdmin: false });
    expect(findUserByEmail("admin@example.com")).toMatchObject({ isGKAdmin: true });
  });

  it("gives the demo customer active and expired licenses and two Hub installations", () => {
    const customer = findUserByEmail("customer@example.com")!;
    const statuses = listLicenses(customer.id).map((license) => license.status);
    expect(statuses.filter((status) => status === "active")).toHaveLength(3);
    expect(statuses.filter((status) => status === "expired")).toHaveLength(1);
    expect(countLicensesByStatus(customer.id)).toEqual({ active: 3, expired: 1 });
    expect(db.select({ n: count() }).from(hubInstallations).get()?.n).toBe(2);
  });

  it("puts the demo's cloud Hub into the embedded Hub service, at its address on the configured Hub host", async () => {
    const customer = findUserByEmail("customer@example.com")!;
    const cloud = db.select().from(hubInstallations).where(eq(hubInstallations.type, "cloud")).get()!;
    expect(cloud.url).toBe(`https://northwind-west.${env.HUB_HOST}`);
    const hubs = getHubs();
    expect(await hubs.checkDomain("northwind-west")).toBe("taken");
    // Its administrator can be signed in to it, and its license is in use on it.
    expect((await hubs.signInLink(cloud.url!)).url).toMatch(
      new RegExp(`^https://northwind-west\\.${env.HUB_HOST}/sign-in\\?ticket=`),
    );
    const inUse = listLicenses(customer.id).find((license) => license.name === "Northwind Clinics West")!;
    expect((await hubs.customerLicenses(customer.id)).map((license) => license.licenseId)).toEqual([
      inUse.externalLicenseId,
    ]);
  });

  it("is seeded only once, so a restart keeps what users changed", () => {
    seedDemo(db);
    expect(db.select({ n: count() }).from(users).get()?.n).toBe(3);
    expect(db.select({ n: count() }).from(licenses).get()?.n).toBe(4);
  });

  it("answers the health check", async () => {
    expect(databaseAnswers()).toBe(true);
    const response = (await healthz()) as Response;
    expect(response.status).toBe(200);
    expect(await response.text()).toBe("ok");
  });
});
