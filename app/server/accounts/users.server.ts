import { and, eq, sql } from "drizzle-orm";
import { affectedRows } from "~/server/platform/database/dialect.server";
import { users } from "~/server/platform/database/tables.server";
import { db, type PortalExecutor } from "~/server/platform/database/db.server";
import { hashPassword, verifyPassword } from "~/server/platform/passwords.server";
import { revokePasswordBoundTokens } from "./one-time-tokens.server";

export type UserRecord = typeof users.$inferSelect;

// Prepared once: every signed-in page looks the user up, and drizzle would otherwise build the SQL each time.
const userById = db
  .select()
  .from(users)
  .where(eq(users.id, sql.placeholder("id")))
  .prepare("user_by_id");

export async function findUserById(id: string): Promise<UserRecord | undefined> {
  const [user] = await userById.execute({ id });
  return user;
}

/** The account with the address, whatever its case; `store` is the transaction that reads it, when there is one. */
export async function findUserByEmail(email: string, store: PortalExecutor = db): Promise<UserRecord | undefined> {
  const [user] = await store
    .select()
    .from(users)
    .where(eq(sql`lower(${users.email})`, email.trim().toLowerCase()))
    .limit(1);
  return user;
}

export async function updateProfile(
  userId: string,
  profile: { firstName: string; lastName: string; company: string; phone: string },
): Promise<void> {
  await db.update(users).set(profile).where(eq(users.id, userId));
}

/**
 * Changes the password when the current one is right; false when it is not. The links that die with the password
 * (a mailed reset or sign-in link) stop working in the same transaction.
 */
export async function changePassword(userId: string, currentPassword: string, newPassword: string): Promise<boolean> {
  const user = await findUserById(userId);
  if (!user || !(await verifyPassword(currentPassword, user.passwordHash))) return false;
  const passwordHash = await hashPassword(newPassword);
  return db.transaction(async (tx) => {
    // Written only over the hash that was checked: when another change (or a reset) got there first, the current
    // password given here is not the current one any more, and this one changes nothing.
    const changed = await tx
      .update(users)
      .set({ passwordHash })
      .where(and(eq(users.id, userId), eq(users.passwordHash, user.passwordHash)));
    if (affectedRows(changed) === 0) return false;
    await revokePasswordBoundTokens(userId, tx);
    return true;
  });
}
