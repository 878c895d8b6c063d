import { and, eq, isNull } from "drizzle-orm";
import { users } from "~/server/platform/database/tables.server";
import { db } from "~/server/platform/database/db.server";
import { linkOrigin, queueMail } from "~/server/mail/index.server";
import { issueOneTimeToken, peekOneTimeToken, redeemOneTimeToken } from "./one-time-tokens.server";
import { mailOwnerOf } from "./organizations.server";
import { takeVerificationResend } from "~/server/platform/throttle.server";
import type { UserRecord } from "./users.server";

/**
 * Email verification: the link mailed at sign-up proves the person reads the address. Until then they can sign
 * in and look around, but not buy, start a trial or invite (app/domain/access-policy.ts). The link is a one-time token:
 * 24 hours, single use, only its hash stored, and bound to the address it was sent to.
 */
const PURPOSE = "verify-email";
export const VERIFICATION_HOURS = 24;

/**
 * Mails the person a new verification link (sign-up, and 'Send the link again'). Whoever typed the address may not
 * be the person who reads it, so the mail names nobody: it greets the reader and says the address.
 */
export async function sendVerificationLink(request: Request, user: Pick<UserRecord, "id" | "email">) {
  const { token } = await issueOneTimeToken(
    PURPOSE,
    { userId: user.id },
    { validMs: VERIFICATION_HOURS * 60 * 60 * 1000, data: { email: user.email } },
  );
  await queueMail({
    accountId: await mailOwnerOf(user.id),
    to: user.email,
    subject: "Verify your email address for the GateKeeper Portal",
    content: {
      paragraphs: [
        "Hello,",
        `Please confirm that ${user.email} is your address. Until you do, you can look around the GateKeeper Portal, but not buy, start a trial or invite people.`,
      ],
      action: { label: "Verify my email address", url: new URL(`/verify-email/${token}`, linkOrigin(request)).href },
      after: [
        `The link works once, within ${VERIFICATION_HOURS} hours. You can ask for a new one on any page of the portal.`,
        "If you did not create an account, you can ignore this message.",
      ],
    },
  });
}

/**
 * 'Send the link again': throttled per person (0, or the seconds to wait). An address already verified gets
 * nothing.
 */
export async function resendVerificationLink(request: Request, user: UserRecord): Promise<number> {
  if (user.emailVerifiedAt) return 0;
  const waitSeconds = await takeVerificationResend(user.id);
  if (waitSeconds > 0) return waitSeconds;
  await sendVerificationLink(request, user);
  return 0;
}

/** The address a verification link is for, without using it (its page asks to confirm first), or null. */
export async function verificationLinkAddress(token: string): Promise<string | null> {
  return (await peekOneTimeToken(PURPOSE, token))?.data.email ?? null;
}

/**
 * Uses a verification link: the person's address is verified, once, if it is still the one the link was sent to.
 * The person's id, or null when the link is unknown, expired or used.
 */
export async function verifyEmail(token: string): Promise<string | null> {
  return db.transaction(async (tx) => {
    const grant = await redeemOneTimeToken(PURPOSE, token, tx);
    if (!grant?.userId) return null;
    await tx
      .update(users)
      .set({ emailVerifiedAt: new Date() })
      .where(and(eq(users.id, grant.userId), eq(users.email, grant.data.email ?? ""), isNull(users.emailVerifiedAt)));
    return grant.userId;
  });
}
