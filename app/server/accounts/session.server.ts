import { createHash, randomBytes } from "node:crypto";
import { createCookieSessionStorage, redirect, type Session } from "@remix-run/node";
import { and, asc, desc, eq, lt, lte, ne, or, sql } from "drizzle-orm";
import { affectedRows } from "~/server/platform/database/dialect.server";
import type { Role } from "~/domain/access-policy";
import { memberships, organizations, sessions, users } from "~/server/platform/database/tables.server";
import { db, type PortalExecutor } from "~/server/platform/database/db.server";
import { isHttps, portalCookie } from "~/server/platform/cookies.server";
import { oncePerRequest } from "~/server/platform/once-per-request.server";
import { afterBoot } from "~/server/platform/after-boot.server";
import { secretFor } from "~/server/platform/secrets.server";

/**
 * Server-side sessions (decision 051): the cookie holds a random token, the sessions table holds
 * who it belongs to, so signing out, or changing the password, really ends a session. A session ends after
 * IDLE_MS without a request, and at the latest ABSOLUTE_MS after sign-in.
 */
export const IDLE_MS = 12 * 60 * 60 * 1000;
export const ABSOLUTE_MS = 7 * 24 * 60 * 60 * 1000;
/** lastSeenAt is written at most this often, so reading a page is not a write every time. */
const TOUCH_EVERY_MS = 60 * 1000;

const cookieOptions = { httpOnly: true, sameSite: "lax", path: "/" } as const;

const sessionCookie = afterBoot(() =>
  portalCookie("gk_session", { ...cookieOptions, maxAge: ABSOLUTE_MS / 1000, secrets: [secretFor("session")] }),
);

const digest = (token: string) => createHash("sha256").update(token).digest("hex");

export type SessionRecord = typeof sessions.$inferSelect;

/**
 * A live session with what every signed-in page asks next, read with it in one statement: its person, and the
 * organization the session works in with their role there (null when none is chosen or they are no longer a
 * member of it). Read one after another, the three were three round trips before anything else of the page.
 */
export interface SessionRead {
  session: SessionRecord;
  user: typeof users.$inferSelect;
  membership: { organization: typeof organizations.$inferSelect; role: Role } | null;
}

/** Starts a session for the user; returns its Set-Cookie header and the session (for its CSRF token). */
export async function startSession(request: Request, userId: string, csrfToken: string) {
  const token = randomBytes(32).toString("base64url");
  const now = Date.now();
  const [session] = await db
    .insert(sessions)
    .values({
      id: digest(token),
      userId,
      createdAt: new Date(now),
      lastSeenAt: new Date(now),
      expiresAt: new Date(now + ABSOLUTE_MS),
      userAgent: (request.headers.get("User-Agent") ?? "").slice(0, 300),
      csrfToken,
    })
    .returning();
  return { session, setCookie: await sessionCookie().serialize(request, token) };
}

/** The live session the request's cookie names, or null (no cookie, unknown, ended or expired). */
export async function currentSession(request: Request): Promise<SessionRecord | null> {
  return (await currentSessionRead(request))?.session ?? null;
}

/**
 * The live session the request's cookie names with its person and organization (SessionRead), or null. Read once
 * per request: the root's CSRF token and the shell's user both ask for it, and the signed cookie's check and the
 * query were a tenth of a page's server time when profiled.
 */
export const currentSessionRead = oncePerRequest(readSession);

const sessionById = db
  .select({ session: sessions, user: users, organization: organizations, role: memberships.role })
  .from(sessions)
  .innerJoin(users, eq(users.id, sessions.userId))
  .leftJoin(
    memberships,
    and(eq(memberships.userId, sessions.userId), eq(memberships.organizationId, sessions.organizationId)),
  )
  .leftJoin(organizations, eq(organizations.id, memberships.organizationId))
  .where(eq(sessions.id, sql.placeholder("id")))
  .prepare("session_by_id");

