import { randomUUID } from "node:crypto";
import { asc, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { sqlitePlan } from "../support/query-plan";
import { db } from "~/server/platform/database/db.server";
import { memberPage, membersByName } from "~/server/accounts/organizations.server";
import { engine, memberships, organizations, users } from "~/server/platform/database/tables.server";
import { TRICKY_NAMES } from "../support/member-names";
import { rerunMigration } from "../support/sqlite-migrations";

/**
 * The team page's order of members, read off memberships_name_idx through the name the triggers of migration
 * 0017_member_name_order copy onto each membership: always the order of the person's own name (last name, first
 * name, then id), which is what the page sorted by before the copy existed.
 */
const NAMES = TRICKY_NAMES;

async function newOrganization(): Promise<string> {
  const id = randomUUID();
  await db.insert(organizations).values({ id, name: "Named Ltd" });
  return id;
}

async function addPerson(organizationId: string, [firstName, lastName]: [string, string]): Promise<string> {
  const id = randomUUID();
  await db.insert(users).values({ id, email: `${id}@name.example`, passwordHash: "x", firstName, lastName });
  await db.insert(memberships).values({ organizationId, userId: id, role: "viewer" });
  return id;
}

/** The members in the order of their people's own names: the team page's order before the copy. */
async function byPeoplesNames(organizationId: string): Promise<string[]> {
  const rows = await db
    .select({ userId: users.id })
    .from(memberships)
    .innerJoin(users, eq(users.id, memberships.userId))
    .where(eq(memberships.organizationId, organizationId))
    .orderBy(asc(users.lastName), asc(users.firstName), asc(users.id));
  return rows.map((row) => row.userId);
}

/** Every page of the team page's members, 5 to a page. */
async function pagedOrder(organizationId: string): Promise<string[]> {
  const seen: string[] = [];
  for (let page = 1; ; page++) {
    const { members } = await memberPage(organizationId, page, 5);
    seen.push(...members.map((member) => member.userId));
    if (members.length < 5) return seen;
  }
}

async function expectTodaysOrder(organizationId: string, size: number) {
  const expected = await byPeoplesNames(organizationId);
  expect(expected).toHaveLength(size);
  expect(await pagedOrder(organizationId)).toEqual(expected);
}

describe("the team page's order of members (a copy of the name on the membership, kept by triggers)", () => {
  it("is the order of the people's names, with ties and different case, page after page", async () => {
    const organization = await newOrganization();
    for (const name of NAMES) await addPerson(organization, name);
    // Another organization's members with the same names never enter its pages.
    for (const name of NAMES.slice(0, 4)) await addPerson(await newOrganization(), name);
    await expectTodaysOrder(organization, NAMES.length);
  });

  it("moves a renamed person, and places a new member where their name sorts", async () => {
    const organization = await newOrganization();
    const ids: string[] = [];
    for (const name of NAMES) ids.push(await addPerson(organization, name));
    await db.update(users).set({ lastName: "Aaronson" }).where(eq(users.id, ids[4]));
    await db.update(users).set({ firstName: "aardvark" }).where(eq(users.id, ids[0]));
    await expectTodaysOrder(organization, NAMES.length);
    // Bob Smith, now Aaronson, comes before the Adamses.
    const renamed = await pagedOrder(organization);
    expect(renamed.indexOf(ids[4])).toBeLessThan(renamed.indexOf(ids[5]));
    const newcomer = await addPerson(organization, ["Bea", "Smith"]);
    await expectTodaysOrder(organization, NAMES.length + 1);
    expect(await pagedOrder(organization)).toContain(newcomer);
    // A membership handed to another person takes that person's name.
    const other = randomUUID();
    await db
      .insert(users)
      .values({ id: other, email: `${other}@name.example`, passwordHash: "x", firstName: "Al", lastName: "Zz" });
    await db.update(memberships).set({ userId: other }).where(eq(memberships.userId, ids[5]));
    await expectTodaysOrder(organization, NAMES.length + 1);
    expect(await pagedOrder(organization)).toContain(other);
  });

  // SQLite's migration and query plan; tests/postgres/member-name-order.test.ts checks PostgreSQL's.
  it.skipIf(engine === "postgres")(
    "is filled for the members already there by the migration that adds the copy",
    async () => {
      const organization = await newOrganization();
      for (const name of NAMES) await addPerson(organization, name);
      // The database as it was before that migration: no copy, no index, no triggers.
      rerunMigration("0017_member_name_order.sql", "memberships_name_", [
        "DROP INDEX memberships_name_idx",
        "ALTER TABLE memberships DROP COLUMN sort_last_name",
        "ALTER TABLE memberships DROP COLUMN sort_first_name",
      ]);
      await expectTodaysOrder(organization, NAMES.length);
      await addPerson(organization, ["Dee", "Adams"]);
      await expectTodaysOrder(organization, NAMES.length + 1);
    },
  );

  it.skipIf(engine === "postgres")(
    "reads a page off memberships_name_idx, without sorting the organization's members",
    () => {
      const plan = sqlitePlan(membersByName.getQuery().sql, "someone", 20, 40);
      expect(plan).toContain("USING INDEX memberships_name_idx");
      expect(plan).not.toContain("TEMP B-TREE");
    },
  );
});
