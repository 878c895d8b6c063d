import { json, redirect } from "@remix-run/node";
import { Authenticator, AuthorizationError } from "remix-auth";
import { FormStrategy } from "remix-auth-form";
import { safeRedirect } from "remix-utils/safe-redirect";
import { loginSchema } from "~/domain/login";
import { verifyPassword } from "./passwords.server";
import { commitSession, getSession, SESSION_USER_KEY, sessionStorage } from "./session.server";
import { findUserByEmail, findUserById, type UserRecord } from "./users.server";

export const INVALID_CREDENTIALS = "The email or password is incorrect.";

/**
 * remix-auth's form strategy checks the credentials; the session is committed by us (not by
 * remix-auth's successRedirect) so that the cookie's Secure flag can follow the request's scheme.
 */
const authenticator = new Authenticator<string>(sessionStorage, { sessionKey: SESSION_USER_KEY });

authenticator.use(
  new FormStrategy(async ({ form }) => {
    const parsed = loginSchema.safeParse(Object.fromEntries(form));
    if (!parsed.success) throw new AuthorizationError(INVALID_CREDENTIALS);
    const user = findUserByEmail(parsed.data.email);
    // Verify against a dummy hash when the account does not exist, so timing does not reveal which emails are registered.
    const valid = await verifyPassword(parsed.data.password, user?.passwordHash ?? DUMMY_HASH);
    if (!user || !valid) throw new AuthorizationError(INVALID_CREDENTIALS);
    return user.id;
  }),
  "password",
);

const DUMMY_HASH =
  "scrypt$16384$8$1$AAAAAAAAAAAAAAAAAAAAAA$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA";

/**
 * The user id when the credentials in the form are right, or null. The action has already read the
 * body (for the CSRF check), so the strategy gets the parsed form and a body-less copy of the request:
 * remix-auth re-creates the Request, which a consumed body would make throw.
 */
export async function checkCredentials(request: Request, formData: FormData): Promise<string | null> {
  try {
    return await authenticator.authenticate("password", new Request(request.url, { headers: request.headers }), {
      throwOnError: true,
      context: { formData },
    });
  } catch (error) {
    if (error instanceof AuthorizationError) return null;
    throw error;
  }
}

/** Starts a session for the user and sends them where they were going. */
export async function signIn(request: Request, userId: string, redirectTo: string | null) {
  const session = await getSession(request);
  session.set(SESSION_USER_KEY, userId);
  return redirect(safeRedirect(redirectTo, "/home"), {
    headers: { "Set-Cookie": await commitSession(session, request) },
  });
}

export async function getUserId(request: Request): Promise<string | null> {
  const session = await getSession(request);
  const userId = session.get(SESSION_USER_KEY);
  return typeof userId === "string" ? userId : null;
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
 * The signed-in user, looked up once per request: the shell's loader and the page's loader run with the
 * same Request, so they share one session read and one query. A loader after an action gets a new
 * Request, so it sees what the action changed.
 */
const usersByRequest = new WeakMap<Request, Promise<UserRecord | undefined>>();

function signedInUser(request: Request): Promise<UserRecord | undefined> {
  let user = usersByRequest.get(request);
  if (!user) {
    user = getUserId(request).then((userId) => (userId ? findUserById(userId) : undefined));
    usersByRequest.set(request, user);
  }
  return user;
}

export async function requireUser(request: Request): Promise<UserRecord> {
  const user = await signedInUser(request);
  if (!user) throw redirect(loginUrlFor(request));
  return user;
}

export async function requireAdmin(request: Request): Promise<UserRecord> {
  const user = await requireUser(request);
  if (!user.isGKAdmin) {
    throw json({ message: "This page is only for GateKeeper administrators." }, { status: 403 });
  }
  return user;
}
