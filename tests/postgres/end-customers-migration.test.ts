import type pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { migratePostgres, openPostgres, type PostgresDatabase } from "~/server/platform/database/postgres.server";
import { postgresDemoDatabaseBefore } from "../support/demo-database-before";
import { distributorOrders, END_CUSTOMER_NAMES } from "../support/distributor-orders";
import { postgresTestDatabase } from "../support/postgres";

/**
 * The PostgreSQL twin of tests/server/end-customers-migration.test.ts: the demo database as it was before end
 * customers, with what a distributor's orders left then, migrated: an end customer of each name, nothing else moved.
 */
const database = postgresTestDatabase("empty");
let db: PostgresDatabase;
let pool: pg.Pool;
type Row = Record<string, unknown>;
let orders: ReturnType<typeof distributorOrders>;
const before: Record<string, Row[]> = {};

const query = async (text: string, params: unknown[] = []) => (await pool.query(text, params)).rows as Row[];

beforeAll(async () => {
  ({ db, pool } = openPostgres(database.url));
  await postgresDemoDatabaseBefore(db, pool, "_end_customers");
  const [distributor] = await query("select id, name from organizations where customer_type = 'distributor'");
  orders = distributorOrders({
    distributorId: String(distributor.id),
    distributorName: String(distributor.name),
    at: 1_700_000_000_000,
  });
  for (const [text, params] of orders.statements) {
    let n = 0;
    // Numbered placeholders, and the times as dates.
    await query(
      text.replace(/\?/g, () => `$${(n += 1)}`),
      params.map((value) => (typeof value === "number" ? new Date(value) : value)),
    );
  }
  before.organizations = await query("select * from organizations order by id");
  before.licenses = await query("select * from licenses order by id");
  before.hubs = await query("select * from hub_installations order by id");
  before.counts = await query("select * from license_counts order by owner_id");
  await migratePostgres(db);
}, 60_000);

afterAll(() => pool?.end());

describe("the end customers migration on PostgreSQL, on a copy of the demo database", () => {
  it("makes an end customer of each distinct name, managed by the distributor, and licenses its licenses to it", async () => {
    const customers = await query("select * from organizations where managed_by is not null order by name");
    expect(customers.map((customer) => customer.name)).toEqual(END_CUSTOMER_NAMES);
    for (const customer of customers) {
      expect(customer).toMatchObject({ managed_by: orders.distributorId, customer_type: "customer", address: null });
    }
    expect(await query("select * from organizations where managed_by is null order by id")).toEqual(
      before.organizations.map((row) => ({
        ...row,
        managed_by: null,
        address: null,
        contact_name: "",
        contact_email: "",
        // A later migration's column, which the start-up fills (not a migration).
        search_name: "",
      })),
    );
    const idOf = (name: string) => customers.find((customer) => customer.name === name)?.id;
    for (const license of before.licenses) {
      const [after] = await query("select * from licenses where id = $1", [license.id]);
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
      const [after] = await query("select * from hub_installations where id = $1", [hub.id]);
      expect(after).toEqual({ ...hub, licensee_id: hub.id === orders.hubId ? idOf(orders.hubLicenseName) : null });
    }
    expect(await query("select * from license_counts order by owner_id")).toEqual(before.counts);
  });

  it("says so in the activity log of each end customer and of the distributor", async () => {
    expect(
      await query(
        "select count(*)::int as n from activity where action = 'organization.created' and organization_id in (select id from organizations where managed_by is not null)",
      ),
    ).toEqual([{ n: END_CUSTOMER_NAMES.length }]);
    expect(
      (
        await query(
          "select summary from activity where organization_id = $1 and action = 'customer.created' order by summary",
          [orders.distributorId],
        )
      ).map((entry) => entry.summary),
    ).toEqual(
      END_CUSTOMER_NAMES.map((name) => `GateKeeper made ${name} an end customer, with the licenses bought for it.`),
    );
  });
});
