// The portal's public origin (PUBLIC_URL), read by the HTTP server (scripts/server.mjs), which builds every
// request's URL on it, and by the app's configuration (app/server/platform/env.server.ts), which requires it before mail
// may leave the portal: a link in a mail must never carry a host a visitor chose.

/**
 * The origin PUBLIC_URL names (`https://portal.example.com`), or undefined when it is not set; an Error whose
 * message finishes "PUBLIC_URL ..." for anything but an http(s) origin without credentials, path, query or
 * fragment.
 */
export function parsePublicUrl(value) {
  if (value === undefined || value === "") return undefined;
  let url;
  try {
    url = new URL(value);
  } catch {
    url = null;
  }
  const originOnly =
    url &&
    (url.protocol === "https:" || url.protocol === "http:") &&
    !url.username &&
    !url.password &&
    url.pathname === "/" &&
    !url.search &&
    !url.hash &&
    !value.includes("?") &&
    !value.includes("#");
  if (!originOnly) throw new Error("must be the portal's public origin, e.g. https://portal.example.com");
  return url.origin;
}
