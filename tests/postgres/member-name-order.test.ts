import { randomUUID } from "node:crypto";
import { asc, eq } from "drizzle-orm";
import type pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { migratePostgres, openPostgres, type PostgresDatabase } from "~/server/platform/database/postgres.server";
import { memberships, users } from "~db/postgres/schema";
import { insertMemberships, insertUsers, migrateBefore, postgresTestDatabase } from "../support/postgres";
import { TRICKY_NAMES } from "../support/member-names";

/**
 * The copy of a person's name on each membership on PostgreSQL (the team page's order): kept by the plpgsql
 * triggers of migration member_name_order, filled by it for the members already there, and always in the order
 * of the people's own names (last name, first name, id) in the database's collation.
 */
const database = postgresTestDatabase("empty");
let db: PostgresDatabase;
let pool: pg.Pool;

const NAMES = TRICKY_NAMES;

/** A new organization, in the columns it has had from the first: beforeAll adds one before later migrations. */
async function newOrganization() {
  const id = randomUUID();
  await pool.query("insert into organizations (id, name) values ($1, $2)", [id, "Named Ltd"]);
  return id;
}

async function addPeople(organizationId: string, names: [string, string][]) {
  const ids = names.map(() => randomUUID());
  await insertUsers(
    db,
    names.map(([firstName, lastName], i) => ({ id: ids[i], email: `${ids[i]}@name.example`, firstName, lastName })),
  );
  await insertMemberships(
    db,
    ids.map((userId) => ({ organizationId, userId, role: "viewer" })),
  );
  return ids;
}

/** The members in the team page's order (the copy), and in the order of their people's own names. */
async function orders(organizationId: string) {
  const bySortKey = await db
    .select({ userId: memberships.userId })
    .from(memberships)
    .where(eq(memberships.organizationId, organizationId))
    .orderBy(asc(memberships.sortLastName), asc(memberships.sortFirstName), asc(memberships.userId));
  const byPeoplesNames = await db
    .select({ userId: users.id })
    .from(memberships)
    .innerJoin(users, eq(users.id, memberships.userId))
    .where(eq(memberships.organizationId, organizationId))
    .orderBy(asc(users.lastName), asc(users.firstName), asc(users.id));
  return { copy: bySortKey.map((row) => row.userId), names: byPeoplesNames.map((row) => row.userId) };
}

async function expectSameOrder(organizationId: string, size: number) {
  const { copy, names } = await orders(organizationId);
  expect(names).toHaveLength(size);
  expect(copy).toEqual(names);
}

/** An organization with members from before the migration: its data step must copy their names. */
let before: string;

beforeAll(async () => {
  ({ db, pool } = openPostgres(database.url));
  await migrateBefore(db, "_member_name_order");
  before = await newOrganization();
  await addPeople(before, NAMES);
  await migratePostgres(db);
}, 60_000);

afterAll(() => pool?.end());

describe("the copy of a person's name on each membership on PostgreSQL (the team page's order)", () => {
  it("is filled by the migration for the members already there", async () => {
    await expectSameOrder(before, NAMES.length);
  });

  it("follows a new member, a renamed person and a membership handed to another person", async () => {
    const organization = await newOrganization();
    const ids = await addPeople(organization, NAMES);
    await expectSameOrder(organization, NAMES.length);
    await db.update(users).set({ lastName: "Aaronson" }).where(eq(users.id, ids[4]));
    await db.update(users).set({ firstName: "aardvark" }).where(eq(users.id, ids[0]));
    await expectSameOrder(organization, NAMES.length);
    await addPeople(organization, [["Bea", "Smith"]]);
    await expectSameOrder(organization, NAMES.length + 1);
    const [other] = await addPeople(await newOrganization(), [["Al", "Zz"]]);
    await db.update(memberships).set({ userId: other }).where(eq(memberships.userId, ids[5]));
    await expectSameOrder(organization, NAMES.length + 1);
    expect((await orders(organization)).copy).toContain(other);
  });
});
