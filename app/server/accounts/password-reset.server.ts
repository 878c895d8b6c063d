import { eq } from "drizzle-orm";
import { knownDevices, sessions, users } from "~/server/platform/database/tables.server";
import { db } from "~/server/platform/database/db.server";
import { linkOrigin, queueMail } from "~/server/mail/index.server";
import {
  issueOneTimeToken,
  peekOneTimeToken,
  redeemOneTimeToken,
  revokePasswordBoundTokens,
} from "./one-time-tokens.server";
import { mailOwnerOf } from "./organizations.server";
import { hashPassword } from "~/server/platform/passwords.server";
import { greeting } from "./names-in-mail.server";
import { issueSignInLink, SIGN_IN_LINK_MINUTES } from "./sign-in-links.server";
import { isSignInPaused } from "~/server/platform/throttle.server";
import { findUserById, type UserRecord } from "./users.server";

/**
 * Password reset: /forgot-password mails a link valid one hour (single use, only its hash stored); the page says
 * the same whether or not the address has an account, and is throttled per address and per client. Setting the
 * new password signs every browser of the account out and forgets them as known devices, and a notice is mailed.
 */
const PURPOSE = "reset-password";
export const RESET_LINK_MINUTES = 60;

/**
 * The forgot-password page's mail to the account (email-link-job.server looks it up): a link on `origin` to set a
 * new password; `key` queues it once.
 */
export async function mailPasswordReset(user: UserRecord, { origin, key }: { origin: string; key: string }) {
  const { token } = await issueOneTimeToken(PURPOSE, { userId: user.id }, { validMs: RESET_LINK_MINUTES * 60 * 1000 });
  // A stranger's failed guesses may have paused signing in from new browsers: the new password alone would not
  // get the owner in then, so the mail also carries the one-time link that passes the pause (decision 170).
  const paused = await isSignInPaused(user.email);
  const signInLink = paused ? await issueSignInLink(origin, user.id, "/home") : null;
  await queueMail({
    accountId: await mailOwnerOf(user.id),
    to: user.email,
    key,
    subject: "Set a new password for the GateKeeper Portal",
    content: {
      paragraphs: [
        greeting(user),
        `Someone, probably you, asked to set a new password for ${user.email} on the GateKeeper Portal.`,
      ],
      action: { label: "Set a new password", url: new URL(`/reset-password/${token}`, origin).href },
      ...(signInLink ? { otherAction: { label: "Sign in once without waiting", url: signInLink.url } } : {}),
      after: [
        `The link works once, within ${RESET_LINK_MINUTES} minutes. Setting a new password signs you out everywhere.`,
        ...(signInLink
          ? [
              "Signing in from new browsers is paused for a while after too many wrong passwords were tried for your " +
                `account. The second link signs you in anyway, once, within ${SIGN_IN_LINK_MINUTES} minutes.`,
            ]
          : []),
        "If you did not ask for it, you can ignore this message: your password has not changed.",
      ],
    },
  });
}

/** The address a reset link is for, without using it (the page shows the form first), or null. */
export async function resetLinkAddress(token: string): Promise<string | null> {
  const grant = await peekOneTimeToken(PURPOSE, token);
  return grant?.userId ? ((await findUserById(grant.userId))?.email ?? null) : null;
}

/**
 * Sets the new password with the link, once: every session of the person ends and every browser of theirs is
 * forgotten as a known device, in the same transaction; the link and every other link that dies with the password
 * (another reset link, a sign-in link) stop working. Null when the link is unknown, expired or used.
 */
export async function resetPassword(request: Request, token: string, password: string): Promise<string | null> {
  const passwordHash = await hashPassword(password);
  const userId = await db.transaction(async (tx) => {
    const grant = await redeemOneTimeToken(PURPOSE, token, tx);
    if (!grant?.userId) return null;
    await tx.update(users).set({ passwordHash }).where(eq(users.id, grant.userId));
    await revokePasswordBoundTokens(grant.userId, tx);
    await tx.delete(sessions).where(eq(sessions.userId, grant.userId));
    await tx.delete(knownDevices).where(eq(knownDevices.userId, grant.userId));
    return grant.userId;
  });
  const user = userId ? await findUserById(userId) : undefined;
  if (!user) return null;
  await queueMail({
    accountId: await mailOwnerOf(user.id),
    to: user.email,
    subject: "Your GateKeeper Portal password was changed",
    content: {
      paragraphs: [
        greeting(user),
        `The password of ${user.email} on the GateKeeper Portal was just changed with a reset link, and every browser that was signed in was signed out.`,
      ],
      action: { label: "Sign in to the GateKeeper Portal", url: new URL("/login", linkOrigin(request)).href },
      after: [
        "If you did not do this, set a new password at once from the sign-in page ('Forgot your password?'), and tell your organization's Owner.",
      ],
    },
  });
  return user.id;
}
