import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type Database from "better-sqlite3";
import { and, asc, count, desc, eq, lte, sql } from "drizzle-orm";
import type pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openPostgres, type PostgresDatabase } from "~/server/platform/database/postgres.server";
import { affectedRows, asyncSqlite } from "~/server/platform/database/sqlite-async.server";
import { migrateSqlite, openSqlite } from "~/server/platform/database/sqlite.server";
import * as postgresSchema from "~db/postgres/schema";
import * as sqliteSchema from "~db/schema";
import { postgresTestDatabase } from "../support/postgres";

/**
 * How the portal's data layer is written once for both engines: against drizzle's PostgreSQL types (the pg
 * builder API, PostgreSQL's schema), while on SQLite the async SQLite database and SQLite's tables stand in,
 * cast to those types. The same function runs on both here and must give the same answers: rows with dates,
 * booleans and JSON, upserts, counts, joins, relational queries, transactions, affected rows, the license
 * totals the triggers keep, sort order and case-insensitive search.
 */

type Tables = typeof postgresSchema;

const DAY = 24 * 60 * 60 * 1000;
const at = (days: number) => new Date(Date.UTC(2026, 0, 1) + days * DAY);

async function portalQueries(db: PostgresDatabase, t: Tables) {
  const seen: Record<string, unknown> = {};
  const people = ["b", "B", "_z", "a", "Z", "ä"].map((lastName, i) => ({
    id: `user-${i}`,
    email: `Person.${lastName}@Example.com`,
    passwordHash: "x",
    firstName: "Pat",
    lastName,
    createdAt: at(i),
  }));
  seen.inserted = await db.insert(t.users).values(people).returning({ id: t.users.id, createdAt: t.users.createdAt });
  const [defaulted] = await db
    .insert(t.users)
    .values({ id: "user-now", email: "now@example.com", passwordHash: "x", firstName: "N", lastName: "Ow" })
    .returning();
  const [organization] = await db.insert(t.organizations).values({ id: "org-now", name: "Now Ltd" }).returning();
  seen.defaults = {
    createdAtIsNow: Math.abs(defaulted.createdAt.getTime() - Date.now()) < 60_000,
    isGKAdmin: defaulted.isGKAdmin,
    customerType: organization.customerType,
    shippingAddress: organization.shippingAddress,
  };
  seen.sorted = (await db.select({ lastName: t.users.lastName }).from(t.users).orderBy(asc(t.users.lastName))).map(
    (row) => row.lastName,
  );
  // Case-insensitive search written so that both engines agree (SQLite's LIKE ignores ASCII case, PostgreSQL's not).
  seen.search = (
    await db
      .select({ id: t.users.id })
      .from(t.users)
      .where(sql`lower(${t.users.email}) like lower(${"%EXAMPLE.COM"})`)
      .orderBy(t.users.id)
  ).map((row) => row.id);

  // Licenses belong to an organization.
  const owner = "org-0";
  await db.insert(t.organizations).values({ id: owner, name: "Office Co" });
  const licenseRows = [0, 1, 2, 3].map((i) => ({
    id: `license-${i}`,
    ownerId: owner,
    externalLicenseId: `GK-${i}`,
    name: "Office",
    nodes: 5 + i,
    planType: "core" as const,
    type: i === 3 ? ("trial" as const) : ("recurring" as const),
    validFrom: at(10 + (i % 2)),
    validTo: at(400),
    licenseCode: "{}",
    subscriptionId: i === 3 ? null : `sub-${i}`,
  }));
  await db.insert(t.licenses).values(licenseRows);
  seen.page = await db
    .select({ id: t.licenses.id, validFrom: t.licenses.validFrom })
    .from(t.licenses)
    .where(eq(t.licenses.ownerId, owner))
    .orderBy(desc(t.licenses.validFrom), desc(t.licenses.id))
    .limit(3);
  seen.resumedOrder = await db
    .insert(t.licenses)
    .values({ ...licenseRows[0], id: "license-again", externalLicenseId: "GK-again" })
    .onConflictDoNothing({ target: t.licenses.subscriptionId })
    .returning();
  seen.markedUsed = affectedRows(
    await db
      .update(t.licenses)
      .set({ isUsed: true })
      .where(and(eq(t.licenses.ownerId, owner), eq(t.licenses.type, "recurring"))),
  );
  seen.used = await db.select({ n: count() }).from(t.licenses).where(eq(t.licenses.isUsed, true));
  seen.startedBy = await db
    .select({ n: sql<number>`count(*)`.mapWith(Number) })
    .from(t.licenses)
    .where(lte(t.licenses.validFrom, at(10)));
  seen.total = await db
    .select({ total: t.licenseCounts.total })
    .from(t.licenseCounts)
    .where(eq(t.licenseCounts.ownerId, owner));
  seen.joined = await db
    .select({ license: t.licenses.externalLicenseId, organization: t.organizations.name })
    .from(t.licenses)
    .innerJoin(t.organizations, eq(t.organizations.id, t.licenses.ownerId))
    .where(eq(t.licenses.nodes, 6));
  seen.relational = await db.query.users.findFirst({
    where: eq(t.users.id, "user-0"),
    columns: { email: true, isGKAdmin: true },
  });

  for (const data of [
    { step: "plan", plan: { id: "advanced", users: 10 } },
    { step: "billing", nested: [1, "two", null] },
  ]) {
    await db
      .insert(t.drafts)
      .values({ id: "draft-1", ownerId: owner, userId: "user-0", wizard: "new-subscription", data })
      .onConflictDoUpdate({
        target: [t.drafts.ownerId, t.drafts.userId, t.drafts.wizard],
        set: { data, updatedAt: at(20) },
      });
  }
  seen.draft = await db.select({ data: t.drafts.data, updatedAt: t.drafts.updatedAt }).from(t.drafts);

  await expect(
    db.transaction(async (tx) => {
      const [row] = await tx.select().from(t.licenses).where(eq(t.licenses.id, "license-1"));
      await tx
        .update(t.licenses)
        .set({ nodes: row.nodes + 100 })
        .where(eq(t.licenses.id, row.id));
      await tx.delete(t.licenses).where(eq(t.licenses.id, "license-2"));
      throw new Error("The card was declined.");
    }),
  ).rejects.toThrow("The card was declined.");
  seen.afterRollback = await db
    .select({ id: t.licenses.id, nodes: t.licenses.nodes })
    .from(t.licenses)
    .orderBy(t.licenses.id);
  seen.committed = await db.transaction(async (tx) => {
    const [row] = await tx.select().from(t.licenses).where(eq(t.licenses.id, "license-1"));
    return tx
      .update(t.licenses)
      .set({ nodes: row.nodes + 1 })
      .where(eq(t.licenses.id, row.id))
      .returning({ nodes: t.licenses.nodes });
  });
  seen.deleted = await db.delete(t.licenses).where(eq(t.licenses.id, "license-3")).returning({ id: t.licenses.id });
  seen.totalAfter = await db
    .select({ total: t.licenseCounts.total })
    .from(t.licenseCounts)
    .where(eq(t.licenseCounts.ownerId, owner));
  return seen;
}

