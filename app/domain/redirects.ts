/** Where a redirect goes when the requested target is missing or not the portal's own. */
export const DEFAULT_REDIRECT = "/home";

/**
 * A redirect target that stays on the portal: a path starting with one "/", with no control
 * characters, whitespace or backslashes (browsers drop or rewrite those, turning "/\t/evil.example" into
 * "//evil.example"), that resolves to the portal's own origin. Anything else goes to /home. `origin` is
 * any URL of the portal (e.g. the request's).
 */
export function safeRedirect(target: unknown, origin: string, fallback = DEFAULT_REDIRECT): string {
  if (typeof target !== "string" || !target.startsWith("/") || target.startsWith("//")) return fallback;
  // eslint-disable-next-line no-control-regex -- control characters are exactly what must be refused
  if (/[\u0000-\u0020\u007f-\u00a0\\]/.test(target) || /\s/u.test(target)) return fallback;
  let resolved: URL;
  try {
    resolved = new URL(target, origin);
  } catch {
    return fallback;
  }
  if (resolved.origin !== new URL(origin).origin) return fallback;
  return `${resolved.pathname}${resolved.search}${resolved.hash}`;
}
