import { randomUUID } from "node:crypto";
import { and, asc, eq, gt } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { POLICY } from "~/domain/access-policy";
import { loader as adminListLoader } from "~/routes/_portal.admin.customers";
import { loader as adminPageLoader } from "~/routes/_portal.admin.customers_.$organizationId";
import { action as moveAction, loader as moveLoader } from "~/routes/_portal.admin.customers_.$organizationId_.move";
import { loader as customerLoader } from "~/routes/_portal.customers.$customerId._index";
import { loader as renewalsLoader } from "~/routes/_portal.customers.renewals";
import { loader as renewalsCsvLoader } from "~/routes/_portal.customers.renewals[.csv]";
import { searchOrganizationsForAdmin } from "~/server/accounts/organizations.server";
import { db } from "~/server/platform/database/db.server";
import { activity, licenses, organizations } from "~/server/platform/database/tables.server";
import { createAccount, memberByEmail } from "../support/members";
import { openRoute as open, postRoute as post } from "../support/requests";
import { demoCookie, freshSession } from "../support/sign-in";

/**
 * GateKeeper's administrators see a distributor's end customers beside it, and move an end customer to another
 * distributor: its managed_by, with an entry in three activity logs; what the old distributor bought for it stays
 * that one's to pay for, and the new one sees it on the customer's page.
 */

const secureLine = async () => (await memberByEmail("distributor@example.com")).organization;

async function organizationNamed(name: string) {
  const [row] = await db.select().from(organizations).where(eq(organizations.name, name));
  if (!row) throw new Error(`No organization is called ${name}.`);
  return row;
}

/** A new distributor with an Owner, signed in. */
async function newDistributor(name: string) {
  const id = randomUUID();
  await db.insert(organizations).values({ id, name, customerType: "distributor" });
  const email = `owner-${id.slice(0, 8)}@reseller.example`;
  const { passwordHash } = (await memberByEmail("distributor@example.com")).user;
  await createAccount(email, passwordHash, { role: "owner", organizationId: id });
  return { id, cookie: await freshSession(email) };
}

const moveOf = (customerId: string, fields: Record<string, string>, cookie: string) =>
  post(moveAction, `/admin/customers/${customerId}/move`, fields, cookie, { organizationId: customerId });

