import { randomUUID } from "node:crypto";
import { and, asc, count, eq, gte, inArray, isNull, lt, ne, or, sql } from "drizzle-orm";
import { searchKey } from "~/domain/search-key";
import { ADMIN_CUSTOMERS_PER_PAGE } from "~/domain/pagination";
import { ROLE_NAMES, type Role } from "~/domain/access-policy";
import {
  drafts,
  invitations,
  licenseCounts,
  memberships,
  organizationCounts,
  organizations,
  sessions,
  users,
  type ShippingAddress,
} from "~/server/platform/database/tables.server";
import { GATEKEEPER, recordActivity, type ActivityActor } from "./activity.server";
import { lockFor } from "~/server/platform/database/dialect.server";
import { db, type PortalDatabase, type PortalTransaction } from "~/server/platform/database/db.server";

/**
 * Organizations and their members. An organization is one billing customer: its licenses, Hubs, trials, drafts
 * and jobs carry its id as their owner_id, whichever member made them. A person belongs to one or more (sign-up
 * and an accepted invitation make the account and its first membership together; leaving the last one deletes
 * the account); an organization with members always keeps at least one Owner.
 */
export type OrganizationRecord = typeof organizations.$inferSelect;

// The shell asks both of these on every page, so each is compiled once rather than per request.
const organizationsByUser = db
  .select({ id: organizations.id, name: organizations.name, role: memberships.role })
  .from(memberships)
  .innerJoin(organizations, eq(organizations.id, memberships.organizationId))
  .where(eq(memberships.userId, sql.placeholder("userId")))
  .orderBy(asc(memberships.createdAt), asc(organizations.id))
  .prepare("organizations_by_user");

const membershipByUserAndOrganization = db
  .select({ organization: organizations, role: memberships.role })
  .from(memberships)
  .innerJoin(organizations, eq(organizations.id, memberships.organizationId))
  .where(
    and(
      eq(memberships.userId, sql.placeholder("userId")),
      eq(memberships.organizationId, sql.placeholder("organizationId")),
    ),
  )
  .prepare("membership_by_user_and_organization");

/** A person's organizations, the first joined first: the one a new session starts in, and the header's switcher. */
export async function organizationsOf(userId: string): Promise<{ id: string; name: string; role: Role }[]> {
  return organizationsByUser.execute({ userId });
}

/** The person's role in the organization and the organization, or null when they are not a member. */
export async function membershipOf(
  userId: string,
  organizationId: string,
): Promise<{ organization: OrganizationRecord; role: Role } | null> {
  const [membership] = await membershipByUserAndOrganization.execute({ userId, organizationId });
  return membership ?? null;
}

export async function findOrganization(organizationId: string): Promise<OrganizationRecord | null> {
  const [row] = await db.select().from(organizations).where(eq(organizations.id, organizationId));
  return row ?? null;
}

/** The organization's members in any of these roles, with the address mail reaches them at, by email. */
export async function membersInRoles(
  organizationId: string,
  roles: readonly Role[],
): Promise<{ userId: string; email: string; firstName: string }[]> {
  return db
    .select({ userId: users.id, email: users.email, firstName: users.firstName })
    .from(memberships)
    .innerJoin(users, eq(users.id, memberships.userId))
    .where(and(eq(memberships.organizationId, organizationId), inArray(memberships.role, [...roles])))
    .orderBy(asc(users.email));
}

export interface NewOrganization {
  name: string;
  customerType?: "customer" | "distributor";
  country?: string;
}

/** An organization's row, ready to insert in the transaction that makes it (sign-up, an administrator's). */
export const organizationRow = ({ name, customerType = "customer", country = "" }: NewOrganization) => ({
  id: randomUUID(),
  name,
  searchName: searchKey(name),
  customerType,
  country,
});

/**
 * The organization's billing customer id, given one first if it has none (an organization made by an
 * administrator, or before its first purchase). Set only while still empty, so two requests racing here agree.
 */
