import { randomUUID } from "node:crypto";
import { and, count, eq, isNull, sql } from "drizzle-orm";
import { licenseCounts, trials, users, type ShippingAddress } from "~db/schema";
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

const trialCount = db
  .select({ n: count() })
  .from(trials)
  .where(eq(trials.userId, sql.placeholder("userId")))
  .prepare();

export function countTrials(userId: string): number {
  return trialCount.get({ userId })?.n ?? 0;
}

/** Every customer with how many licenses they hold (license_counts, decision 120), for the admin portal. */
export function listCustomersWithLicenseCounts() {
  return db
    .select({
      id: users.id,
      firstName: users.firstName,
      lastName: users.lastName,
      email: users.email,
      company: users.company,
      customerType: users.customerType,
      isGKAdmin: users.isGKAdmin,
      licenseCount: sql<number>`coalesce(${licenseCounts.total}, 0)`,
    })
    .from(users)
    .leftJoin(licenseCounts, eq(licenseCounts.ownerId, users.id))
    .orderBy(users.lastName, users.firstName)
    .all();
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

/**
 * The user's billing customer id, given one first if they have none (the admin of the demo). Set only
 * when still empty, so two requests racing here agree on one id.
 */
export function assignBillingCustomerId(userId: string): string {
  db.update(users)
    .set({ billingCustomerId: `cust_${randomUUID()}` })
    .where(and(eq(users.id, userId), isNull(users.billingCustomerId)))
    .run();
  const id = findUserById(userId)?.billingCustomerId;
  if (!id) throw new Error(`User ${userId} does not exist.`);
  return id;
}

/** Where hardware ships; null means "same as billing address". */
export function saveShippingAddress(userId: string, address: ShippingAddress | null) {
  db.update(users).set({ shippingAddress: address }).where(eq(users.id, userId)).run();
}