describe("end customers on the administration pages", { timeout: 60_000 }, () => {
  it("lists a distributor with its number of end customers, and them on its page, a page at a time", async () => {
    const admin = await demoCookie("admin@example.com");
    const list = await (await open(adminListLoader, "/admin/customers", admin)).json();
    const names = list.organizations.map((organization: { name: string }) => organization.name);
    expect(names).toContain("SecureLine Resellers");
    // End customers are listed under their distributor, never all at once on the list.
    expect(names).not.toContain("Harbor Dental Group");
    expect(
      list.organizations.find((organization: { name: string }) => organization.name === "SecureLine Resellers"),
    ).toMatchObject({ endCustomers: 3 });
    // A search finds end customers too: staff look a customer up by its name, whoever manages it.
    const found = await searchOrganizationsForAdmin("harbor", 1);
    expect(found.organizations.map((organization) => organization.name)).toEqual(["Harbor Dental Group"]);

    const reseller = await secureLine();
    const page = await (
      await open(adminPageLoader, `/admin/customers/${reseller.id}`, admin, { organizationId: reseller.id })
    ).json();
    expect(page.resellers).toMatchObject({ kind: "distributor", total: 3, page: 1, pages: 1 });
    expect(page.resellers.customers.map((customer: { name: string }) => customer.name)).toEqual([
      "Alpine Logistics AG",
      "Harbor Dental Group",
      "Meridian Law LLP",
    ]);
    const harbor = await organizationNamed("Harbor Dental Group");
    const customerPage = await (
      await open(adminPageLoader, `/admin/customers/${harbor.id}`, admin, { organizationId: harbor.id })
    ).json();
    expect(customerPage.resellers).toMatchObject({
      kind: "end customer",
      reseller: { id: reseller.id, name: "SecureLine Resellers" },
    });
    expect(customerPage.resellers.choices.map((choice: { id: string }) => choice.id)).not.toContain(reseller.id);
  });

  it("refuses the move to anyone but GateKeeper's administrators, with the policy's reason", async () => {
    const harbor = await organizationNamed("Harbor Dental Group");
    const target = await newDistributor("Refused Target Ltd");
    for (const cookie of [await freshSession("distributor@example.com"), target.cookie]) {
      const refused = await moveOf(harbor.id, { reseller: target.id }, cookie);
      expect(refused.status).toBe(403);
      expect((await refused.json()).message).toBe(POLICY["customers.move"].onlyFor);
      const page = await open(moveLoader, `/admin/customers/${harbor.id}/move`, cookie, { organizationId: harbor.id });
      expect(page.status).toBe(403);
    }
    expect((await organizationNamed("Harbor Dental Group")).managedBy).toBe((await secureLine()).id);
  });

  it("refuses a target that is no other distributor, and an organization that is no end customer", async () => {
    const admin = await demoCookie("admin@example.com");
    const harbor = await organizationNamed("Harbor Dental Group");
    const reseller = await secureLine();
    const northwind = await organizationNamed("Northwind Clinics");
    const meridian = await organizationNamed("Meridian Law LLP");
    const fieldError = async (fields: Record<string, string>) => {
      const refused = await moveOf(harbor.id, fields, admin);
      expect(refused.status).toBe(422);
      return (await refused.json()).fieldErrors.reseller;
    };
    expect(await fieldError({})).toBe("Choose the distributor to move this customer to.");
    expect(await fieldError({ reseller: reseller.id })).toBe("The customer is this distributor's already.");
    for (const wrong of [northwind.id, meridian.id, randomUUID()])
      expect(await fieldError({ reseller: wrong })).toBe("Choose a GateKeeper distributor.");
    const notAnEndCustomer = await moveOf(northwind.id, { reseller: reseller.id }, admin);
    expect(notAnEndCustomer.status).toBe(404);
    expect((await organizationNamed("Harbor Dental Group")).managedBy).toBe(reseller.id);
  });

  it("moves an end customer, with an entry on all three; the old distributor keeps paying what it bought", async () => {
    const admin = await demoCookie("admin@example.com");
    const meridian = await organizationNamed("Meridian Law LLP");
    const old = await secureLine();
    const target = await newDistributor("Harbour Partners GmbH");
    const [bought] = await db
      .select()
      .from(licenses)
      .where(and(eq(licenses.licenseeId, meridian.id), eq(licenses.ownerId, old.id)));
    expect(bought).toBeDefined();
    const lastEntry = (await db.select({ id: activity.id }).from(activity).orderBy(asc(activity.id))).at(-1)?.id ?? 0;

    const moved = await moveOf(meridian.id, { reseller: target.id }, admin);
    expect(moved.status).toBe(302);
    expect(moved.headers.get("Location")).toBe(`/admin/customers/${meridian.id}`);
    expect((await organizationNamed("Meridian Law LLP")).managedBy).toBe(target.id);
    const entries = await db
      .select()
      .from(activity)
      .where(and(eq(activity.action, "customer.moved"), gt(activity.id, lastEntry)))
      .orderBy(asc(activity.id));
    expect(entries.map((entry) => [entry.organizationId, entry.actorName, entry.summary])).toEqual([
      [
        meridian.id,
        "GateKeeper",
        "GateKeeper moved this organization from SecureLine Resellers to Harbour Partners GmbH.",
      ],
      [old.id, "GateKeeper", "GateKeeper moved the end customer Meridian Law LLP to Harbour Partners GmbH."],
      [
        target.id,
        "GateKeeper",
        "GateKeeper moved the end customer Meridian Law LLP from SecureLine Resellers to this organization.",
      ],
    ]);

    // The license stays the old distributor's (owner), the customer's (licensee).
    const [after] = await db.select().from(licenses).where(eq(licenses.id, bought!.id));
    expect(after).toMatchObject({ ownerId: old.id, licenseeId: meridian.id });
    // The new distributor sees the customer, and what it holds through the old one, without its prices.
    const page = await (
      await open(customerLoader, `/customers/${meridian.id}`, target.cookie, { customerId: meridian.id })
    ).json();
    expect(page.licenses).toEqual([]);
    expect(page.heldElsewhere.map((license: { id: string }) => license.id)).toEqual([bought!.id]);
    expect(page.renewals).toEqual([]);
    // The old distributor no longer has the customer's page.
    const oldCookie = await freshSession("distributor@example.com");
    const gone = await open(customerLoader, `/customers/${meridian.id}`, oldCookie, { customerId: meridian.id });
    expect(gone.status).toBe(404);
    // Its renewals are still the old distributor's to pay: in its view and CSV, named as moved, with no page to link.
    const renewals = await (await open(renewalsLoader, "/customers/renewals", oldCookie)).json();
    expect(renewals.renewals).toEqual([
      expect.objectContaining({
        customer: { id: meridian.id, name: "Meridian Law LLP", moved: true },
        externalLicenseId: bought!.externalLicenseId,
        autoRenewUrl: `/licenses/${bought!.subscriptionId}/auto-renew`,
      }),
    ]);
    const csv = await (await open(renewalsCsvLoader, "/customers/renewals.csv", oldCookie)).text();
    expect(csv).toContain(`\nMeridian Law LLP (moved to another distributor),${bought!.externalLicenseId},`);
    // The new distributor pays none of them.
    expect((await (await open(renewalsLoader, "/customers/renewals", target.cookie)).json()).renewals).toEqual([]);

    // Moved meanwhile: a second move from a page that still names the old distributor is a move from the new one.
    const again = await moveOf(meridian.id, { reseller: target.id }, admin);
    expect(again.status).toBe(422);
  });
});
