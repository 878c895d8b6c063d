import { randomUUID } from "node:crypto";
import { asc, eq } from "drizzle-orm";
import type { Role } from "~/domain/access-policy";
import { db } from "~/server/platform/database/db.server";
import { memberships, organizations, users } from "~/server/platform/database/tables.server";

/**
 * The person with this address in their first organization, read now: what `requireMember` gives a page (without
 * the session), for calling services directly. Read it again after a change to the organization's row.
 */
export async function memberByEmail(email: string) {
  const [user] = await db.select().from(users).where(eq(users.email, email));
  if (!user) throw new Error(`No account uses ${email}.`);
  const [row] = await db
    .select({ organization: organizations, role: memberships.role })
    .from(memberships)
    .innerJoin(organizations, eq(organizations.id, memberships.organizationId))
    .where(eq(memberships.userId, user.id))
    .orderBy(asc(memberships.createdAt), asc(memberships.organizationId))
    .limit(1);
  if (!row) throw new Error(`${email} belongs to no organization.`);
  return { user, organization: row.organization, role: row.role as Role };
}

export type TestMember = Awaited<ReturnType<typeof memberByEmail>>;

/**
 * A new person who owns a new organization (as sign-up makes them, with a verified address unless told), or
 * joins `organizationId` with `role`. Returns the person's and the organization's ids.
 */
export async function createAccount(
  email: string,
  passwordHash: string,
  {
    role = "owner",
    organizationId,
    verified = true,
  }: { role?: Role; organizationId?: string; verified?: boolean } = {},
) {
  const userId = randomUUID();
  const organization = organizationId ?? randomUUID();
  await db.transaction(async (tx) => {
    await tx.insert(users).values({
      id: userId,
      email,
      passwordHash,
      firstName: "Test",
      lastName: email.split("@")[0],
      emailVerifiedAt: verified ? new Date() : null,
    });
    if (!organizationId) await tx.insert(organizations).values({ id: organization, name: `${email} Ltd` });
    await tx.insert(memberships).values({ organizationId: organization, userId, role });
  });
  return { userId, organizationId: organization };
}
