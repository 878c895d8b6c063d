import { createCookieSessionStorage, redirect, type Session } from "@remix-run/node";
import { secretFor } from "./secrets.server";

export const SESSION_USER_KEY = "userId";
const TOAST_KEY = "toast";

export const sessionStorage = createCookieSessionStorage({
  cookie: {
    name: "__gk_session",
    httpOnly: true,
    sameSite: "lax",
    path: "/",
    maxAge: 60 * 60 * 24 * 14,
    secrets: [secretFor("session")],
  },
});

/**
 * True when the browser reached the portal over HTTPS, directly or through a proxy that says so.
 * Cookies get `Secure` then; on plain-HTTP localhost (the demo, the tests) they must not, or the
 * browser would drop them.
 */
export function isHttps(request: Request): boolean {
  return (
    new URL(request.url).protocol === "https:" ||
    request.headers.get("x-forwarded-proto")?.split(",")[0]?.trim() === "https"
  );
}

export function getSession(request: Request): Promise<Session> {
  return sessionStorage.getSession(request.headers.get("Cookie"));
}

export function commitSession(session: Session, request: Request): Promise<string> {
  return sessionStorage.commitSession(session, { secure: isHttps(request) });
}

export function destroySession(session: Session, request: Request): Promise<string> {
  return sessionStorage.destroySession(session, { secure: isHttps(request) });
}

export interface Toast {
  kind: "success" | "error" | "info";
  message: string;
}

/** A message that rides on a redirect and shows once on the next page, with or without JavaScript. */
export async function redirectWithToast(request: Request, to: string, toast: Toast, init?: ResponseInit) {
  const session = await getSession(request);
  session.flash(TOAST_KEY, toast);
  const headers = new Headers(init?.headers);
  headers.append("Set-Cookie", await commitSession(session, request));
  return redirect(to, { ...init, headers });
}

/** Reads (and so clears) the pending toast; the caller must commit the session it returns. */
export async function takeToast(request: Request): Promise<{ toast: Toast | null; session: Session }> {
  const session = await getSession(request);
  const toast = (session.get(TOAST_KEY) as Toast | undefined) ?? null;
  return { toast, session };
}
