import { randomUUID } from "node:crypto";
import { and, eq, like } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { countryName } from "~/domain/countries";
import { POLICY, ROLE_NAMES, ROLES, type Action, type Role } from "~/domain/access-policy";
import { NAME_CHARACTERS, NAME_NO_WEB_ADDRESS } from "~/domain/names";
import { loader as customersLoader } from "~/routes/_portal.customers._index";
import { action as newAction, loader as newLoader } from "~/routes/_portal.customers.new";
import { loader as customerLoader } from "~/routes/_portal.customers.$customerId._index";
import { action as editAction, loader as editLoader } from "~/routes/_portal.customers.$customerId.edit";
import { loader as renewalsLoader } from "~/routes/_portal.customers.renewals";
import { loader as renewalsCsvLoader } from "~/routes/_portal.customers.renewals[.csv]";
import { loader as planLoader } from "~/routes/_portal.store.subscribe.plan";
import { db } from "~/server/platform/database/db.server";
import { portalNow } from "~/server/billing/index.server";
import { sqlitePlan } from "../support/query-plan";
import { activity, engine, licenses, organizations, subscriptions } from "~/server/platform/database/tables.server";
import { createAccount, memberByEmail } from "../support/members";
import { openRoute as open, postRoute as post } from "../support/requests";
import { freshSession } from "../support/sign-in";

/** A distributor's end customers: the list, the record's forms, a customer's page, and who may see them. */

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
  const cookie = await freshSession(email);
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
    const page = await (
      await open(customersLoader, "/customers", await freshSession("distributor@example.com"))
    ).json();
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
    const cookie = await freshSession("distributor@example.com");
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
    const cookie = await freshSession("distributor@example.com");
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
    const cookie = await freshSession("distributor@example.com");
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
    const cookie = await freshSession("distributor@example.com");
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
    const cookie = await freshSession("distributor@example.com");
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
    const cookie = await freshSession("distributor@example.com");
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
    const other = await freshSession("owner@other-reseller.example");
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
      await open(customerLoader, `/customers/${id}`, await freshSession("distributor@example.com"), { customerId: id })
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