const postgresDatabase = postgresTestDatabase();
let pool: pg.Pool;
let postgres: PostgresDatabase;
const directory = mkdtempSync(path.join(tmpdir(), "gk-two-engines-"));
let sqlite: Database.Database;
let onSqlite: PostgresDatabase;

beforeAll(() => {
  ({ db: postgres, pool } = openPostgres(postgresDatabase.url));
  sqlite = openSqlite(path.join(directory, "portal.sqlite"));
  migrateSqlite(sqlite);
  // The cast the data layer makes once: the SQLite database and tables, typed as their PostgreSQL twins.
  onSqlite = asyncSqlite(sqlite) as unknown as PostgresDatabase;
});
afterAll(async () => {
  await pool?.end();
  sqlite?.close();
  rmSync(directory, { recursive: true, force: true });
});

describe("one data layer, typed against PostgreSQL, on both engines", () => {
  it("gives the same answers on PostgreSQL and on SQLite", async () => {
    const fromPostgres = await portalQueries(postgres, postgresSchema);
    const fromSqlite = await portalQueries(onSqlite, sqliteSchema as unknown as Tables);
    expect(fromSqlite).toEqual(fromPostgres);
    // And they are the answers expected, not the same mistake twice.
    expect(fromPostgres).toMatchObject({
      defaults: { createdAtIsNow: true, isGKAdmin: false, customerType: "customer", shippingAddress: null },
      sorted: ["B", "Ow", "Z", "_z", "a", "b", "ä"],
      search: ["user-0", "user-1", "user-2", "user-3", "user-4", "user-5", "user-now"],
      page: [
        { id: "license-3", validFrom: at(11) },
        { id: "license-1", validFrom: at(11) },
        { id: "license-2", validFrom: at(10) },
      ],
      resumedOrder: [],
      markedUsed: 3,
      used: [{ n: 3 }],
      startedBy: [{ n: 2 }],
      total: [{ total: 4 }],
      joined: [{ license: "GK-1", organization: "Office Co" }],
      relational: { email: "Person.b@Example.com", isGKAdmin: false },
      draft: [{ data: { step: "billing", nested: [1, "two", null] }, updatedAt: at(20) }],
      committed: [{ nodes: 7 }],
      deleted: [{ id: "license-3" }],
      totalAfter: [{ total: 3 }],
    });
    expect(fromPostgres.afterRollback).toEqual([
      { id: "license-0", nodes: 5 },
      { id: "license-1", nodes: 6 },
      { id: "license-2", nodes: 7 },
      { id: "license-3", nodes: 8 },
    ]);
  });

  it("has builder methods only PostgreSQL runs: those stay in the dialect module, behind one function per need", () => {
    const claim = (db: PostgresDatabase, t: Tables) =>
      db.select({ id: t.jobs.id }).from(t.jobs).limit(1).for("update", { skipLocked: true });
    expect(() => claim(onSqlite, sqliteSchema as unknown as Tables)).toThrow(TypeError);
    expect(claim(postgres, postgresSchema).toSQL().sql).toMatch(/for update skip locked$/);
  });
});
