import { json } from "@remix-run/node";
import { CSRF, CSRFError } from "remix-utils/csrf/server";
import { afterBoot } from "~/server/platform/after-boot.server";
import { secretFor } from "~/server/platform/secrets.server";
import { portalCookie } from "~/server/platform/cookies.server";
import { currentSession, type SessionRecord } from "./session.server";

/**
 * Double-submit CSRF protection (remix-utils): a signed token cookie, and every mutating form carries the same
 * token in a hidden field, which a cross-site form cannot read. Once signed in, the token is the session's
 * own (issued at sign-in, kept in the sessions row): a token planted before sign-in, or taken from another
 * session, is refused. Over HTTPS the cookie is `__Host-` prefixed.
 */
const csrfCookie = afterBoot(() =>
  portalCookie("gk_csrf", { path: "/", httpOnly: true, sameSite: "lax", secrets: [secretFor("csrf")] }),
);

function csrfFor(request: Request) {
  return new CSRF({ cookie: csrfCookie().cookie(request), formDataKey: "csrf", secret: secretFor("csrf") });
}

/** A fresh token for a new session, and the Set-Cookie header that hands it to the browser. */
export async function issueCsrfToken(request: Request): Promise<[string, string]> {
  const token = csrfFor(request).generate();
  return [token, await csrfCookie().serialize(request, token)];
}

/**
 * The token for this visitor's forms and, when the browser does not hold it yet, the Set-Cookie header to
 * send with it: the session's token when signed in, else remix-utils' anonymous one.
 */
export async function commitCsrfToken(request: Request): Promise<readonly [string, string | null]> {
  const session = await currentSession(request);
  if (!session) return csrfFor(request).commitToken(request);
  const held = await csrfCookie().parse(request);
  return [
    session.csrfToken,
    held === session.csrfToken ? null : await csrfCookie().serialize(request, session.csrfToken),
  ];
}

const expired = () =>
  json(
    { message: "This form has expired or did not come from the portal. Reload the page and try again." },
    { status: 403 },
  );

/** Rejects a form that lacks this visitor's token (or, signed in, this session's token) with a 403 page. */
export async function validateCsrf(
  formData: FormData,
  request: Request,
  session?: SessionRecord | null,
): Promise<void> {
  try {
    await csrfFor(request).validate(formData, request.headers);
  } catch (error) {
    if (error instanceof CSRFError) throw expired();
    throw error;
  }
  const bound = session === undefined ? await currentSession(request) : session;
  if (bound && formData.get("csrf") !== bound.csrfToken) throw expired();
}
