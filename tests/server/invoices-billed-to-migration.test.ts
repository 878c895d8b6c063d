import path from "node:path";
import { describe, expect, it } from "vitest";
import { migrateSqlite } from "~/server/platform/database/sqlite.server";
import { sqliteDemoDatabaseBefore } from "../support/demo-database-before";
import { expectedBuyers, invoicesBeforeParties } from "../support/invoices-before-parties";

/**
 * The migration that gives the invoices issued before the engine kept their parties a buyer from today's data
 * (invoices_billed_to_of_today), on a copy of the demo database as the portal left it before it, with such
 * invoices. tests/postgres/invoices-billed-to-migration.test.ts is its PostgreSQL twin.
 */
type Row = Record<string, unknown>;

describe("the invoices' buyers of today, on a copy of the demo database", () => {
  const sqlite = sqliteDemoDatabaseBefore("_invoices_billed_to_of_today");
  const [demo] = sqlite
    .prepare("select id, first_name, last_name, email, company, billing_address from billing_customers limit 1")
    .all() as Row[];
  for (const [query, params] of invoicesBeforeParties(String(demo.id))) {
    sqlite.prepare(query).run(...params.map((value) => (value instanceof Date ? value.getTime() : value)));
  }
  migrateSqlite(sqlite, path.join(process.cwd(), "db/migrations"));
  const rows = sqlite
    .prepare("select id, billed_to, seller from billing_invoices where id like 'before-parties-%' order by id")
    .all() as Row[];

  it("names each invoice's buyer as the customer is today, with the address the invoice was made with", () => {
    const expected = expectedBuyers({
      company: String(demo.company),
      contact: `${String(demo.first_name)} ${String(demo.last_name)}`,
      email: String(demo.email),
      address: JSON.parse(String(demo.billing_address)) as object,
    });
    expect(Object.fromEntries(rows.map((row) => [row.id, JSON.parse(String(row.billed_to)) as unknown]))).toEqual(
      expected,
    );
  });

  it("leaves the seller to the start-up, which knows the configuration", () => {
    expect(rows.map((row) => row.seller)).toEqual([null, null, null]);
  });
});
