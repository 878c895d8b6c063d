// Remix on node:http without Express (decision 140): a page request becomes a Web Request and Remix's
// Response goes back out, as @remix-run/express does, but on Node's own request and response objects.
import { writeReadableStreamToWritable } from "@remix-run/node";
import proxyaddr from "proxy-addr";

/** What the portal believes of a request's origin, given how many proxies in front of it it trusts. */
export function requestOrigin(trustedHops) {
  // A hop count trusts exactly that many proxies nearest the portal, as Express's "trust proxy" does with a number.
  const trust = (_address, hop) => hop < trustedHops;
  const forwarded = (req, name) => {
    const value = req.headers[name];
    return trustedHops > 0 && typeof value === "string" ? value.split(",")[0].trim() || undefined : undefined;
  };
  return {
    clientAddress: (req) => proxyaddr(req, trust) ?? "",
    protocol: (req) => (req.socket.encrypted ? "https" : (forwarded(req, "x-forwarded-proto") ?? "http")),
    host: (req) => forwarded(req, "x-forwarded-host") ?? req.headers.host ?? "localhost",
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