describe("every renewal ahead", { timeout: 60_000 }, () => {
  const DAY = 24 * 60 * 60 * 1000;

  /** A copy of Harbor Dental Group's license and subscription, for another customer and ending on another day. */
  async function renewalFor(
    licenseeId: string,
    externalLicenseId: string,
    inDays: number,
    status: "active" | "non_renewing",
    from?: Date,
  ) {
    const [harbor] = await db
      .select({ license: licenses, subscription: subscriptions })
      .from(licenses)
      .innerJoin(subscriptions, eq(subscriptions.id, licenses.subscriptionId))
      .where(eq(licenses.externalLicenseId, "GK-SLR-2026-0101"));
    const subscriptionId = `sub_${externalLicenseId}`;
    const end = new Date((from ?? (await portalNow())).getTime() + inDays * DAY);
    await db.insert(subscriptions).values({ ...harbor.subscription, id: subscriptionId, status, currentTermEnd: end });
    await db.insert(licenses).values({
      ...harbor.license,
      id: randomUUID(),
      externalLicenseId,
      licenseCode: `${harbor.license.licenseCode}-${externalLicenseId}`,
      subscriptionId,
      licenseeId,
    });
  }

  it("lists the customers' licenses that renew or end in the window, soonest first, with the amount, the card and the links", async () => {
    const cookie = await freshSession("distributor@example.com");
    const formula = "renewals-formula-customer";
    await db.insert(organizations).values({
      id: formula,
      name: '=HYPERLINK("https://evil.example")',
      managedBy: (await distributor()).id,
    });
    await renewalFor(formula, "GK-SLR-2026-0900", 45, "non_renewing");

    const next30 = await (await open(renewalsLoader, "/customers/renewals", cookie)).json();
    expect(next30).toMatchObject({
      within: 30,
      card: "Mastercard ending in 4444",
      earlierHref: null,
      laterHref: null,
    });
    expect(next30.renewals).toEqual([
      expect.objectContaining({
        customer: { id: await customerIdOf("Meridian Law LLP"), name: "Meridian Law LLP", moved: false },
        externalLicenseId: "GK-SLR-2026-0102",
        plan: "Core (Monthly Billing) for resellers",
        users: 8,
        renews: true,
        amount: 4720,
        addUsersUrl: "/licenses/sub_demo_reseller_meridian/update/product",
        autoRenewUrl: "/licenses/sub_demo_reseller_meridian/auto-renew",
      }),
    ]);

    const next60 = await (await open(renewalsLoader, "/customers/renewals?within=60", cookie)).json();
    expect(next60.renewals.map((renewal: { externalLicenseId: string }) => renewal.externalLicenseId)).toEqual([
      "GK-SLR-2026-0102",
      "GK-SLR-2026-0900",
    ]);
    // Auto-renew off: it ends, so it may be turned on again, and users are added to a renewing license only.
    expect(next60.renewals[1]).toMatchObject({ renews: false, addUsersUrl: null });

    const csv = await open(renewalsCsvLoader, "/customers/renewals.csv?within=60", cookie);
    expect(csv.headers.get("Content-Type")).toBe("text/csv; charset=utf-8");
    expect(csv.headers.get("Content-Disposition")).toBe('attachment; filename="renewals-next-60-days.csv"');
    const [header, ...rows] = (await csv.text()).trimEnd().split("\n");
    expect(header).toBe("Customer,License,Plan,Users,Renews on,Amount,Auto-renew,Payment card");
    expect(rows).toHaveLength(2);
    expect(rows[0]).toMatch(
      /^Meridian Law LLP,GK-SLR-2026-0102,Core \(Monthly Billing\) for resellers,8,\d\d\/\d\d\/\d{4},"?\$47\.20"?,on,Mastercard ending in 4444$/,
    );
    // A name a spreadsheet would run as a formula is text in the file.
    expect(rows[1]).toMatch(
      /^"'=HYPERLINK\(""https:\/\/evil\.example""\)",GK-SLR-2026-0900,.*,off,Mastercard ending in 4444$/,
    );
  });

  it("pages by the rows, forward and back, in the view's order and as the CSV lists them", async () => {
    const cookie = await freshSession("distributor@example.com");
    const harborId = await customerIdOf("Harbor Dental Group");
    // 45 more renewals between 61 and 90 days ahead (out of the smaller windows), three on each day, so that pages
    // break inside a day and the license number settles the order there.
    const from = await portalNow();
    for (let n = 0; n < 45; n += 1) {
      await renewalFor(harborId, `GK-SLR-2026-${String(1044 - n).padStart(4, "0")}`, 61 + (n % 15), "active", from);
    }
    type Row = { externalLicenseId: string; on: string };
    type Page = { renewals: Row[]; earlierHref: string | null; laterHref: string | null };
    const pageAt = async (path: string): Promise<Page> => (await open(renewalsLoader, path, cookie)).json();

    const forward: Page[] = [await pageAt("/customers/renewals?within=90")];
    while (forward[forward.length - 1].laterHref) forward.push(await pageAt(forward[forward.length - 1].laterHref!));
    expect(forward.map((page) => page.renewals.length)).toEqual([20, 20, forward[2].renewals.length]);
    expect(forward[0].earlierHref).toBeNull();
    expect(forward[1].laterHref).toMatch(/^\/customers\/renewals\?within=90&after=\d+\.GK-SLR-2026-\d{4}$/);
    const rows = forward.flatMap((page) => page.renewals);
    const keys = rows.map(
      (row) => `${new Date(row.on).getTime().toString().padStart(15, "0")} ${row.externalLicenseId}`,
    );
    expect(keys).toEqual([...keys].sort());
    expect(new Set(keys).size).toBe(keys.length);

    // Back from the last page, page by page: the same pages.
    const backward: Page[] = [forward[forward.length - 1]];
    while (backward[0].earlierHref) backward.unshift(await pageAt(backward[0].earlierHref));
    expect(backward.map((page) => page.renewals)).toEqual(forward.map((page) => page.renewals));
    expect(backward[0].laterHref).toBe(forward[0].laterHref);

    // The CSV has every row of the window, in the same order.
    const csv = await (await open(renewalsCsvLoader, "/customers/renewals.csv?within=90", cookie)).text();
    const licenseColumn = csv
      .trimEnd()
      .split("\n")
      .slice(1)
      .map((line) => /,(GK-[^,]+),/.exec(line)?.[1]);
    expect(licenseColumn).toEqual(rows.map((row) => row.externalLicenseId));
  });

  it("leads an address whose page start is malformed, or past every renewal, to the window's first page", async () => {
    const cookie = await freshSession("distributor@example.com");
    const past = new Date("2100-01-01").getTime();
    for (const start of [
      "after=soon",
      "before=1.GK",
      "after=1.GK&before=1.GK",
      `before=1.GK-X`,
      `after=${past}.GK-X`,
    ]) {
      const response = await open(renewalsLoader, `/customers/renewals?within=60&${start}`, cookie);
      expect(response.status).toBe(302);
      expect(response.headers.get("Location")).toBe("/customers/renewals?within=60");
    }
  });

  it("takes only its windows: another one leads to the view's own address", async () => {
    const cookie = await freshSession("distributor@example.com");
    for (const path of ["/customers/renewals?within=7", "/customers/renewals.csv?within=all"]) {
      const loader = path.includes(".csv") ? renewalsCsvLoader : renewalsLoader;
      const response = await open(loader, path, cookie);
      expect(response.status).toBe(302);
      expect(response.headers.get("Location")).toBe("/customers/renewals");
    }
  });

  // SQLite's query plan of the view's rows (renewalsIn's select); on PostgreSQL the planner's choice depends on
  // the table's statistics.
  it.skipIf(engine === "postgres")(
    "reads its rows off the two indexes that hold what it shows, never a subscription's or a license's row",
    () => {
      const details = sqlitePlan(
        `select s.id, s.plan_id, s.plan_quantity, s.addons, s.status, s.current_term_end,
             l.external_license_id, l.nodes, l.licensee_id
           from subscriptions s
           join licenses l on l.subscription_id = s.id and l.owner_id = s.owner_id
           where s.owner_id = ? and s.status in ('active', 'future', 'non_renewing')
             and s.current_term_end > ? and s.current_term_end <= ?
           order by s.current_term_end, l.external_license_id limit 21`,
        "someone",
        0,
        1,
      );
      expect(details).toContain("USING COVERING INDEX subscriptions_owner_term_end_idx");
      expect(details).toContain("USING COVERING INDEX licenses_subscription_renewal_idx");
    },
  );

  it("is for the billing roles: a Technical contact, who sees customers, is refused what renewals cost", async () => {
    const response = await open(
      renewalsCsvLoader,
      "/customers/renewals.csv",
      await distributorMember("technical_contact"),
    );
    expect(response.status).toBe(403);
  });
});

/** One page or post of each of the distributors' rows, as a member's browser reaches it. */
const REACH: Partial<Record<Action, (cookie: string) => Promise<Response>>> = {
  "customers.read": (cookie) => open(customersLoader, "/customers", cookie),
  "customers.manage": (cookie) => open(newLoader, "/customers/new", cookie),
  "customers.renewals": (cookie) => open(renewalsLoader, "/customers/renewals", cookie),
  "customers.purchase": async (cookie) =>
    open(planLoader, `/store/subscribe/plan?customer=${await customerIdOf("Harbor Dental Group")}`, cookie),
};

describe("the distributors' rows of the access policy, on the server", { timeout: 120_000 }, () => {
  for (const [action, reach] of Object.entries(REACH) as [Action, (cookie: string) => Promise<Response>][]) {
    for (const role of ROLES) {
      const allowed = (POLICY[action].roles as readonly Role[]).includes(role);
      it(`${allowed ? "lets" : "refuses"} a distributor's ${ROLE_NAMES[role]}: ${action}`, async () => {
        const cookie = role === "owner" ? await freshSession("distributor@example.com") : await distributorMember(role);
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
      const response = await reach(await freshSession("customer@example.com"));
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
