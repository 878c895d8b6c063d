import { createHash, randomBytes } from "node:crypto";
import { and, eq, gt, inArray, lte } from "drizzle-orm";
import { oneTimeTokens } from "~/server/platform/database/tables.server";
import { db, type PortalExecutor } from "~/server/platform/database/db.server";

/**
 * Tokens for links mailed to an address (a sign-in link, email verification, password reset, an invitation, a
 * quote): 256 random bits in the link, only their SHA-256 in the database, a limited validity. A single-use link is
 * redeemed, which deletes it, atomically, so two clicks cannot both redeem it; a quote's link is only ever peeked
 * (its reader opens it as often as they like) and dies with its validity or the quote's withdrawal.
 */
const digest = (token: string) => createHash("sha256").update(token).digest("hex");

/**
 * Every purpose a token has, each with whether its links die with the password. A link that signs its holder in
 * or sets the password is a way into the account: whoever read the mailbox for a moment (the reason a person
 * changes their password) would keep it, so a password change, a reset and "Sign out everywhere else" revoke
 * every outstanding one, in their transaction. A verification link only proves an address that is the account's
 * already, and an invitation's belongs to the invitation, not to an account: they live on. A new purpose is added
 * here, with its answer; tests/routes/links-die-with-the-password.test.ts lists them all.
 */
export const TOKEN_PURPOSES = {
  "sign-in": { diesWithPassword: true },
  "reset-password": { diesWithPassword: true },
  "verify-email": { diesWithPassword: false },
  invitation: { diesWithPassword: false },
  quote: { diesWithPassword: false },
} as const satisfies Record<string, { diesWithPassword: boolean }>;

export type TokenPurpose = keyof typeof TOKEN_PURPOSES;

const DIE_WITH_PASSWORD = (Object.keys(TOKEN_PURPOSES) as TokenPurpose[]).filter(
  (purpose) => TOKEN_PURPOSES[purpose].diesWithPassword,
);

/** Who a token is for: a person, an invitation (whose invitee may have no account yet), or a quote's reader. */
export type TokenSubject = { userId: string } | { invitationId: string } | { quoteId: string };

export interface OneTimeTokenGrant {
  userId: string | null;
  invitationId: string | null;
  quoteId: string | null;
  data: Record<string, string>;
  expiresAt: Date;
}

function subjectIs(subject: TokenSubject) {
  if ("userId" in subject) return eq(oneTimeTokens.userId, subject.userId);
  if ("invitationId" in subject) return eq(oneTimeTokens.invitationId, subject.invitationId);
  return eq(oneTimeTokens.quoteId, subject.quoteId);
}

/**
 * A new token of this purpose for the subject, valid for `validMs` (or until `expiresAt`); only its digest is kept.
 * `store` is the transaction that makes what the token is for (an invitation), when there is one.
 */
export async function issueOneTimeToken(
  purpose: TokenPurpose,
  subject: TokenSubject,
  validity: ({ validMs: number } | { expiresAt: Date }) & { data?: Record<string, string> },
  store: PortalExecutor = db,
): Promise<{ token: string; expiresAt: Date }> {
  const token = randomBytes(32).toString("base64url");
  const now = Date.now();
  const expiresAt = "expiresAt" in validity ? validity.expiresAt : new Date(now + validity.validMs);
  const data = validity.data ?? {};
  await store.insert(oneTimeTokens).values({
    id: digest(token),
    purpose,
    userId: "userId" in subject ? subject.userId : null,
    invitationId: "invitationId" in subject ? subject.invitationId : null,
    quoteId: "quoteId" in subject ? subject.quoteId : null,
    data,
    createdAt: new Date(now),
    expiresAt,
  });
  // Tokens nobody used are worth nothing once expired: the subject's are cleared whenever a new one is made.
  await store.delete(oneTimeTokens).where(and(subjectIs(subject), lte(oneTimeTokens.expiresAt, new Date(now))));
  return { token, expiresAt };
}

/** Deletes every token of this purpose for the subject: the links already sent stop working (a re-sent invitation). */
export async function revokeOneTimeTokens(
  purpose: TokenPurpose,
  subject: TokenSubject,
  store: PortalExecutor = db,
): Promise<void> {
  await store.delete(oneTimeTokens).where(and(subjectIs(subject), eq(oneTimeTokens.purpose, purpose)));
}

/** Deletes every token of the person's that dies with the password (TOKEN_PURPOSES), in `store`'s transaction. */
export async function revokePasswordBoundTokens(userId: string, store: PortalExecutor): Promise<void> {
  await store
    .delete(oneTimeTokens)
    .where(and(eq(oneTimeTokens.userId, userId), inArray(oneTimeTokens.purpose, DIE_WITH_PASSWORD)));
}

const live = (purpose: TokenPurpose, token: string) =>
  and(eq(oneTimeTokens.id, digest(token)), eq(oneTimeTokens.purpose, purpose), gt(oneTimeTokens.expiresAt, new Date()));

const grantOf = (row: typeof oneTimeTokens.$inferSelect): OneTimeTokenGrant => ({
  userId: row.userId,
  invitationId: row.invitationId,
  quoteId: row.quoteId,
  data: row.data,
  expiresAt: row.expiresAt,
});

/**
 * What a valid, unused token of this purpose grants, without using it (a page that asks to confirm first).
 * `store` is the transaction that reads it, when there is one.
 */
export async function peekOneTimeToken(
  purpose: TokenPurpose,
  token: string,
  store: PortalExecutor = db,
): Promise<OneTimeTokenGrant | null> {
  const [row] = await store.select().from(oneTimeTokens).where(live(purpose, token));
  return row ? grantOf(row) : null;
}

/**
 * Uses the token: what it grants, once; null when it is unknown, of another purpose, expired or used. `store` is
 * the transaction of what using it does (a new password, a membership), so both happen or neither.
 */
export async function redeemOneTimeToken(
  purpose: TokenPurpose,
  token: string,
  store: PortalExecutor = db,
): Promise<OneTimeTokenGrant | null> {
  // One delete that returns what it deleted: of two requests redeeming the token at once, one gets the row.
  const [row] = await store.delete(oneTimeTokens).where(live(purpose, token)).returning();
  return row ? grantOf(row) : null;
}
