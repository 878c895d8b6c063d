import type { LoaderFunctionArgs } from "@remix-run/node";
import { and, eq, like } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { countryName } from "~/domain/countries";
import { POLICY, ROLE_NAMES, ROLES, type Action, type Role } from "~/domain/access-policy";
import { NAME_CHARACTERS, NAME_NO_WEB_ADDRESS } from "~/domain/names";
import { loader as customersLoader } from "~/routes/_portal.customers._index";
import { action as newAction, loader as newLoader } from "~/routes/_portal.customers.new";
import { loader as customerLoader } from "~/routes/_portal.customers.$customerId._index";
import { action as editAction, loader as editLoader } from "~/routes/_portal.customers.$customerId.edit";
import { action as loginAction } from "~/routes/login";
import { db } from "~/server/platform/database/db.server";
import { activity, licenses, organizations } from "~/server/platform/database/tables.server";
import { createAccount, memberByEmail } from "../support/members";
import { cookieFrom, formRequest, getRequest, respond } from "../support/requests";

/** A distributor's end customers: the list, the record's forms, a customer's page, and who may see them. */

const PASSWORD = "GateKeeper-demo-1";
let clients = 0;

async function signIn(email: string): Promise<string> {
  clients += 1;
  const response = await respond(async () =>
    loginAction({
      request: await formRequest("/login", { email, password: PASSWORD }),
      params: {},
      context: { clientAddress: `203.0.113.${clients}` },
    }),
  );
  return cookieFrom(response.headers.get("Set-Cookie"));
}

type Loader = (args: LoaderFunctionArgs) => unknown;
const open = (loader: Loader, path: string, cookie: string, params: Record<string, string> = {}) =>
  respond(async () => loader({ request: getRequest(path, cookie), params, context: {} }));
const post = async (
  action: Loader,
  path: string,
  fields: Record<string, string>,
  cookie: string,
  params: Record<string, string> = {},
) => respond(async () => action({ request: await formRequest(path, fields, { cookie }), params, context: {} }));

const distributor = async () => (await memberByEmail("distributor@example.com")).organization;
const passwordHash = async () => (await memberByEmail("distributor@example.com")).user.passwordHash;

/** A member of the demo distributor with `role`, signed in. */
const memberCookies = new Map<string, string>();
async function distributorMember(role: Role): Promise<string> {
  const key = `distributor:${role}`;
  const known = memberCookies.get(key);
  if (known) return known;
  const email = `${role}@secureline.example`;
  await createAccount(email, await passwordHash(), { role, organizationId: (await distributor()).id });
  const cookie = await signIn(email);
  memberCookies.set(key, cookie);
  return cookie;
}

async function customerIdOf(name: string): Promise<string> {
  const [row] = await db.select({ id: organizations.id }).from(organizations).where(eq(organizations.name, name));
  if (!row) throw new Error(`No organization is called ${name}.`);
  return row.id;
}

describe("the customers list", { timeout: 60_000 }, () => {
  it("shows the distributor's end customers by name, each with its licenses and next renewal at reseller prices", async () => {
    const page = await (await open(customersLoader, "/customers", await signIn("distributor@example.com"))).json();
    expect(page.total).toBe(3);
    expect(page.customers.map((customer: { name: string }) => customer.name)).toEqual([
      "Alpine Logistics AG",
      "Harbor Dental Group",
      "Meridian Law LLP",
    ]);
    const meridian = page.customers.find((customer: { name: string }) => customer.name === "Meridian Law LLP");
    // 8 users of reseller-core-monthly (300 cents) and the reseller on-premise install (2,320 cents) a month.
    expect(meridian).toMatchObject({ country: countryName("GB"), licenses: 1 });
    expect(meridian.nextRenewal.amount).toBe(8 * 300 + 2320);
    expect(new Date(meridian.nextRenewal.on).getTime() - Date.now()).toBeLessThan(30 * 24 * 60 * 60 * 1000);
  });

  it("gives a Technical contact the dates without the amounts", async () => {
    const page = await (await open(customersLoader, "/customers", await distributorMember("technical_contact"))).json();
    expect(page.mayAdd).toBe(false);
    expect(
      page.customers.every((customer: { nextRenewal: { amount: null } }) => customer.nextRenewal.amount === null),
    ).toBe(true);
  });

  it("searches by name, contact email, license id and subscription id, in any case", async () => {
    const cookie = await signIn("distributor@example.com");
    const names = async (search: string) =>
      (await (await open(customersLoader, `/customers?q=${encodeURIComponent(search)}`, cookie)).json()).customers.map(
        (customer: { name: string }) => customer.name,
      );
    expect(await names("harbor")).toEqual(["Harbor Dental Group"]);
    expect(await names("MERIDIANLAW.example")).toEqual(["Meridian Law LLP"]);
    expect(await names("gk-slr-2025")).toEqual(["Alpine Logistics AG"]);
    expect(await names("sub_demo_reseller_harbor")).toEqual(["Harbor Dental Group"]);
    expect(await names("100%_")).toEqual([]);
  });

  it("pages in the URL, and a page past the end goes to the last", async () => {
    const cookie = await signIn("distributor@example.com");
    const resellerId = (await distributor()).id;
    await db.insert(organizations).values(
      Array.from({ length: 20 }, (_, n) => ({
        id: `paged-customer-${n}`,
        name: `Zed Paged ${String(n).padStart(2, "0")}`,
        managedBy: resellerId,
      })),
    );
    const second = await (await open(customersLoader, "/customers?page=2", cookie)).json();
    expect(second).toMatchObject({ page: 2, pages: 2, total: 23 });
    expect(second.customers).toHaveLength(3);
    const past = await open(customersLoader, "/customers?page=9", cookie);
    expect(past.status).toBe(302);
    expect(past.headers.get("Location")).toBe("/customers?page=2");
    await db.delete(organizations).where(like(organizations.id, "paged-customer-%"));
  });
});

