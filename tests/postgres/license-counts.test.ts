import { randomUUID } from "node:crypto";
import { count, eq, sql } from "drizzle-orm";
import type pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { migratePostgres, openPostgres, type PostgresDatabase } from "~/server/platform/database/postgres.server";
import { licenseCounts, licenses, organizations } from "~db/postgres/schema";
import { migrateBefore, postgresTestDatabase } from "../support/postgres";

const database = postgresTestDatabase("empty");
let db: PostgresDatabase;
let pool: pg.Pool;

/** A new owner: an organization, as licenses are owned since organizations. */
async function newOwner() {
  const id = randomUUID();
  await db.insert(organizations).values({ id, name: "Counting Ltd" });
  return id;
}

/** An owner as the first migration knew them: a person (the organizations migration makes them one of their own). */
async function ownerBeforeOrganizations() {
  const id = randomUUID();
  await db.execute(
    sql`insert into users (id, email, password_hash, first_name, last_name) values (${id}, ${`${id}@example.com`}, 'x', 'Casey', 'Count')`,
  );
  return id;
}

/**
 * Licenses for the owner, naming only the columns the first migration made: some are added before the later
 * migrations run, and an insert through the schema would name columns added since.
 */
async function addLicenses(ownerId: string, n: number) {
  const ids = Array.from({ length: n }, () => randomUUID());
  const rows = ids.map(
    (id) =>
      sql`(${id}, ${ownerId}, ${`GK-${id}`}, 'Counting Ltd', 5, 'core', 'trial', '2026-01-01T00:00:00Z', '2027-01-01T00:00:00Z', '{}')`,
  );
  await db.execute(
    sql`insert into licenses (id, owner_id, external_license_id, name, nodes, plan_type, type, valid_from, valid_to, license_code) values ${sql.join(rows, sql`, `)}`,
  );
  return ids;
}

/** The kept total (undefined: no row), and the real count. */
async function totals(ownerId: string) {
  const [kept] = await db.select().from(licenseCounts).where(eq(licenseCounts.ownerId, ownerId));
  const [counted] = await db.select({ n: count() }).from(licenses).where(eq(licenses.ownerId, ownerId));
  return { kept: kept?.total, counted: counted.n };
}

/** Owners whose licenses were there before the trigger migration: its data step must count them. */
const before: Record<string, number> = {};

beforeAll(async () => {
  ({ db, pool } = openPostgres(database.url));
  // The schema as it was before the trigger migration: only the first migration of the journal.
  await migrateBefore(db, "_license_counts_triggers");
  for (const n of [3, 1]) {
    const owner = await ownerBeforeOrganizations();
    await addLicenses(owner, n);
    before[owner] = n;
  }
  await migratePostgres(db);
}, 60_000);

afterAll(() => pool?.end());

describe("license_counts on PostgreSQL (kept by the plpgsql triggers of the PostgreSQL migrations)", () => {
  it("is filled by the migration for the licenses already there, and every migration is recorded once", async () => {
    for (const [owner, n] of Object.entries(before)) expect(await totals(owner)).toEqual({ kept: n, counted: n });
    const applied = await db.execute<{ n: number }>(sql`select count(*)::int as n from drizzle.__drizzle_migrations`);
    expect(applied.rows[0].n).toBeGreaterThanOrEqual(2);
    await migratePostgres(db);
    const again = await db.execute<{ n: number }>(sql`select count(*)::int as n from drizzle.__drizzle_migrations`);
    expect(again.rows[0].n).toBe(applied.rows[0].n);
  });

  it("follows inserts and deletes", async () => {
    const owner = await newOwner();
    expect(await totals(owner)).toEqual({ kept: undefined, counted: 0 });
    const ids = await addLicenses(owner, 12);
    expect(await totals(owner)).toEqual({ kept: 12, counted: 12 });
    await db.delete(licenses).where(eq(licenses.id, ids[3]));
    expect(await totals(owner)).toEqual({ kept: 11, counted: 11 });
    await db.delete(licenses).where(eq(licenses.ownerId, owner));
    expect(await totals(owner)).toEqual({ kept: 0, counted: 0 });
  });

  it("counts every one of many licenses inserted at once over several connections for a new owner", async () => {
    const owner = await newOwner();
    await Promise.all(Array.from({ length: 20 }, () => addLicenses(owner, 1)));
    expect(await totals(owner)).toEqual({ kept: 20, counted: 20 });
  });

  it("moves with a license that changes owner, ignores other changes, and goes with a deleted owner", async () => {
    const [from, to] = [await newOwner(), await newOwner()];
    const ids = await addLicenses(from, 3);
    await db.update(licenses).set({ ownerId: to }).where(eq(licenses.id, ids[1]));
    expect([await totals(from), await totals(to)]).toEqual([
      { kept: 2, counted: 2 },
      { kept: 1, counted: 1 },
    ]);
    // Setting the owner it already has, or another column, changes no total.
    await db.update(licenses).set({ ownerId: from, isUsed: true }).where(eq(licenses.ownerId, from));
    expect([(await totals(from)).kept, (await totals(to)).kept]).toEqual([2, 1]);
    await db.delete(organizations).where(eq(organizations.id, from));
    expect(await db.select().from(licenseCounts).where(eq(licenseCounts.ownerId, from))).toEqual([]);
    expect(await totals(to)).toEqual({ kept: 1, counted: 1 });
  });
});