async function readSession(request: Request): Promise<SessionRead | null> {
  const token: unknown = await sessionCookie().parse(request);
  if (typeof token !== "string") return null;
  const [row] = await sessionById.execute({ id: digest(token) });
  if (!row) return null;
  const { session, user, organization, role } = row;
  const now = new Date();
  const idleSince = new Date(now.getTime() - IDLE_MS);
  if (session.expiresAt <= now || session.lastSeenAt <= idleSince) {
    // Conditional like the touch below, so a request that read the session just before another touched it
    // deletes nothing the other kept alive.
    await db
      .delete(sessions)
      .where(and(eq(sessions.id, session.id), or(lte(sessions.expiresAt, now), lte(sessions.lastSeenAt, idleSince))));
    return null;
  }
  if (now.getTime() - session.lastSeenAt.getTime() > TOUCH_EVERY_MS) {
    // One statement, checked as it writes: of the requests that read the same stale time, the first moves it and
    // the others change nothing, and a sign-out's delete in between leaves nothing to touch.
    await db
      .update(sessions)
      .set({ lastSeenAt: now })
      .where(and(eq(sessions.id, session.id), lt(sessions.lastSeenAt, new Date(now.getTime() - TOUCH_EVERY_MS))));
  }
  return { session, user, membership: organization && role ? { organization, role } : null };
}

/** Ends the request's session (sign-out); returns the Set-Cookie header that clears the cookie. */
export async function endSession(request: Request): Promise<string> {
  const session = await currentSession(request);
  if (session) await db.delete(sessions).where(eq(sessions.id, session.id));
  return sessionCookie().serialize(request, "", { maxAge: undefined, expires: new Date(0) });
}

/**
 * Ends every session of the user but the one given (a password change, "Sign out everywhere else"), in `store`'s
 * transaction when there is one.
 */
export async function endOtherSessions(
  userId: string,
  keepSessionId: string,
  store: PortalExecutor = db,
): Promise<number> {
  return affectedRows(
    await store.delete(sessions).where(and(eq(sessions.userId, userId), ne(sessions.id, keepSessionId))),
  );
}

/** Keeps the organization the person works in, in this browser, with the session (the header's switcher). */
export async function chooseOrganization(sessionId: string, organizationId: string): Promise<void> {
  await db.update(sessions).set({ organizationId }).where(eq(sessions.id, sessionId));
}

/** Where the user is signed in, most recently seen first; expired rows are dropped on the way. */
export async function listSessions(userId: string): Promise<SessionRecord[]> {
  const now = new Date();
  await db
    .delete(sessions)
    .where(
      and(
        eq(sessions.userId, userId),
        or(lt(sessions.expiresAt, now), lt(sessions.lastSeenAt, new Date(now.getTime() - IDLE_MS))),
      ),
    );
  return db
    .select()
    .from(sessions)
    .where(eq(sessions.userId, userId))
    .orderBy(desc(sessions.lastSeenAt), asc(sessions.id));
}

// --- Toasts ----------------------------------------------------------------------------------------------

export interface Toast {
  kind: "success" | "error" | "info";
  message: string;
}

const TOAST_KEY = "toast";

/** A one-shot message cookie, apart from the session: it carries nothing that grants access. */
export const toastStorage = afterBoot(() =>
  createCookieSessionStorage({ cookie: { name: "gk_toast", ...cookieOptions, secrets: [secretFor("session")] } }),
);

function commitToast(session: Session, request: Request): Promise<string> {
  return toastStorage().commitSession(session, { secure: isHttps(request) });
}

/** A message that rides on a redirect and shows once on the next page, with or without JavaScript. */
export async function redirectWithToast(request: Request, to: string, toast: Toast, init?: ResponseInit) {
  const session = await toastStorage().getSession(request.headers.get("Cookie"));
  session.flash(TOAST_KEY, toast);
  const headers = new Headers(init?.headers);
  headers.append("Set-Cookie", await commitToast(session, request));
  return redirect(to, { ...init, headers });
}

/** Reads (and so clears) the pending toast, with the Set-Cookie header that clears it (null when there was none). */
export async function takeToast(request: Request): Promise<{ toast: Toast | null; setCookie: string | null }> {
  const session = await toastStorage().getSession(request.headers.get("Cookie"));
  const toast = (session.get(TOAST_KEY) as Toast | undefined) ?? null;
  return { toast, setCookie: toast ? await commitToast(session, request) : null };
}
