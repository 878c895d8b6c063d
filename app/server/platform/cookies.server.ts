import { createCookie, type Cookie, type CookieOptions } from "@remix-run/node";

/**
 * True when the browser reached the portal over HTTPS. scripts/server.mjs builds the request URL from the
 * socket, or from X-Forwarded-Proto only through the TRUST_PROXY hops it trusts, so the URL is enough.
 */
export function isHttps(request: Request): boolean {
  return new URL(request.url).protocol === "https:";
}

/**
 * The portal's cookies. Over HTTPS they get the `__Host-` prefix, which browsers accept only with Secure,
 * Path=/ and no Domain: no subdomain or plain-HTTP page can set or shadow them. Plain-HTTP localhost (the
 * demo, the tests) cannot have it.
 */
const prefixed = (https: boolean, name: string) => (https ? `__Host-${name}` : `__${name}`);

/**
 * A browser's own setting, kept for a year and read only by the server. It is not signed: a forged value only
 * changes how the portal serves that browser's own pages.
 */
export function browserSettingCookie(name: string): Cookie {
  return createCookie(name, { path: "/", sameSite: "lax", httpOnly: true, maxAge: 60 * 60 * 24 * 365 });
}

/** The most recent Cookie headers' parsed values are kept, per cookie; more would only be a bigger cache. */
const PARSED_HEADERS_KEPT = 1000;

export interface PortalCookie {
  /** Remix's cookie for the request's scheme (for libraries that take one). */
  cookie(request: Request): Cookie;
  parse(request: Request): Promise<unknown>;
  serialize(request: Request, value: unknown, options?: CookieOptions): Promise<string>;
}

/**
 * One of the portal's signed cookies, made once per scheme (Secure and `__Host-` over HTTPS). Parsing a
 * signed cookie checks its HMAC with WebCrypto; the value a Cookie header holds cannot change while the
 * secret does not, so it is remembered for recent headers (a tenth of a page's server time under load).
 */
export function portalCookie(name: string, options: CookieOptions): PortalCookie {
  const make = (https: boolean) => createCookie(prefixed(https, name), { ...options, secure: https });
  const overHttps = make(true);
  const overHttp = make(false);
  const cookieFor = (request: Request) => (isHttps(request) ? overHttps : overHttp);
  const parsed = new Map<string, Promise<unknown>>();
  return {
    cookie: cookieFor,
    parse(request) {
      const header = request.headers.get("Cookie");
      if (!header) return Promise.resolve(null);
      const cookie = cookieFor(request);
      // The cookie's name differs by scheme, so the name keeps the two schemes' entries apart.
      const key = `${cookie.name}=${header}`;
      let value = parsed.get(key);
      if (!value) {
        value = cookie.parse(header);
        if (parsed.size >= PARSED_HEADERS_KEPT) parsed.clear();
        parsed.set(key, value);
      }
      return value;
    },
    serialize: (request, value, serializeOptions) => cookieFor(request).serialize(value, serializeOptions),
  };
}
