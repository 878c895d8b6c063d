import { createMemorySessionStorage, json, redirect } from "@remix-run/node";
import { Authenticator, AuthorizationError } from "remix-auth";
import { FormStrategy } from "remix-auth-form";
import { eq } from "drizzle-orm";
import { users } from "~db/schema";
import { safeRedirect } from "~/domain/redirects";
import { issueCsrfToken } from "./csrf.server";
import { db } from "./db.server";
import { hashPassword, needsRehash, verifyPassword } from "./passwords.server";
import { secretFor } from "./secrets.server";
import { portalCookie } from "./cookies.server";
import { currentSession, startSession, type SessionRecord } from "./session.server";
import { findUserByEmail, findUserById, type UserRecord } from "./users.server";

export const INVALID_CREDENTIALS = "The email or password is incorrect.";

/** A hash at today's cost, checked when the account does not exist, so timing does not reveal which emails are registered. */
const DUMMY_HASH = hashPassword("not a password");

/**
 * remix-auth's form strategy checks the credentials. The portal keeps its sessions itself (decision 051), so
 * remix-auth never stores anything: its session storage is an unused in-memory one, and no success redirect
 * is given, so it only returns the user id.
 */
const authenticator = new Authenticator<string>(
  // Signed like any cookie of the portal's, so Remix has nothing to warn about; it is never sent.
  createMemorySessionStorage({ cookie: { name: "gk_auth_unused", secrets: [secretFor("session")] } }),
);

authenticator.use(
  new FormStrategy(async ({ form }) => {
    const user = findUserByEmail(String(form.get("email") ?? ""));
    const password = String(form.get("password") ?? "");
    const valid = await verifyPassword(password, user?.passwordHash ?? (await DUMMY_HASH));
    if (!user || !valid) throw new AuthorizationError(INVALID_CREDENTIALS);
    // A hash made at an older cost is re-made at today's on the way (the password is at hand only now).
    if (needsRehash(user.passwordHash)) {
      db.update(users)
        .set({ passwordHash: await hashPassword(password) })
        .where(eq(users.id, user.id))
        .run();
    }
    return user.id;
  }),
  "password",
);

/** The user id when the email and password are right, or null. */
export async function checkCredentials(request: Request, email: string, password: string): Promise<string | null> {
  const credentials = new FormData();
  credentials.set("email", email);
  credentials.set("password", password);
  try {
    // remix-auth copies the Request, which a consumed body would make throw: it gets a body-less copy and the form as context.
    return await authenticator.authenticate("password", new Request(request.url, { headers: request.headers }), {
      throwOnError: true,
      context: { formData: credentials },
    });
  } catch (error) {
    if (error instanceof AuthorizationError) return null;
    throw error;
  }
}

/**
 * A browser that has signed in to an account before carries this signed cookie naming it, so the account's
 * growing sign-in delay (throttle.server) slows strangers, not the owner.
 */
const knownDeviceCookie = portalCookie("gk_device", {
  httpOnly: true,
  sameSite: "lax",
  path: "/",
  maxAge: 60 * 60 * 24 * 365,
  secrets: [secretFor("session")],
});

export async function isKnownDevice(request: Request, email: string): Promise<boolean> {
  const known = await knownDeviceCookie.parse(request);
  return typeof known === "string" && known === email.trim().toLowerCase();
}

/** Starts a server-side session (with its own CSRF token) and sends the user where they were going. */
export async function signIn(request: Request, userId: string, email: string, redirectTo: string | null) {
  const [csrfToken, csrfCookie] = await issueCsrfToken(request);
  const { setCookie } = await startSession(request, userId, csrfToken);
  const headers = new Headers();
  headers.append("Set-Cookie", setCookie);
  headers.append("Set-Cookie", csrfCookie);
  headers.append("Set-Cookie", await knownDeviceCookie.serialize(request, email.trim().toLowerCase()));
  return redirect(safeRedirect(redirectTo, request.url), { headers });
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
 * The signed-in user and their session, looked up once per request: the shell's loader and the page's
 * loader run with the same Request (Remix copied it per loader until decision 134's patch), so they share
 * one session read and one query. A loader after an action gets a new Request, so it sees what the action
 * changed.
 */
const signedInByRequest = new WeakMap<Request, Promise<{ user: UserRecord; session: SessionRecord } | null>>();

function signedIn(request: Request) {
  let found = signedInByRequest.get(request);
  if (!found) {
    found = currentSession(request).then((session) => {
      const user = session ? findUserById(session.userId) : undefined;
      return session && user ? { user, session } : null;
    });
    signedInByRequest.set(request, found);
  }
  return found;
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

export async function requireAdmin(request: Request): Promise<UserRecord> {
  const user = await requireUser(request);
  if (!user.isGKAdmin) {
    throw json({ message: "This page is only for GateKeeper administrators." }, { status: 403 });
  }
  return user;
}
