import path from "node:path";
import type Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { migrateSqlite } from "~/server/platform/database/sqlite.server";
import { sqliteDemoDatabaseBefore } from "../support/demo-database-before";
import { distributorOrders, END_CUSTOMER_NAMES } from "../support/distributor-orders";

/**
 * The migration that makes end customers of the names a distributor typed into its orders (0020_end_customers and
 * 0021_end_customers_from_license_names), on a copy of the demo database as the portal left it before them, with
 * the licenses a distributor's orders made then (tests/support/distributor-orders.ts).
 */
type Row = Record<string, unknown>;

const MIGRATIONS = path.join(process.cwd(), "db/migrations");

const all = (sqlite: Database.Database, query: string, ...params: unknown[]) =>
  sqlite.prepare(query).all(...params) as Row[];

describe("the end customers migration on a copy of the demo database", () => {
  const sqlite = sqliteDemoDatabaseBefore("_end_customers");
  const [distributor] = all(sqlite, "select id, name from organizations where customer_type = 'distributor'");
  const orders = distributorOrders({
    distributorId: String(distributor.id),
    distributorName: String(distributor.name),
    at: 1_700_000_000_000,
  });
  for (const [query, params] of orders.statements) sqlite.prepare(query).run(...params);
  const before = {
    organizations: all(sqlite, "select * from organizations order by id"),
    licenses: all(sqlite, "select * from licenses order by id"),
    hubs: all(sqlite, "select * from hub_installations order by id"),
    counts: all(sqlite, "select * from license_counts order by owner_id"),
  };
  migrateSqlite(sqlite, MIGRATIONS);
  const customers = all(sqlite, "select * from organizations where managed_by is not null order by name");

  it("makes an end customer of each distinct name, managed by the distributor, and keeps every organization", () => {
    expect(customers.map((customer) => customer.name)).toEqual(END_CUSTOMER_NAMES);
    for (const customer of customers) {
      expect(customer).toMatchObject({
        managed_by: orders.distributorId,
        customer_type: "customer",
        billing_customer_id: null,
        country: "",
        contact_name: "",
        contact_email: "",
        address: null,
      });
    }
    expect(
      all(sqlite, "select * from organizations where managed_by is null order by id").map((organization) => ({
        ...organization,
      })),
    ).toEqual(
      before.organizations.map((organization) => ({
        ...organization,
        managed_by: null,
        address: null,
        contact_name: "",
        contact_email: "",
        // A later migration's column, which the start-up fills (not a migration).
        search_name: "",
      })),
    );
  });

  it("licenses each of the distributor's licenses to the end customer of its name, and the Hub made from one", () => {
    const idOf = (name: string) => customers.find((customer) => customer.name === name)?.id;
    for (const license of before.licenses) {
      const after = all(sqlite, "select * from licenses where id = ?", license.id)[0];
      const forCustomer =
        license.owner_id === orders.distributorId && END_CUSTOMER_NAMES.includes(String(license.name));
      expect(after).toEqual({
        ...license,
        licensee_id: forCustomer ? idOf(String(license.name)) : null,
        po_number: null,
        quote_number: null,
      });
    }
    for (const hub of before.hubs) {
      const after = all(sqlite, "select * from hub_installations where id = ?", hub.id)[0];
      expect(after).toEqual({ ...hub, licensee_id: hub.id === orders.hubId ? idOf(orders.hubLicenseName) : null });
    }
    expect(all(sqlite, "select * from license_counts order by owner_id")).toEqual(before.counts);
    expect(sqlite.pragma("foreign_key_check")).toEqual([]);
  });

  it("says so in the activity log of each end customer and of the distributor", () => {
    for (const customer of customers) {
      expect(
        all(sqlite, "select actor_name, action, summary from activity where organization_id = ?", customer.id),
      ).toEqual([
        {
          actor_name: "GateKeeper",
          action: "organization.created",
          summary: `GateKeeper made this organization an end customer of ${orders.distributorName}, with the licenses bought for it.`,
        },
      ]);
    }
    expect(
      all(
        sqlite,
        "select summary from activity where organization_id = ? and action = 'customer.created' order by summary",
        orders.distributorId,
      ).map((entry) => entry.summary),
    ).toEqual(
      END_CUSTOMER_NAMES.map((name) => `GateKeeper made ${name} an end customer, with the licenses bought for it.`),
    );
  });
});
