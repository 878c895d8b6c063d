import { queueMail } from "~/server/mail/index.server";
import { greeting } from "./names-in-mail.server";
import { issueOneTimeToken, peekOneTimeToken, redeemOneTimeToken } from "./one-time-tokens.server";
import { mailOwnerOf } from "./organizations.server";
import { findUserById, type UserRecord } from "./users.server";

/**
 * One-time sign-in links (decision 170): mailed to an account's own address, they sign its owner in without
 * the password, and so past the pause a stranger's failed guesses put on the account's untrusted browsers.
 * Single use, 15 minutes, only a hash stored (one-time-tokens.server).
 */
const PURPOSE = "sign-in";
export const SIGN_IN_LINK_MINUTES = 15;

/**
 * A new sign-in link for the user, on `origin` (the mail port's linkOrigin), to put in a mail to their own
 * address (this one's, and any other that offers a way in, such as a password reset's). `redirectTo` is where
 * the link leads once signed in.
 */
export async function issueSignInLink(
  origin: string,
  userId: string,
  redirectTo: string | null = null,
): Promise<{ url: string; expiresAt: Date }> {
  const { token, expiresAt } = await issueOneTimeToken(
    PURPOSE,
    { userId },
    {
      validMs: SIGN_IN_LINK_MINUTES * 60 * 1000,
      data: redirectTo ? { redirectTo } : {},
    },
  );
  return { url: new URL(`/login/link/${token}`, origin).href, expiresAt };
}

/**
 * The sign-in link page's mail to the account (email-link-job.server looks it up): a link on `origin` that leads
 * to `redirectTo` once signed in; `key` queues it once.
 */
export async function mailSignInLink(
  user: UserRecord,
  { origin, redirectTo, key }: { origin: string; redirectTo: string | null; key: string },
): Promise<void> {
  const link = await issueSignInLink(origin, user.id, redirectTo);
  await queueMail({
    accountId: await mailOwnerOf(user.id),
    to: user.email,
    key,
    subject: "Your sign-in link for the GateKeeper Portal",
    content: {
      paragraphs: [
        greeting(user),
        `Here is the link you asked for on the sign-in page. It signs you in to the GateKeeper Portal as ${user.email}.`,
      ],
      action: { label: "Sign in to the GateKeeper Portal", url: link.url },
      after: [
        `The link works once, within ${SIGN_IN_LINK_MINUTES} minutes.`,
        "If you did not ask for it, you can ignore this message: the link is of no use to anyone without your " +
          "mailbox. Someone may have tried wrong passwords for your account, which pauses signing in from new " +
          "browsers for a while; your password has not changed.",
      ],
    },
  });
}

/** Who a sign-in link is for, without using it (its page asks to confirm first), or null. */
export async function signInLinkAccount(token: string): Promise<{ email: string } | null> {
  const grant = await peekOneTimeToken(PURPOSE, token);
  const user = grant?.userId ? await findUserById(grant.userId) : undefined;
  return user ? { email: user.email } : null;
}

/** Uses a sign-in link: the user to sign in and where to go, once; null when it is unknown, expired or used. */
export async function redeemSignInLink(token: string): Promise<{ userId: string; redirectTo: string | null } | null> {
  const grant = await redeemOneTimeToken(PURPOSE, token);
  return grant?.userId ? { userId: grant.userId, redirectTo: grant.data.redirectTo ?? null } : null;
}
