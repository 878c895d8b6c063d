import type pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { migratePostgres, openPostgres, type PostgresDatabase } from "~/server/platform/database/postgres.server";
import { postgresDemoDatabaseBefore } from "../support/demo-database-before";
import { expectedBuyers, invoicesBeforeParties } from "../support/invoices-before-parties";
import { postgresTestDatabase } from "../support/postgres";

/**
 * The PostgreSQL twin of tests/server/invoices-billed-to-migration.test.ts: invoices issued before the engine kept
 * their parties get their buyer from today's data; the seller is left to the start-up.
 */
const database = postgresTestDatabase("empty");
let db: PostgresDatabase;
let pool: pg.Pool;
type Row = Record<string, unknown>;
let demo: Row;

const query = async (text: string, params: unknown[] = []) => (await pool.query(text, params)).rows as Row[];

beforeAll(async () => {
  ({ db, pool } = openPostgres(database.url));
  await postgresDemoDatabaseBefore(db, pool, "_invoices_billed_to_of_today");
  [demo] = await query(
    "select id, first_name, last_name, email, company, billing_address from billing_customers limit 1",
  );
  for (const [text, params] of invoicesBeforeParties(String(demo.id))) {
    let n = 0;
    await query(
      text.replace(/\?/g, () => `$${(n += 1)}`),
      params,
    );
  }
  await migratePostgres(db);
}, 60_000);

afterAll(() => pool?.end());

describe("the invoices' buyers of today on PostgreSQL, on a copy of the demo database", () => {
  it("names each invoice's buyer as the customer is today, with the address the invoice was made with", async () => {
    const rows = await query(
      "select id, billed_to, seller from billing_invoices where id like 'before-parties-%' order by id",
    );
    expect(Object.fromEntries(rows.map((row) => [row.id, row.billed_to]))).toEqual(
      expectedBuyers({
        company: String(demo.company),
        contact: `${String(demo.first_name)} ${String(demo.last_name)}`,
        email: String(demo.email),
        address: demo.billing_address as object,
      }),
    );
    expect(rows.map((row) => row.seller)).toEqual([null, null, null]);
  });
});
