/**
 * The origin PUBLIC_URL names (`https://portal.example.com`), or undefined when it is not set; an Error whose
 * message finishes "PUBLIC_URL ..." for anything but an http(s) origin without credentials, path, query or
 * fragment. The HTTP server builds every request's URL on it, and mail may leave the portal only with it: a link
 * in a mail must never carry a host a visitor chose.
 */
export function parsePublicUrl(value: string | undefined): string | undefined {
  if (value === undefined || value === "") return undefined;
  const url = URL.canParse(value) ? new URL(value) : null;
  const originOnly =
    (url?.protocol === "https:" || url?.protocol === "http:") &&
    !url.username &&
    !url.password &&
    url.pathname === "/" &&
    !url.search &&
    !url.hash &&
    !value.includes("?") &&
    !value.includes("#");
  if (!url || !originOnly) throw new Error("must be the portal's public origin, e.g. https://portal.example.com");
  return url.origin;
}
