import { createMemorySessionStorage, redirect, type AppLoadContext } from "@remix-run/node";
import { Authenticator, AuthorizationError } from "remix-auth";
import { FormStrategy } from "remix-auth-form";
import { and, eq } from "drizzle-orm";
import { memberships, users } from "~/server/platform/database/tables.server";
import { safeRedirect } from "~/domain/redirects";
import { memberActor, recordActivity } from "./activity.server";
import { issueCsrfToken, validateCsrf } from "./csrf.server";
import { readForm } from "~/server/platform/forms.server";
import { db } from "~/server/platform/database/db.server";
import { hashPassword, needsRehash, unmatchableHash, verifyPassword } from "~/server/platform/passwords.server";
import { afterBoot } from "~/server/platform/after-boot.server";
import { secretFor } from "~/server/platform/secrets.server";
import { forgetOtherDevices, knownDeviceOf, presentedDevice, rememberDevice } from "./known-devices.server";
import { revokePasswordBoundTokens } from "./one-time-tokens.server";
import {
  currentSession,
  currentSessionRead,
  endOtherSessions,
  endSession,
  startSession,
  type SessionRecord,
} from "./session.server";
import { reserveSignInAttempt } from "~/server/platform/throttle.server";
import { findUserByEmail, type UserRecord } from "./users.server";

export const INVALID_CREDENTIALS = "The email or password is incorrect.";

/**
 * Checked when the account does not exist, at today's cost, so timing does not reveal which emails are registered. Made
 * without hashing: every process of the portal made one at start, a second of CPU each on a busy machine.
 */
const DUMMY_HASH = unmatchableHash();

/**
 * remix-auth's form strategy checks the credentials. The portal keeps its sessions itself (decision 051), so
 * remix-auth never stores anything: its session storage is an unused in-memory one, and no success redirect
 * is given, so it only returns the user id.
 */
const authenticator = afterBoot(() =>
  new Authenticator<string>(
    // Signed like any cookie of the portal's, so Remix has nothing to warn about; it is never sent.
    createMemorySessionStorage({ cookie: { name: "gk_auth_unused", secrets: [secretFor("session")] } }),
  ).use(
    new FormStrategy(async ({ form }) => {
      const user = await findUserByEmail(String(form.get("email") ?? ""));
      const password = String(form.get("password") ?? "");
      const valid = await verifyPassword(password, user?.passwordHash ?? DUMMY_HASH);
      if (!user || !valid) throw new AuthorizationError(INVALID_CREDENTIALS);
      // A hash made at an older cost is re-made at today's on the way (the password is at hand only now), over the
      // hash just checked only: a new password set meanwhile (a reset, a change) is never overwritten with this one.
      if (needsRehash(user.passwordHash)) {
        await db
          .update(users)
          .set({ passwordHash: await hashPassword(password) })
          .where(and(eq(users.id, user.id), eq(users.passwordHash, user.passwordHash)));
      }
      return user.id;
    }),
    "password",
  ),
);

/** The user id when the email and password are right, or null. */
export async function checkCredentials(request: Request, email: string, password: string): Promise<string | null> {
  const credentials = new FormData();
  credentials.set("email", email);
  credentials.set("password", password);
  try {
    // remix-auth copies the Request, which a consumed body would make throw: it gets a body-less copy and the form as context.
    return await authenticator().authenticate("password", new Request(request.url, { headers: request.headers }), {
      throwOnError: true,
      context: { formData: credentials },
    });
  } catch (error) {
    if (error instanceof AuthorizationError) return null;
    throw error;
  }
}

export type SignInOutcome =
  | { signedIn: Response }
  | { refused: "credentials" }
  | { refused: "throttled"; waitSeconds: number; accountPaused: boolean };

/**
 * A sign-in form's attempt: the throttles' allowances taken first (from this browser's own when it is a known
 * device of the account), then the password checked, then the session started. A refused attempt checked
 * no password.
 */
export async function attemptSignIn(
  request: Request,
  context: AppLoadContext | undefined,
  { email, password, redirectTo }: { email: string; password: string; redirectTo: string | null },
): Promise<SignInOutcome> {
  const deviceId = await knownDeviceOf(request, (await findUserByEmail(email))?.id);
  const attempt = await reserveSignInAttempt(context, email, deviceId);
  if (attempt.waitSeconds > 0) {
    return { refused: "throttled", waitSeconds: attempt.waitSeconds, accountPaused: attempt.accountPaused };
  }
  const userId = await checkCredentials(request, email, password);
  if (!userId) return { refused: "credentials" };
  await attempt.succeeded();
  return { signedIn: await signIn(request, userId, redirectTo) };
}

