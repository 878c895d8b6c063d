// Remix on node:http without Express (decision 140): a page request becomes a Web Request and Remix's
// Response goes back out, as @remix-run/express does, but on Node's own request and response objects.
import { isIPv6 } from "node:net";
import { writeReadableStreamToWritable } from "@remix-run/node";
import proxyaddr from "proxy-addr";

/** One label of a host name: letters, digits, hyphens (and the underscores some internal names carry). */
const LABEL = "[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9_])?";
const HOST_NAME = new RegExp(`^${LABEL}(?:\\.${LABEL})*\\.?$`, "i");

/**
 * Whether a Host (or forwarded host) value is a host name, an IPv4 address or a bracketed IPv6 address, with
 * an optional port: nothing else can be put in front of a path without changing which path the URL names
 * (`x/admin?` would), and nothing else parses as a URL's host (`a b`, `[`, `x:99999`, `a@b`, `::1`).
 */
export function isHostWithPort(value) {
  if (typeof value !== "string" || value.length > 300) return false;
  const match = /^(\[[^\]]*\]|[^:]*)(?::(\d{1,5}))?$/.exec(value);
  if (!match) return false;
  const [, name, port] = match;
  if (port !== undefined && Number(port) > 65535) return false;
  if (name.startsWith("[")) return isIPv6(name.slice(1, -1));
  return name.length <= 253 && HOST_NAME.test(name);
}

/** How many Host headers the request carries (node:http keeps only the first in req.headers). */
function hostHeaderCount(req) {
  let count = 0;
  for (let index = 0; index < req.rawHeaders.length; index += 2) {
    if (req.rawHeaders[index].toLowerCase() === "host") count += 1;
  }
  return count;
}

/**
 * What the portal believes of a request's origin, given how many proxies in front of it it trusts and the
 * public origin it is configured with (PUBLIC_URL), if any.
 */
export function requestOrigin(trustedHops, publicOrigin) {
  // A hop count trusts exactly that many proxies nearest the portal, as Express's "trust proxy" does with a number.
  const trust = (_address, hop) => hop < trustedHops;
  const configured = publicOrigin ? new URL(publicOrigin) : null;
  /**
   * A forwarding header's value as the farthest trusted proxy wrote it: each proxy appends what it saw, so
   * that value is the trusted hop count from the right, as for the client address; everything left of it is
   * the client's to write. A proxy that replaces the header leaves fewer values, all of them its own.
   */
  const forwarded = (req, name) => {
    const value = req.headers[name];
    if (trustedHops === 0 || typeof value !== "string") return undefined;
    const values = value.split(",");
    return values[Math.max(0, values.length - trustedHops)].trim() || undefined;
  };
  const forwardedProtocol = (req) => {
    const protocol = forwarded(req, "x-forwarded-proto")?.toLowerCase();
    return protocol === "https" || protocol === "http" ? protocol : undefined;
  };
  return {
    clientAddress: (req) => proxyaddr(req, trust) ?? "",
    /**
     * The scheme and host the request's URL is built on: the configured public origin, else the socket's (or the
     * trusted proxy's) scheme and the Host (or the trusted proxy's forwarded host). Null when the request names
     * its host in a way no URL can carry (see isHostWithPort) or twice: it is answered 400.
     */
    of(req) {
      const host = req.headers.host;
      const forwardedHost = forwarded(req, "x-forwarded-host");
      if (hostHeaderCount(req) > 1 || (host !== undefined && !isHostWithPort(host))) return null;
      if (forwardedHost !== undefined && !isHostWithPort(forwardedHost)) return null;
      if (configured) return { protocol: configured.protocol.slice(0, -1), host: configured.host };
      return {
        protocol: req.socket.encrypted ? "https" : (forwardedProtocol(req) ?? "http"),
        host: forwardedHost ?? host ?? "localhost",
      };
    },
  };
}

function headersOf(req) {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (Array.isArray(value)) for (const each of value) headers.append(name, each);
    else if (value !== undefined) headers.set(name, value);
  }
  return headers;
}

/**
 * The Web Request for a page request, with the body already read (`body`, or null). Its signal aborts when
 * the connection closes before the response has been sent, so that loaders and actions can stop.
 */
export function toRemixRequest(req, res, { url, body }) {
  const controller = new AbortController();
  res.once("close", () => {
    if (!res.writableFinished) controller.abort();
  });
  const init = { method: req.method, headers: headersOf(req), signal: controller.signal };
  if (body) init.body = body;
  return new Request(url, init);
}

/**
 * Sends Remix's Response: status, headers (each Set-Cookie its own), and the body. A body whose length is
 * known (a whole page, entry.server) goes out in one write with its headers; any other streams as it comes,
 * in chunks.
 */
export async function sendRemixResponse(res, response) {
  res.statusCode = response.status;
  if (response.statusText) res.statusMessage = response.statusText;
  for (const [name, value] of response.headers) {
    if (name !== "set-cookie") res.setHeader(name, value);
  }
  const cookies = response.headers.getSetCookie();
  if (cookies.length > 0) res.setHeader("Set-Cookie", cookies);
  // An event stream's headers go out at once: its first event may be a while coming.
  if (/text\/event-stream/i.test(response.headers.get("Content-Type") ?? "")) res.flushHeaders();
  if (!response.body) res.end();
  else if (response.headers.has("Content-Length")) res.end(Buffer.from(await response.arrayBuffer()));
  else await writeReadableStreamToWritable(response.body, res);
}
