import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { commitCsrfToken } from "~/server/accounts/csrf.server";

const ORIGIN = "http://portal.test";

/** Cookie header value from one or more Set-Cookie headers (name=value pairs only). */
export function cookieFrom(...setCookies: (string | null | undefined)[]): string {
  return setCookies
    .filter((value): value is string => Boolean(value))
    .flatMap((value) => value.split(/,(?=\s*[^;,=\s]+=)/))
    .map((cookie) => cookie.split(";")[0].trim())
    .join("; ");
}

export function getRequest(path: string, cookie = "", origin = ORIGIN): Request {
  return new Request(`${origin}${path}`, { headers: cookie ? { Cookie: cookie } : {} });
}

/**
 * A form POST as the portal's own pages send it: with the visitor's CSRF cookie and the matching
 * hidden field (unless the test leaves it out on purpose).
 */
export async function formRequest(
  path: string,
  fields: Record<string, string>,
  { cookie = "", withCsrf = true, origin = ORIGIN }: { cookie?: string; withCsrf?: boolean; origin?: string } = {},
): Promise<Request> {
  // Signed in, the form carries the session's own token (the page would render it); else an anonymous one.
  const [token, csrfCookie] = await commitCsrfToken(getRequest("/", cookie, origin));
  const body = new URLSearchParams(fields);
  if (withCsrf) body.set("csrf", token);
  return new Request(`${origin}${path}`, {
    method: "POST",
    headers: {
      "Content-Type": "application/x-www-form-urlencoded",
      Cookie: [cookie, cookieFrom(csrfCookie)].filter(Boolean).join("; "),
    },
    body,
  });
}

/**
 * Runs a loader or action and returns its Response, whether it was returned or thrown. Data a loader returns
 * as it is (decision 137) comes back as a JSON response of that data.
 */
export async function respond(run: () => Promise<unknown>): Promise<Response> {
  try {
    const result = await run();
    return result instanceof Response ? result : Response.json(result);
  } catch (thrown) {
    if (thrown instanceof Response) return thrown;
    throw thrown;
  }
}

type Loader = (args: LoaderFunctionArgs) => unknown;
type Action = (args: ActionFunctionArgs) => unknown;

/** A route's loader on a GET of `path` with the visitor's cookie, as its Response. */
export const loadRoute = (loader: Loader, path: string, cookie: string, params: Record<string, string> = {}) =>
  respond(async () => loader({ request: getRequest(path, cookie), params, context: {} }));

/** A route's action on a form POST of `fields` to `path` with the visitor's cookie (and CSRF token), as its Response. */
export const postRoute = (
  action: Action,
  path: string,
  fields: Record<string, string>,
  cookie: string,
  params: Record<string, string> = {},
) => respond(async () => action({ request: await formRequest(path, fields, { cookie }), params, context: {} }));
