import { createCookie, json } from "@remix-run/node";
import { CSRF, CSRFError } from "remix-utils/csrf/server";
import { secretFor } from "./secrets.server";
import { isHttps } from "./session.server";

/**
 * Double-submit CSRF protection (remix-utils): the root loader sets a signed token cookie and every
 * mutating form carries the same token in a hidden field, which a cross-site form cannot read.
 * SameSite=Lax on the session cookie already blocks most cross-site posts; this covers the rest
 * (older browsers, same-site subdomains). Two instances differ only in the cookie's Secure flag.
 */
function csrfWith(secure: boolean) {
  return new CSRF({
    cookie: createCookie("__gk_csrf", {
      path: "/",
      httpOnly: true,
      sameSite: "lax",
      secure,
      secrets: [secretFor("csrf")],
    }),
    formDataKey: "csrf",
    secret: secretFor("csrf"),
  });
}

const plain = csrfWith(false);
const secure = csrfWith(true);

const csrfFor = (request: Request) => (isHttps(request) ? secure : plain);

/** The token for this visitor and, when new, the Set-Cookie header to send with it. */
export function commitCsrfToken(request: Request) {
  return csrfFor(request).commitToken(request);
}

/** Rejects a form that lacks this visitor's token with a 403 page. */
export async function validateCsrf(formData: FormData, request: Request): Promise<void> {
  try {
    await csrfFor(request).validate(formData, request.headers);
  } catch (error) {
    if (error instanceof CSRFError) {
      throw json(
        { message: "This form has expired or did not come from the portal. Reload the page and try again." },
        { status: 403 },
      );
    }
    throw error;
  }
}
