import { createHash, randomBytes } from "node:crypto";
import { and, eq, gt, lte } from "drizzle-orm";
import { oneTimeTokens } from "~db/schema";
import { db } from "./db.server";

/**
 * Single-use tokens for links mailed to an account (a sign-in link; email verification and password reset use
 * the same): 256 random bits in the link, only their SHA-256 in the database, a short validity, and using one
 * deletes it, atomically, so two clicks cannot both redeem it.
 */
const digest = (token: string) => createHash("sha256").update(token).digest("hex");

export interface OneTimeTokenGrant {
  userId: string;
  data: Record<string, string>;
  expiresAt: Date;
}

/** A new token of this purpose for the user, valid for `validMs`; only its digest is kept. */
export function issueOneTimeToken(
  purpose: string,
  userId: string,
  { validMs, data = {} }: { validMs: number; data?: Record<string, string> },
): { token: string; expiresAt: Date } {
  const token = randomBytes(32).toString("base64url");
  const now = Date.now();
  const expiresAt = new Date(now + validMs);
  db.insert(oneTimeTokens)
    .values({ id: digest(token), purpose, userId, data, createdAt: new Date(now), expiresAt })
    .run();
  // Tokens nobody used are worth nothing once expired: the user's are cleared whenever a new one is made.
  db.delete(oneTimeTokens)
    .where(and(eq(oneTimeTokens.userId, userId), lte(oneTimeTokens.expiresAt, new Date(now))))
    .run();
  return { token, expiresAt };
}

const live = (purpose: string, token: string) =>
  and(eq(oneTimeTokens.id, digest(token)), eq(oneTimeTokens.purpose, purpose), gt(oneTimeTokens.expiresAt, new Date()));

/** What a valid, unused token of this purpose grants, without using it (a page that asks to confirm first). */
export function peekOneTimeToken(purpose: string, token: string): OneTimeTokenGrant | null {
  const row = db.select().from(oneTimeTokens).where(live(purpose, token)).get();
  return row ? { userId: row.userId, data: row.data, expiresAt: row.expiresAt } : null;
}

/** Uses the token: what it grants, once; null when it is unknown, of another purpose, expired or used. */
export function redeemOneTimeToken(purpose: string, token: string): OneTimeTokenGrant | null {
  const row = db.delete(oneTimeTokens).where(live(purpose, token)).returning().get();
  return row ? { userId: row.userId, data: row.data, expiresAt: row.expiresAt } : null;
}
