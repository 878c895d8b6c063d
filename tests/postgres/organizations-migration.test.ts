import type pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { migratePostgres, openPostgres, type PostgresDatabase } from "~/server/platform/database/postgres.server";
import { postgresDemoDatabaseBefore } from "../support/demo-database-before";
import { postgresTestDatabase } from "../support/postgres";

/**
 * The PostgreSQL twin of tests/server/organizations-migration.test.ts: the demo database as the portal left it
 * before organizations (the same fixture, copied row by row into a PostgreSQL database migrated up to then), then
 * the organizations migration: every account an organization of its own, nothing lost.
 */
const database = postgresTestDatabase("empty");
let db: PostgresDatabase;
let pool: pg.Pool;
type Row = Record<string, unknown>;
beforeAll(async () => {
  ({ db, pool } = openPostgres(database.url));
  await postgresDemoDatabaseBefore(db, pool, "_organizations");
  await migratePostgres(db);
}, 60_000);

afterAll(() => pool?.end());

const query = async (text: string) => (await pool.query(text)).rows as Row[];

describe("the organizations migration on PostgreSQL, on a copy of the demo database", () => {
  it("makes each account an organization of its own, its owner, with the billing columns moved over", async () => {
    const users = await query("select id, email, company, email_verified_at, created_at from users order by email");
    const organizations = await query("select * from organizations");
    expect(organizations).toHaveLength(3);
    const customer = users.find((user) => user.email === "customer@example.com")!;
    expect(organizations.find((organization) => organization.id === customer.id)).toMatchObject({
      name: "Northwind Clinics",
      customer_type: "customer",
      billing_customer_id: "cust_demo_customer",
      shipping_address: expect.objectContaining({ line1: "1 Harbor Way" }) as unknown,
    });
    expect(organizations.find((organization) => organization.name === "SecureLine Resellers")?.customer_type).toBe(
      "distributor",
    );
    expect(
      await query("select count(*)::int as n from memberships where organization_id = user_id and role = 'owner'"),
    ).toEqual([{ n: 3 }]);
    for (const user of users) expect(user.email_verified_at).toEqual(user.created_at);
    const columns = (await query("select column_name from information_schema.columns where table_name = 'users'")).map(
      (column) => column.column_name,
    );
    expect(columns).not.toContain("billing_customer_id");
  });

  it("keeps licenses, Hubs, jobs, drafts and trials with their owners, and the license totals", async () => {
    expect(await query("select count(*)::int as n from licenses")).toEqual([{ n: 4 }]);
    expect(await query("select count(*)::int as n from hub_installation_licenses")).toEqual([{ n: 3 }]);
    expect(await query("select count(*)::int as n from jobs")).toEqual([{ n: 2 }]);
    expect(await query("select owner_id = user_id as same from drafts")).toEqual([{ same: true }]);
    expect(await query("select owner_id = user_id as same from trials")).toEqual([{ same: true }]);
    expect(await query("select total from license_counts")).toEqual([{ total: 4 }]);
    const [owner] = await query("select owner_id from licenses limit 1");
    await pool.query(
      "insert into licenses (id, owner_id, external_license_id, name, nodes, plan_type, type, valid_from, valid_to, license_code) values ('after', $1, 'GK-AFTER', 'After', 1, 'core', 'trial', now(), now(), '{}')",
      [owner.owner_id],
    );
    expect(await query("select total from license_counts")).toEqual([{ total: 5 }]);
  });

  it("opens each organization's activity log, and the log refuses every change", async () => {
    expect(await query("select count(*)::int as n from activity where action = 'organization.created'")).toEqual([
      { n: 3 },
    ]);
    await expect(pool.query("update activity set summary = 'rewritten'")).rejects.toThrow(
      "The activity log is never changed.",
    );
  });
});
