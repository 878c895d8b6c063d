import path from "node:path";
import type Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { migrateSqlite } from "~/server/platform/database/sqlite.server";
import { sqliteDemoDatabaseBefore } from "../support/demo-database-before";

/**
 * The migration that turns every account into an organization of one (0014_organizations, then
 * 0015_users_lose_billing_columns), run on a copy of the demo database as the portal left it before them
 * (tests/fixtures/demo-database-before-organizations.sql: the demo seed, plus a draft, a finished order, a queued
 * mail, a distributor's trial, a session, a known browser, a sign-in link and a shipping address): nothing lost.
 */
type Row = Record<string, unknown>;

const MIGRATIONS = path.join(process.cwd(), "db/migrations");

const all = (sqlite: Database.Database, query: string) => sqlite.prepare(query).all() as Row[];
const one = (sqlite: Database.Database, query: string) => sqlite.prepare(query).get() as Row;

describe("migration 0014_organizations on a copy of the demo database", () => {
  const sqlite = sqliteDemoDatabaseBefore("_organizations");
  const before = {
    users: all(sqlite, "select * from users order by email"),
    licenses: all(sqlite, "select * from licenses order by id"),
    hubs: all(sqlite, "select * from hub_installations order by id"),
    hubLicenses: all(sqlite, "select * from hub_installation_licenses order by hub_installation_id, license_id"),
    jobs: all(sqlite, "select * from jobs order by id"),
    drafts: all(sqlite, "select * from drafts"),
    trials: all(sqlite, "select * from trials"),
    sessions: all(sqlite, "select * from sessions"),
    devices: all(sqlite, "select * from known_devices"),
    tokens: all(sqlite, "select * from one_time_tokens"),
    billingCustomers: all(sqlite, "select * from billing_customers order by id"),
  };
  migrateSqlite(sqlite, MIGRATIONS);
  const customer = before.users.find((user) => user.email === "customer@example.com")!;
  const distributor = before.users.find((user) => user.email === "distributor@example.com")!;

  it("makes each account an organization of its own, with its id, company, type, billing customer and shipping address", () => {
    const organizations = all(sqlite, "select * from organizations order by name");
    expect(organizations).toHaveLength(before.users.length);
    for (const user of before.users) {
      expect(organizations.find((organization) => organization.id === user.id)).toMatchObject({
        name: user.company,
        customer_type: user.customer_type,
        billing_customer_id: user.billing_customer_id,
        shipping_address: user.shipping_address,
      });
    }
    expect(JSON.parse(String(organizations.find((row) => row.id === customer.id)!.shipping_address))).toMatchObject({
      line1: "1 Harbor Way",
    });
    expect(all(sqlite, "select organization_id, user_id, role from memberships order by user_id")).toEqual(
      before.users
        .map((user) => ({ organization_id: user.id, user_id: user.id, role: "owner" }))
        .sort((a, b) => (String(a.user_id) < String(b.user_id) ? -1 : 1)),
    );
  });

  it("keeps every license, Hub, job, session, known browser and sign-in link, owned by the same ids", () => {
    // Later migrations gave licenses and Hubs an end customer (licensee_id), licenses a PO number and a quote's
    // number, billing customers a VAT number, jobs the request that queued them (cause) and mailed tokens a quote:
    // none of these has one.
    expect(all(sqlite, "select * from licenses order by id")).toEqual(
      before.licenses.map((license) => ({ ...license, licensee_id: null, po_number: null, quote_number: null })),
    );
    expect(all(sqlite, "select * from hub_installations order by id")).toEqual(
      before.hubs.map((hub) => ({ ...hub, licensee_id: null })),
    );
    expect(all(sqlite, "select * from hub_installation_licenses order by hub_installation_id, license_id")).toEqual(
      before.hubLicenses,
    );
    expect(all(sqlite, "select * from jobs order by id")).toEqual(before.jobs.map((job) => ({ ...job, cause: null })));
    expect(all(sqlite, "select * from billing_customers order by id")).toEqual(
      before.billingCustomers.map((customer) => ({ ...customer, vat_number: null, vat_number_status: null })),
    );
    expect(all(sqlite, "select * from known_devices")).toEqual(before.devices);
    expect(all(sqlite, "select * from sessions")).toEqual(
      before.sessions.map((session) => ({ ...session, organization_id: null })),
    );
    expect(all(sqlite, "select * from one_time_tokens")).toEqual(
      before.tokens.map((token) => ({ ...token, invitation_id: null, quote_id: null })),
    );
    expect(sqlite.pragma("foreign_key_check")).toEqual([]);
  });

  it("keeps a draft its person's, in their organization, and a trial the organization's, started by them", () => {
    expect(all(sqlite, "select * from drafts")).toEqual(
      before.drafts.map((draft) => ({ ...draft, user_id: draft.owner_id })),
    );
    expect(all(sqlite, "select * from trials")).toEqual(
      before.trials.map(({ user_id, ...trial }) => ({ ...trial, owner_id: user_id, user_id })),
    );
    expect(before.trials[0].user_id).toBe(distributor.id);
  });

  it("moves the billing columns off the people, and counts their addresses as verified", () => {
    const columns = all(sqlite, "select name from pragma_table_info('users')").map((column) => column.name);
    expect(columns).not.toContain("customer_type");
    expect(columns).not.toContain("billing_customer_id");
    expect(columns).not.toContain("shipping_address");
    for (const user of all(sqlite, "select * from users")) {
      expect(user.email_verified_at).toBe(before.users.find((row) => row.id === user.id)!.created_at);
    }
  });

  it("keeps license_counts kept by its triggers", () => {
    expect(one(sqlite, `select total from license_counts where owner_id = '${customer.id}'`).total).toBe(4);
    sqlite.exec(`
      insert into licenses (id, owner_id, external_license_id, name, nodes, plan_type, type, valid_from, valid_to, license_code)
        values ('after-migration', '${customer.id}', 'GK-AFTER', 'After', 1, 'core', 'trial', 0, 1, '{}');
    `);
    expect(one(sqlite, `select total from license_counts where owner_id = '${customer.id}'`).total).toBe(5);
    sqlite.exec("delete from licenses where id = 'after-migration'");
    expect(one(sqlite, `select total from license_counts where owner_id = '${customer.id}'`).total).toBe(4);
  });

  it("opens each organization's activity log with what happened, and the log refuses every change", () => {
    const entries = all(sqlite, "select * from activity order by id");
    expect(entries).toHaveLength(before.users.length);
    expect(entries.find((entry) => entry.organization_id === customer.id)).toMatchObject({
      actor_name: "GateKeeper",
      actor_user_id: null,
      action: "organization.created",
      summary: "The account of Dana Whitfield became this organization, with them as its Owner.",
    });
    expect(() => sqlite.exec("update activity set summary = 'rewritten'")).toThrow(
      "The activity log is never changed.",
    );
  });
});