export async function assignBillingCustomerId(organizationId: string): Promise<string> {
  await db
    .update(organizations)
    .set({ billingCustomerId: `cust_${randomUUID()}` })
    .where(and(eq(organizations.id, organizationId), isNull(organizations.billingCustomerId)));
  const id = (await findOrganization(organizationId))?.billingCustomerId;
  if (!id) throw new Error(`Organization ${organizationId} does not exist.`);
  return id;
}

/** Where the organization's hardware ships; null means "same as billing address". */
export async function saveShippingAddress(
  organizationId: string,
  address: ShippingAddress | null,
  actor: ActivityActor,
): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.update(organizations).set({ shippingAddress: address }).where(eq(organizations.id, organizationId));
    await recordActivity(tx, {
      organizationId,
      actor,
      action: "shipping_address.updated",
      summary: address
        ? `Changed the shipping address to ${address.line1}, ${address.city}.`
        : "Made the shipping address the same as the billing address.",
    });
  });
}

// --- Members -------------------------------------------------------------------------------------------------

export interface MemberView {
  userId: string;
  firstName: string;
  lastName: string;
  email: string;
  role: Role;
  lastSignedInAt: Date | null;
  joinedAt: Date;
}

// Prepared once: the team page reads its total and one page on every visit. The total is one row of
// organization_counts, kept by triggers (decision 192), not a count of the organization's members.
const memberTotalOf = db
  .select({ members: organizationCounts.members })
  .from(organizationCounts)
  .where(eq(organizationCounts.organizationId, sql.placeholder("organizationId")))
  .prepare("member_total_of");
/** One page of an organization's members by name (exported for the test of its query plan). */
export const membersByName = db
  .select({
    userId: users.id,
    firstName: users.firstName,
    lastName: users.lastName,
    email: users.email,
    role: memberships.role,
    lastSignedInAt: users.lastSignedInAt,
    joinedAt: memberships.createdAt,
  })
  .from(memberships)
  .innerJoin(users, eq(users.id, memberships.userId))
  .where(eq(memberships.organizationId, sql.placeholder("organizationId")))
  // The name copied onto the membership, so the page is read off memberships_name_idx without sorting all members.
  .orderBy(asc(memberships.sortLastName), asc(memberships.sortFirstName), asc(memberships.userId))
  .limit(sql.placeholder("limit"))
  .offset(sql.placeholder("offset"))
  .prepare("members_by_name");

/** One page of the organization's members, by name, and how many there are: paged in SQL. */
export async function memberPage(
  organizationId: string,
  page: number,
  pageSize: number,
): Promise<{ total: number; members: MemberView[] }> {
  const [counts] = await memberTotalOf.execute({ organizationId });
  const members = await membersByName.execute({ organizationId, limit: pageSize, offset: (page - 1) * pageSize });
  const total = counts?.members ?? 0;
  return { total, members };
}

/** Why a change of members cannot be made, as the team page says it. */
export class MembershipRefused extends Error {
  override name = "MembershipRefused";
}

export const LAST_OWNER = "An organization always keeps at least one Owner: make another member an Owner first.";
const NOT_A_MEMBER = "That person is not a member of this organization.";

async function roleIn(tx: PortalTransaction, organizationId: string, userId: string): Promise<Role | null> {
  const [row] = await tx
    .select({ role: memberships.role })
    .from(memberships)
    .where(and(eq(memberships.organizationId, organizationId), eq(memberships.userId, userId)));
  return row?.role ?? null;
}

async function otherOwners(tx: PortalTransaction, organizationId: string, userId: string): Promise<number> {
  const [row] = await tx
    .select({ n: count() })
    .from(memberships)
    .where(
      and(
        eq(memberships.organizationId, organizationId),
        eq(memberships.role, "owner"),
        ne(memberships.userId, userId),
      ),
    );
  return row?.n ?? 0;
}

async function nameOf(tx: PortalTransaction, userId: string): Promise<string> {
  const [person] = await tx
    .select({ firstName: users.firstName, lastName: users.lastName, email: users.email })
    .from(users)
    .where(eq(users.id, userId));
  return person ? `${person.firstName} ${person.lastName}`.trim() || person.email : "A former member";
}