describe("a customer's record", { timeout: 60_000 }, () => {
  it("is added from its form, in both activity logs, and opens on its page", async () => {
    const cookie = await signIn("distributor@example.com");
    expect((await open(newLoader, "/customers/new", cookie)).status).toBe(200);
    const response = await post(
      newAction,
      "/customers/new",
      {
        name: "  Cedar Veterinary  ",
        country: "de",
        line1: "Hauptstrasse 1",
        line2: "",
        city: "Berlin",
        state: "",
        zip: "10115",
        contactName: "Mia Wolf",
        contactEmail: "mia@cedar.example",
      },
      cookie,
    );
    expect(response.status).toBe(302);
    const id = await customerIdOf("Cedar Veterinary");
    expect(response.headers.get("Location")).toBe(`/customers/${id}`);
    const [row] = await db.select().from(organizations).where(eq(organizations.id, id));
    expect(row).toMatchObject({
      managedBy: (await distributor()).id,
      customerType: "customer",
      country: "DE",
      address: { line1: "Hauptstrasse 1", city: "Berlin", zip: "10115" },
      contactEmail: "mia@cedar.example",
      billingCustomerId: null,
    });
    const logged = await db
      .select({ summary: activity.summary })
      .from(activity)
      .where(and(eq(activity.organizationId, (await distributor()).id), eq(activity.action, "customer.created")));
    expect(logged.map((entry) => entry.summary)).toContain("Added the end customer Cedar Veterinary.");
    const page = await (await open(customerLoader, `/customers/${id}`, cookie, { customerId: id })).json();
    expect(page.customer).toMatchObject({ name: "Cedar Veterinary", country: "Germany", contactName: "Mia Wolf" });
    expect(page.licenses).toEqual([]);
  });

  it("keeps what was typed beside each message when the form is refused", async () => {
    const cookie = await signIn("distributor@example.com");
    const typed = { name: " ", country: "XX", contactEmail: "not-an-address", city: "Oslo" };
    const response = await post(newAction, "/customers/new", typed, cookie);
    expect(response.status).toBe(422);
    const body = await response.json();
    expect(body.fieldErrors).toEqual({
      name: "Cannot be empty.",
      country: "Please choose a country from the list.",
      contactEmail: "Invalid Email",
    });
    expect(body.values).toMatchObject(typed);
  });

  it("takes the company's and the contact's names as plain names, as every form that takes a name", async () => {
    const cookie = await signIn("distributor@example.com");
    const typed = { name: "Acme, see https://evil.example", contactName: "Bob\nCall +1 555 0100", city: "Oslo" };
    const response = await post(newAction, "/customers/new", typed, cookie);
    expect(response.status).toBe(422);
    const body = await response.json();
    expect(body.fieldErrors).toEqual({ name: NAME_NO_WEB_ADDRESS, contactName: NAME_CHARACTERS });
    expect(body.values).toMatchObject(typed);
    expect(
      (await post(newAction, "/customers/new", { name: "Ørsted & Søn (Nord) A/S", contactName: "" }, cookie)).status,
    ).toBe(302);
  });

  it("is changed from its edit form; another distributor's customer is not found", async () => {
    const cookie = await signIn("distributor@example.com");
    const id = await customerIdOf("Alpine Logistics AG");
    const form = await (await open(editLoader, `/customers/${id}/edit`, cookie, { customerId: id })).json();
    expect(form.values).toMatchObject({ name: "Alpine Logistics AG", country: "CH", city: "Zurich" });
    const saved = await post(
      editAction,
      `/customers/${id}/edit`,
      { ...form.values, contactName: "Noah Keller" },
      cookie,
      { customerId: id },
    );
    expect(saved.status).toBe(302);
    const [row] = await db.select().from(organizations).where(eq(organizations.id, id));
    expect(row.contactName).toBe("Noah Keller");

    // Another distributor, with a customer of its own: neither sees the other's.
    const { organizationId: otherId } = await createAccount("owner@other-reseller.example", await passwordHash());
    await db.update(organizations).set({ customerType: "distributor" }).where(eq(organizations.id, otherId));
    const other = await signIn("owner@other-reseller.example");
    expect((await open(customerLoader, `/customers/${id}`, other, { customerId: id })).status).toBe(404);
    expect(
      (await post(editAction, `/customers/${id}/edit`, { name: "Taken over" }, other, { customerId: id })).status,
    ).toBe(404);
    expect((await (await open(customersLoader, "/customers", other)).json()).total).toBe(0);
  });
});

