import { and, count, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { loader as healthz } from "~/routes/healthz";
import { databaseAnswers, db } from "~/server/platform/database/db.server";
import { env } from "~/server/platform/config/env.server";
import { getHubs } from "~/server/hubs/index.server";
import { countLicensesByStatus, listLicenses } from "~/server/subscriptions/licenses.server";
import { seedDemo } from "~/server/demo-seed.server";
import {
  hubInstallations,
  licenses,
  memberships,
  organizations,
  users,
} from "~/server/platform/database/tables.server";
import { memberByEmail } from "../support/members";

describe("the embedded database", () => {
  it("is migrated and seeded with the demo organizations and their members on first use", async () => {
    const customer = await memberByEmail("customer@example.com");
    expect(customer).toMatchObject({
      user: { isGKAdmin: false },
      organization: { name: "Northwind Clinics", customerType: "customer" },
      role: "owner",
    });
    // The customer's organization has a second member, its Technical contact.
    expect(await memberByEmail("technical@example.com")).toMatchObject({
      organization: { id: customer.organization.id },
      role: "technical_contact",
    });
    expect(await memberByEmail("distributor@example.com")).toMatchObject({
      organization: { customerType: "distributor" },
      role: "owner",
    });
    expect((await memberByEmail("admin@example.com")).user).toMatchObject({ isGKAdmin: true });
    // Every demo address is verified, and no organization shares its id with a person.
    for (const email of ["customer@example.com", "technical@example.com", "distributor@example.com"]) {
      const { user, organization } = await memberByEmail(email);
      expect(user.emailVerifiedAt).not.toBeNull();
      expect(organization.id).not.toBe(user.id);
    }
  });

  it("gives the demo customer active and expired licenses and two Hub installations", async () => {
    const customer = (await memberByEmail("customer@example.com")).organization;
    const statuses = (await listLicenses(customer.id)).map((license) => license.status);
    expect(statuses.filter((status) => status === "active")).toHaveLength(3);
    expect(statuses.filter((status) => status === "expired")).toHaveLength(1);
    expect(await countLicensesByStatus(customer)).toEqual({ active: 3, expired: 1 });
    expect(
      (await db.select({ n: count() }).from(hubInstallations).where(eq(hubInstallations.ownerId, customer.id)))[0].n,
    ).toBe(2);
  });

  it("puts the demo's cloud Hub into the embedded Hub service, at its address on the configured Hub host", async () => {
    const customer = (await memberByEmail("customer@example.com")).organization;
    const [cloud] = await db
      .select()
      .from(hubInstallations)
      .where(and(eq(hubInstallations.type, "cloud"), eq(hubInstallations.ownerId, customer.id)));
    expect(cloud.url).toBe(`https://northwind-west.${env.HUB_HOST}`);
    const hubs = getHubs();
    expect(await hubs.checkDomain("northwind-west")).toBe("taken");
    // Its administrator can be signed in to it, and its license is in use on it.
    expect((await hubs.signInLink(cloud.url!)).url).toMatch(
      new RegExp(`^https://northwind-west\\.${env.HUB_HOST}/sign-in\\?ticket=`),
    );
    const inUse = (await listLicenses(customer.id)).find((license) => license.name === "Northwind Clinics West")!;
    expect((await hubs.customerLicenses(customer.id)).map((license) => license.licenseId)).toEqual([
      inUse.externalLicenseId,
    ]);
  });

  it("is seeded only once, so a restart keeps what users changed", async () => {
    expect(await seedDemo(db)).toBe(false);
    expect((await db.select({ n: count() }).from(users))[0].n).toBe(4);
    // Northwind Clinics, SecureLine Resellers and its three end customers, GateKeeper.
    expect((await db.select({ n: count() }).from(organizations))[0].n).toBe(6);
    expect((await db.select({ n: count() }).from(memberships))[0].n).toBe(4);
    expect((await db.select({ n: count() }).from(licenses))[0].n).toBe(7);
  });

  it("answers the health check", async () => {
    expect(await databaseAnswers()).toBe(true);
    const response = (await healthz()) as Response;
    expect(response.status).toBe(200);
    expect(await response.text()).toBe("ok");
  });
});
