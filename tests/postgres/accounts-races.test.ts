import { randomUUID } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import type * as InvitationsModule from "~/server/accounts/invitations.server";
import type * as OrganizationsModule from "~/server/accounts/organizations.server";
import type { PortalConnection } from "~/server/platform/database/portal-database.server";
import { postgresTestDatabase, startPortalOn } from "../support/postgres";

/**
 * Accounts and teams on PostgreSQL, where transactions run side by side (on SQLite they take turns):
 * - "an organization always keeps an Owner": two Owners demoting or removing each other at once, each through
 *   its own pooled connection, leave one Owner, and one of them is told why. The check reads the other Owners
 *   and the write follows; without the members' lock both checks pass before either write commits.
 *   tests/routes/team.test.ts runs the same on one connection, on both engines.
 * - an invitation accepted as a new account while a sign-up with the same address commits: the acceptance is
 *   told to sign in to that account, and its link still works, instead of failing on the unique address.
 */
const database = postgresTestDatabase();

let organizations: typeof OrganizationsModule;
let invitations: typeof InvitationsModule;
let owners: (organizationId: string) => Promise<number>;
let twoOwners: () => Promise<{ organizationId: string; a: string; b: string }>;
let invitationLink: (email: string) => Promise<string>;
let openDatabase: (url: string, options: { poolMax: number }) => PortalConnection;

beforeAll(async () => {
  // The portal's modules, opened on this file's PostgreSQL database with a pool that lets two transactions overlap.
  process.env.DATABASE_POOL_MAX = "4";
  await startPortalOn(database.url);
  organizations = await import("~/server/accounts/organizations.server");
  invitations = await import("~/server/accounts/invitations.server");
  ({ openDatabase } = await import("~/server/platform/database/portal-database.server"));
  const { issueOneTimeToken } = await import("~/server/accounts/one-time-tokens.server");
  const { db } = await import("~/server/platform/database/db.server");
  const { and, count, eq } = await import("drizzle-orm");
  const tables = await import("~/server/platform/database/tables.server");

  const newOrganization = async () => {
    const id = randomUUID();
    await db.insert(tables.organizations).values({ id, name: "Raced Ltd" });
    return id;
  };
  owners = async (organizationId) => {
    const [row] = await db
      .select({ n: count() })
      .from(tables.memberships)
      .where(and(eq(tables.memberships.organizationId, organizationId), eq(tables.memberships.role, "owner")));
    return row.n;
  };
  twoOwners = async () => {
    const organizationId = await newOrganization();
    const [a, b] = [randomUUID(), randomUUID()];
    for (const id of [a, b]) {
      await db
        .insert(tables.users)
        .values({ id, email: `${id}@owners.example`, passwordHash: "x", firstName: "Owen", lastName: id });
    }
    await db.insert(tables.memberships).values([
      { organizationId, userId: a, role: "owner" },
      { organizationId, userId: b, role: "owner" },
    ]);
    return { organizationId, a, b };
  };
  invitationLink = async (email) => {
    const id = randomUUID();
    await db.insert(tables.invitations).values({
      id,
      organizationId: await newOrganization(),
      email,
      role: "viewer",
      invitedBy: "GateKeeper",
      expiresAt: new Date(Date.now() + 60 * 60 * 1000),
    });
    const { token } = await issueOneTimeToken(
      "invitation",
      { invitationId: id },
      { validMs: 60 * 60 * 1000, data: { email } },
    );
    return token;
  };
}, 60_000);

const actor = (userId: string) => ({ userId, name: "Owen" });
const ROUNDS = 8;

async function expectOneOwnerLeft(organizationId: string, outcomes: PromiseSettledResult<unknown>[]): Promise<void> {
  expect(outcomes.map((outcome) => outcome.status).sort()).toEqual(["fulfilled", "rejected"]);
  const refused = outcomes.find((outcome) => outcome.status === "rejected");
  expect(refused?.reason).toBeInstanceOf(organizations.MembershipRefused);
  expect(await owners(organizationId)).toBe(1);
}

describe("the last Owner, with transactions side by side on PostgreSQL", { timeout: 60_000 }, () => {
  it("two Owners demoting each other at once: one is refused, one Owner stays", async () => {
    for (let round = 0; round < ROUNDS; round += 1) {
      const { organizationId, a, b } = await twoOwners();
      const outcomes = await Promise.allSettled([
        organizations.changeRole(organizationId, a, "viewer", actor(b)),
        organizations.changeRole(organizationId, b, "viewer", actor(a)),
      ]);
      await expectOneOwnerLeft(organizationId, outcomes);
    }
  });

  it("two Owners leaving at once: one is refused, one Owner stays", async () => {
    for (let round = 0; round < ROUNDS; round += 1) {
      const { organizationId, a, b } = await twoOwners();
      const outcomes = await Promise.allSettled([
        organizations.removeMember(organizationId, a, actor(a)),
        organizations.removeMember(organizationId, b, actor(b)),
      ]);
      await expectOneOwnerLeft(organizationId, outcomes);
    }
  });
});

describe("an invitation accepted as a new account, on PostgreSQL", { timeout: 60_000 }, () => {
  it("while a sign-up with the same address commits: told to sign in, and the link still works", async () => {
    const email = `raced-${randomUUID().slice(0, 8)}@invited.example`;
    const token = await invitationLink(email);
    // Another instance's sign-up: its account is inserted, not yet committed, when the acceptance gets there.
    const other = openDatabase(database.url, { poolMax: 1 });
    if (other.engine !== "postgres") throw new Error("Not a PostgreSQL database.");
    const client = await other.pool.connect();
    try {
      await client.query("begin");
      await client.query(
        "insert into users (id, email, password_hash, first_name, last_name) values ($1, $2, 'x', 'Sign', 'Up')",
        [randomUUID(), email],
      );
      const accepting = invitations.acceptInvitation(token, {
        kind: "new",
        firstName: "Ina",
        lastName: "Vited",
        passwordHash: "y",
      });
      // The acceptance found no account, spent the link and now waits on the address the sign-up holds.
      await new Promise((resolve) => setTimeout(resolve, 500));
      await client.query("commit");
      expect(await accepting).toEqual({ signInAs: email });
    } finally {
      client.release();
      await other.close();
    }
    // Rolled back: the link is unspent, for the account's owner to accept once signed in.
    expect(await invitations.invitationOffer(token)).toMatchObject({ email, hasAccount: true });
  });
});