/**
 * Holds the organization's members still until the transaction ends: a change that checks "is there another
 * Owner?" and then writes takes it first, so two Owners demoting or removing each other at once run one after
 * the other, and the second sees the first's change and is refused, instead of both passing the check.
 */
const lockMembers = (tx: PortalTransaction, organizationId: string) => lockFor(tx, `members:${organizationId}`);

/** Gives a member another role. The last Owner cannot be demoted. Checked and written under the members' lock. */
export async function changeRole(
  organizationId: string,
  userId: string,
  role: Role,
  actor: ActivityActor,
): Promise<void> {
  await db.transaction(async (tx) => {
    await lockMembers(tx, organizationId);
    const current = await roleIn(tx, organizationId, userId);
    if (!current) throw new MembershipRefused(NOT_A_MEMBER);
    if (current === role) return;
    if (current === "owner" && (await otherOwners(tx, organizationId, userId)) === 0) {
      throw new MembershipRefused(LAST_OWNER);
    }
    await tx
      .update(memberships)
      .set({ role })
      .where(and(eq(memberships.organizationId, organizationId), eq(memberships.userId, userId)));
    await recordActivity(tx, {
      organizationId,
      actor,
      action: "member.role_changed",
      summary: `Changed the role of ${await nameOf(tx, userId)} from ${ROLE_NAMES[current]} to ${ROLE_NAMES[role]}.`,
    });
  });
}

/**
 * Takes a member out of the organization (removed by an Owner, or leaving): their sessions in it end at once,
 * their drafts in it go, and the last Owner can do neither (checked under the members' lock). A person always
 * belongs to an organization: one who then belongs to none has no use for the account, and it is deleted (their
 * name stays in the activity log).
 */
export async function removeMember(
  organizationId: string,
  userId: string,
  actor: ActivityActor,
): Promise<{ accountDeleted: boolean }> {
  return db.transaction(async (tx) => {
    await lockMembers(tx, organizationId);
    const current = await roleIn(tx, organizationId, userId);
    if (!current) throw new MembershipRefused(NOT_A_MEMBER);
    if (current === "owner" && (await otherOwners(tx, organizationId, userId)) === 0) {
      throw new MembershipRefused(LAST_OWNER);
    }
    const name = await nameOf(tx, userId);
    const leaving = actor !== GATEKEEPER && actor.userId === userId;
    await recordActivity(tx, {
      organizationId,
      actor,
      action: leaving ? "member.left" : "member.removed",
      summary: leaving ? `Left the organization.` : `Removed ${name} (${ROLE_NAMES[current]}) from the organization.`,
    });
    await tx
      .delete(memberships)
      .where(and(eq(memberships.organizationId, organizationId), eq(memberships.userId, userId)));
    await tx.delete(drafts).where(and(eq(drafts.ownerId, organizationId), eq(drafts.userId, userId)));
    await tx.delete(sessions).where(and(eq(sessions.userId, userId), eq(sessions.organizationId, organizationId)));
    const [stillMember] = await tx.select({ n: count() }).from(memberships).where(eq(memberships.userId, userId));
    if ((stillMember?.n ?? 0) > 0) return { accountDeleted: false };
    // Sessions, known browsers, one-time links and drafts go with the account (ON DELETE CASCADE).
    await tx.delete(users).where(eq(users.id, userId));
    return { accountDeleted: true };
  });
}

// --- Administrators -----------------------------------------------------------------------------------------

/**
 * Every organization but the end customers, with its number of members, licenses and, for a distributor, end
 * customers (organization_counts and license_counts, kept by triggers: decisions 192, 237 and 120), for
 * administrators. A distributor may have thousands of end customers: they are listed, a page at a time, on its own
 * page.
 */
