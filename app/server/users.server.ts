import { eq, sql } from "drizzle-orm";
import { users } from "~/server/database/tables.server";
import { db } from "./db.server";
import { hashPassword, verifyPassword } from "./passwords.server";

export type UserRecord = typeof users.$inferSelect;

// Prepared once: every signed-in page looks the user up, and drizzle would otherwise build the SQL each time.
const userById = db
  .select()
  .from(users)
  .where(eq(users.id, sql.placeholder("id")))
  .prepare();

export function findUserById(id: string): UserRecord | undefined {
  return userById.get({ id });
}

export function findUserByEmail(email: string): UserRecord | undefined {
  return db
    .select()
    .from(users)
    .where(eq(sql`lower(${users.email})`, email.trim().toLowerCase()))
    .get();
}

export function updateProfile(
  userId: string,
  profile: { firstName: string; lastName: string; company: string; phone: string },
) {
  db.update(users).set(profile).where(eq(users.id, userId)).run();
}

/** Changes the password when the current one is right; false when it is not. */
export async function changePassword(userId: string, currentPassword: string, newPassword: string): Promise<boolean> {
  const user = findUserById(userId);
  if (!user || !(await verifyPassword(currentPassword, user.passwordHash))) return false;
  db.update(users)
    .set({ passwordHash: await hashPassword(newPassword) })
    .where(eq(users.id, userId))
    .run();
  return true;
}