describe("a customer's page", { timeout: 60_000 }, () => {
  it("shows the licenses bought for it, its cloud Hub, its renewals and its invoices to the distributor's Owner", async () => {
    const id = await customerIdOf("Harbor Dental Group");
    const page = await (
      await open(customerLoader, `/customers/${id}`, await signIn("distributor@example.com"), { customerId: id })
    ).json();
    expect(page.licenses.map((license: { externalLicenseId: string }) => license.externalLicenseId)).toEqual([
      "GK-SLR-2026-0101",
    ]);
    expect(page.licenses[0].downloadUrl).toMatch(/^\/licenses\/.+\/download$/);
    expect(page.hubs).toEqual([
      expect.objectContaining({ type: "cloud", url: expect.stringContaining("harbor-dental") }),
    ]);
    expect(page.renewals).toEqual([
      expect.objectContaining({ externalLicenseId: "GK-SLR-2026-0101", renews: true, amount: 20 * 4320 + 76032 }),
    ]);
    expect(page.invoices).toEqual([
      expect.objectContaining({ for: "New license", status: "Paid", total: 20 * 4320 + 76032 }),
    ]);
  });

  it("shows a Technical contact no invoices and no amounts", async () => {
    const id = await customerIdOf("Harbor Dental Group");
    const page = await (
      await open(customerLoader, `/customers/${id}`, await distributorMember("technical_contact"), { customerId: id })
    ).json();
    expect(page.invoices).toBeNull();
    expect(page.renewals[0].amount).toBeNull();
    expect(page.mayEdit).toBe(false);
  });
});

/** One page or post of each of the distributors' rows, as a member's browser reaches it. */
const REACH: Partial<Record<Action, (cookie: string) => Promise<Response>>> = {
  "customers.read": (cookie) => open(customersLoader, "/customers", cookie),
  "customers.manage": (cookie) => open(newLoader, "/customers/new", cookie),
};

describe("the distributors' rows of the access policy, on the server", { timeout: 120_000 }, () => {
  for (const [action, reach] of Object.entries(REACH) as [Action, (cookie: string) => Promise<Response>][]) {
    for (const role of ROLES) {
      const allowed = (POLICY[action].roles as readonly Role[]).includes(role);
      it(`${allowed ? "lets" : "refuses"} a distributor's ${ROLE_NAMES[role]}: ${action}`, async () => {
        const cookie = role === "owner" ? await signIn("distributor@example.com") : await distributorMember(role);
        const response = await reach(cookie);
        if (allowed) expect(response.status).toBe(200);
        else {
          expect(response.status).toBe(403);
          expect((await response.json()).message).toMatch(
            new RegExp(`^Your role in SecureLine Resellers is ${ROLE_NAMES[role]}, which cannot`),
          );
        }
      });
    }
    it(`refuses a customer's Owner: ${action}`, async () => {
      const response = await reach(await signIn("customer@example.com"));
      expect(response.status).toBe(403);
      expect((await response.json()).message).toBe("End customers are only for GateKeeper distributors.");
    });
  }
});

describe("an end customer's license", () => {
  it("is the distributor's, licensed to the end customer", async () => {
    const [license] = await db.select().from(licenses).where(eq(licenses.externalLicenseId, "GK-SLR-2026-0102"));
    expect(license.ownerId).toBe((await distributor()).id);
    expect(license.licenseeId).toBe(await customerIdOf("Meridian Law LLP"));
  });
});