/**
 * Every organization but the end customers, or any organization whose name or one of whose members' addresses
 * starts with `query` (both folded: searchKey), a page of ADMIN_CUSTOMERS_PER_PAGE by folded name, and how many there are: both in SQL, on the
 * indexes of search_name and search_email (a key range, which SQLite and PostgreSQL compare byte by byte).
 */
export async function searchOrganizationsForAdmin(query: string, page: number) {
  const key = searchKey(query);
  // U+10FFFF sorts after every character a key can hold: [key, key + it) is every key that starts with key.
  const startsWith = (column: typeof organizations.searchName | typeof users.searchEmail) =>
    and(gte(column, key), lt(column, `${key}\u{10FFFF}`));
  const matching = key
    ? or(
        startsWith(organizations.searchName),
        inArray(
          organizations.id,
          db
            .select({ id: memberships.organizationId })
            .from(memberships)
            .innerJoin(users, eq(users.id, memberships.userId))
            .where(startsWith(users.searchEmail)),
        ),
      )
    : // Without a search, the end customers are listed a page at a time on their distributor's page, not here.
      isNull(organizations.managedBy);
  const [{ total }] = await db.select({ total: count() }).from(organizations).where(matching);
  const rows = await db
    .select({
      id: organizations.id,
      name: organizations.name,
      customerType: organizations.customerType,
      members: sql<number>`coalesce(${organizationCounts.members}, 0)`.mapWith(Number),
      licenses: sql<number>`coalesce(${licenseCounts.total}, 0)`.mapWith(Number),
      pendingInvitations:
        sql<number>`(select count(*) from ${invitations} where ${invitations.organizationId} = ${organizations.id})`.mapWith(
          Number,
        ),
      endCustomers: sql<number>`coalesce(${organizationCounts.endCustomers}, 0)`.mapWith(Number),
    })
    .from(organizations)
    .leftJoin(organizationCounts, eq(organizationCounts.organizationId, organizations.id))
    .leftJoin(licenseCounts, eq(licenseCounts.ownerId, organizations.id))
    .where(matching)
    .orderBy(asc(organizations.searchName), asc(organizations.id))
    .limit(ADMIN_CUSTOMERS_PER_PAGE)
    .offset((page - 1) * ADMIN_CUSTOMERS_PER_PAGE);
  return { organizations: rows, total };
}

/**
 * Gives the search key (searchKey) to every organization and person that has none: those the demo seed, an older
 * version of the portal or a hand-made insert left without. Run by the start-up; a key is only ever empty for them,
 * so after the first start this reads nothing but an index.
 */
export async function fillSearchKeys(database: PortalDatabase): Promise<void> {
  const unnamed = await database
    .select({ id: organizations.id, name: organizations.name })
    .from(organizations)
    .where(eq(organizations.searchName, ""));
  for (const { id, name } of unnamed) {
    await database
      .update(organizations)
      .set({ searchName: searchKey(name) })
      .where(eq(organizations.id, id));
  }
  const unaddressed = await database
    .select({ id: users.id, email: users.email })
    .from(users)
    .where(eq(users.searchEmail, ""));
  for (const { id, email } of unaddressed) {
    await database
      .update(users)
      .set({ searchEmail: searchKey(email) })
      .where(eq(users.id, id));
  }
}

/** An organization an administrator opens for a customer that sales onboards by hand: no member yet. */
export async function createOrganizationForCustomer(organization: NewOrganization): Promise<string> {
  const row = organizationRow(organization);
  await db.transaction(async (tx) => {
    await tx.insert(organizations).values(row);
    await recordActivity(tx, {
      organizationId: row.id,
      actor: GATEKEEPER,
      action: "organization.created",
      summary: `GateKeeper opened the organization ${row.name}.`,
    });
  });
  return row.id;
}

/**
 * The organization a person's own mail (a sign-in link, a password reset) belongs to: their first. Every person
 * belongs to one, so mail about them always has an owner, and goes if the account does.
 */
export async function mailOwnerOf(userId: string): Promise<string> {
  const [first] = await organizationsOf(userId);
  if (!first) throw new Error(`The account ${userId} belongs to no organization.`);
  return first.id;
}