/**
 * Starts a server-side session (with its own CSRF token) and sends the user where they were going. The
 * session the browser held until now, anyone's, ends: one browser holds one session. The browser becomes a
 * known device of the user.
 */
export async function signIn(request: Request, userId: string, redirectTo: string | null) {
  const newDevice = (await knownDeviceOf(request, userId)) === null;
  await endSession(request);
  await recordSignIn(userId, newDevice, request.headers.get("User-Agent") ?? "");
  const [csrfToken, csrfCookie] = await issueCsrfToken(request);
  const { setCookie } = await startSession(request, userId, csrfToken);
  const headers = new Headers();
  headers.append("Set-Cookie", setCookie);
  headers.append("Set-Cookie", csrfCookie);
  headers.append("Set-Cookie", await rememberDevice(request, userId));
  return redirect(safeRedirect(redirectTo, request.url), { headers });
}

/**
 * A sign-in's traces: the person's last sign-in (the team page shows it) and, from a browser that was not one of
 * theirs, an entry in the activity log of each of their organizations, in one transaction.
 */
async function recordSignIn(userId: string, newDevice: boolean, userAgent: string): Promise<void> {
  await db.transaction(async (tx) => {
    const [user] = await tx.update(users).set({ lastSignedInAt: new Date() }).where(eq(users.id, userId)).returning();
    if (!user || !newDevice) return;
    const browser = userAgent.trim().slice(0, 160) || "an unknown browser";
    for (const { organizationId } of await tx
      .select({ organizationId: memberships.organizationId })
      .from(memberships)
      .where(eq(memberships.userId, userId))) {
      await recordActivity(tx, {
        organizationId,
        actor: memberActor(user),
        action: "member.signed_in_new_device",
        summary: `Signed in from a new browser: ${browser}.`,
      });
    }
  });
}

/**
 * Signs the user out of every other browser (a password change, "Sign out everywhere else"): their sessions end,
 * those browsers are known devices no more, so whoever holds one meets the account's pause like a stranger, and
 * the mailed links that would sign someone in or set the password stop working; all in one transaction.
 */
export async function signOutEverywhereElse(request: Request, userId: string, keepSessionId: string) {
  const keptDevice = await presentedDevice(request);
  await db.transaction(async (tx) => {
    await endOtherSessions(userId, keepSessionId, tx);
    await forgetOtherDevices(userId, keptDevice, tx);
    await revokePasswordBoundTokens(userId, tx);
  });
}

export async function getUserId(request: Request): Promise<string | null> {
  return (await currentSession(request))?.userId ?? null;
}

/**
 * The login URL for a request that needs a signed-in user: it keeps the path and query to come
 * back to, and marks visits from the Hubs page with source=hubs.
 */
export function loginUrlFor(request: Request): string {
  const url = new URL(request.url);
  const params = new URLSearchParams({ redirectTo: `${url.pathname}${url.search}` });
  if (url.pathname === "/hubs" || url.pathname.startsWith("/hubs/")) params.set("source", "hubs");
  return `/login?${params}`;
}

/**
 * The signed-in user and their session, read once per request with the session (currentSessionRead): the
 * shell's loader and the page's loader run with the same Request (Remix copied it per loader until decision
 * 134's patch), so they share one read. A loader after an action gets a new Request, so it sees what the action
 * changed.
 */
export async function signedIn(request: Request): Promise<{ user: UserRecord; session: SessionRecord } | null> {
  const read = await currentSessionRead(request);
  return read && { user: read.user, session: read.session };
}

/** The signed-in user and their session, or a redirect to sign in. */
export async function requireSession(request: Request): Promise<{ user: UserRecord; session: SessionRecord }> {
  const found = await signedIn(request);
  if (!found) throw redirect(loginUrlFor(request));
  return found;
}

export async function requireUser(request: Request): Promise<UserRecord> {
  return (await requireSession(request)).user;
}

/** The start of every form action: a signed-in user, the posted form, and this session's CSRF token. */
export async function readUserForm(request: Request) {
  const { user, session } = await requireSession(request);
  const formData = await readForm(request);
  await validateCsrf(formData, request, session);
  return { user, session, formData, intent: String(formData.get("intent") ?? "") };
}
