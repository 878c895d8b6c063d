// The portal's HTTP server: node:http in front of the Remix build, in one process (Express only for static
// files, decision 140). It replaces remix-serve so that what must happen before Remix can: the client address
// from the socket (or from a configured number of trusted proxies), the request's URL on the configured public
// origin (or on a Host that is a host name), requests no page could answer refused with 400 or 405, a body-size
// limit enforced before anything reads the body, and the security headers (with a per-request CSP nonce) on
// every response, static files and errors included.
// Each request gets an id (X-Request-Id: a trusted proxy's, else a new one), echoed in the response and carried by
// every log line written while it is handled; pages get one JSON log line each and a place in the
// http_request_duration_seconds histogram (the app's operations, handed over by its start-up). `/metrics` is
// answered here, with METRICS_TOKEN or on METRICS_PORT. SIGTERM stops it cleanly (stopGracefully).
// Run it directly (`node scripts/server.mjs`) and it listens on PORT; or import startServer(). Configuration comes
// only from the environment.
import { randomFillSync, randomUUID } from "node:crypto";
import { statSync, watch } from "node:fs";
import { createServer } from "node:http";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { broadcastDevReady, createRequestHandler as createRemixRequestHandler, installGlobals } from "@remix-run/node";
import { matchRoutes } from "@remix-run/router";
import compression from "compression";
import express from "express";
import expressStaticGzip from "express-static-gzip";
import { AggregatorRegistry } from "prom-client";
import { requestOrigin, sendRemixResponse, toRemixRequest } from "./remix-adapter.mjs";
import {
  askPrimaryForMetrics,
  FROM_PRIMARY,
  listenOnPort,
  metricsPort,
  NEW_CONNECTION,
  serveMetricsPort,
  shutdownGraceMs,
  WORKER_READY,
} from "./start.mjs";

/** Bodies above this are refused with 413: no portal form comes near it. */
export const BODY_LIMIT_BYTES = 1024 * 1024;

/**
 * TRUST_PROXY: how many reverse proxies in front of the portal append to X-Forwarded-For. 0 (the default)
 * means the socket's address is the client's and forwarding headers are ignored, as a client can write them.
 */
export function trustedProxyHops(value = process.env.TRUST_PROXY) {
  if (value === undefined || value === "") return 0;
  if (!/^\d{1,2}$/.test(value)) throw new Error("TRUST_PROXY must be the number of trusted proxy hops (0 for none)");
  return Number(value);
}

/**
 * The methods a page of the portal answers: its forms post, everything else reads. Any other (TRACE, PUT,
 * PROPFIND, ...) is refused with 405 before it reaches Remix, which would answer a method it does not know
 * with a 500.
 */
const METHODS = new Set(["GET", "HEAD", "POST"]);

/**
 * Stripe's hosts, named by the policy of a document that takes a card with CARD_PROVIDER=stripe (decision 228):
 * Stripe.js and its frames, the API it confirms a card with, and the Checkout page a card form without JavaScript is
 * redirected to (which the browser checks against form-action).
 */
const STRIPE = {
  script: " https://js.stripe.com",
  connect: " https://api.stripe.com",
  frame: "https://js.stripe.com https://hooks.stripe.com",
  formAction: " https://checkout.stripe.com",
};

/**
 * The policy every response carries; the nonce lets exactly the portal's own inline scripts run. `stripe`: the
 * document takes a card at Stripe, and only then may Stripe's hosts be reached.
 */
function securityHeaders({ nonce, https, stripe = false }) {
  const headers = {
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
    "Referrer-Policy": "strict-origin-when-cross-origin",
    "Cross-Origin-Opener-Policy": "same-origin",
    "Cross-Origin-Resource-Policy": "same-origin",
    "Permissions-Policy": "camera=(), microphone=(), geolocation=(), payment=(self)",
    "Content-Security-Policy": [
      "default-src 'self'",
      `script-src 'self' 'nonce-${nonce}'${stripe ? STRIPE.script : ""}`,
      // Mantine and React set style attributes, and a first page carries its stylesheets as data: URLs
      // (decision 130); styles cannot run code.
      "style-src 'self' 'unsafe-inline' data:",
      "img-src 'self' data:",
      `connect-src 'self'${stripe ? STRIPE.connect : ""}`,
      `frame-src ${stripe ? STRIPE.frame : "'none'"}`,
      `form-action 'self'${stripe ? STRIPE.formAction : ""}`,
      "frame-ancestors 'none'",
      "base-uri 'self'",
      "object-src 'none'",
    ].join("; "),
  };
  if (https) headers["Strict-Transport-Security"] = "max-age=31536000; includeSubDomains";
  return headers;
}

/**
 * A file's policy in place of the page policy (build assets and public files): no file is a page of the portal,
 * so one opened as a document (an SVG, say) runs nothing and loads nothing; only its own inline styles apply.
 * Each script's response is also 400 bytes shorter than with the page policy and its nonce (decision 132).
 */
const FILE_POLICY = "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'; sandbox";
const withFilePolicy = (res) => res.setHeader("Content-Security-Policy", FILE_POLICY);

function refuse(res, status, message, headers = {}) {
  // The rest of the body is never read, so the connection cannot be reused for another request.
  res.writeHead(status, { ...headers, Connection: "close", "Content-Type": "text/plain; charset=utf-8" }).end(message);
}

/** What readBody resolves to once it has answered 413 itself. */
const REFUSED = Symbol("refused");

/**
 * Reads the body of a non-GET request into memory, refusing one that declares (Content-Length) or turns out
 * (a streamed body) to be larger than the limit with 413, before any of it reaches Remix. A GET or HEAD has
 * no body (null).
 */
function readBody(req, res, limit) {
  if (req.method === "GET" || req.method === "HEAD") return Promise.resolve(null);
  const declared = req.headers["content-length"];
  if (declared !== undefined && !(Number(declared) <= limit)) {
    refuse(res, 413, "This request is too large.");
    return Promise.resolve(REFUSED);
  }
  return new Promise((resolve, reject) => {
    const chunks = [];
    let size = 0;
    let refused = false;
    req.on("data", (chunk) => {
      if (refused) return;
      size += chunk.length;
      if (size > limit) {
        refused = true;
        req.pause();
        refuse(res, 413, "This request is too large.");
        resolve(REFUSED);
        return;
      }
      chunks.push(chunk);
    });
    req.once("end", () => {
      if (!refused) resolve(Buffer.concat(chunks));
    });
    req.once("error", (error) => {
      if (!refused) reject(error);
    });
  });
}

const NONCE_BYTES = 16;
/**
 * A new CSP nonce: 16 bytes of the system's secure random source, in base64. Taken from a pool filled 128 nonces
 * at a time, as Node's randomUUID does: one system call per request cost a worker more than the rest of its
 * headers under load, and every nonce is still fresh secure randomness, used once.
 */
export const newNonce = (() => {
  const pool = Buffer.alloc(NONCE_BYTES * 128);
  let next = pool.length;
  return () => {
    if (next === pool.length) {
      randomFillSync(pool);
      next = 0;
    }
    next += NONCE_BYTES;
    return pool.toString("base64", next - NONCE_BYTES, next);
  };
})();

/** What a request id passed on by a trusted proxy may look like: nginx's $request_id, a UUID, a trace id. */
const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/**
 * The request's id: the X-Request-Id a trusted proxy sent (only with TRUST_PROXY, as a client can write any header),
 * when it is a plausible id, else a new UUID.
 */
export function requestIdOf(req, trustedHops) {
  const passed = trustedHops > 0 ? req.headers["x-request-id"] : undefined;
  return typeof passed === "string" && REQUEST_ID.test(passed) ? passed : randomUUID();
}

/**
 * The Remix routes a path matches, root first (React Router's matchRoutes over the build's route tree, as Remix
 * matches; a single-fetch `.data` path as its page's), or null when none does.
 */
function routeMatcher(routes) {
  const children = new Map();
  for (const route of Object.values(routes)) {
    const siblings = children.get(route.parentId) ?? [];
    siblings.push(route);
    children.set(route.parentId, siblings);
  }
  const tree = (parentId) =>
    (children.get(parentId) ?? []).map((route) => ({
      id: route.id,
      path: route.path,
      index: route.index,
      caseSensitive: route.caseSensitive,
      children: route.index ? undefined : tree(route.id),
    }));
  const table = tree(undefined);
  return (pathname) => {
    const page = pathname.endsWith(".data") ? pathname.slice(0, -".data".length).replace(/^\/_root$/, "/") : pathname;
    return matchRoutes(table, page)?.map((match) => match.route.id) ?? null;
  };
}

/**
 * The id of the Remix route that answers a path (`routes/_portal.home`), or null when none does: a log line and a
 * metric name the route, never the path, whose values are unbounded.
 */
export function routeIdOf(routes) {
  const matchesOf = routeMatcher(routes);
  return (pathname) => matchesOf(pathname)?.at(-1) ?? null;
}

/**
 * The security headers of a response, by its path: with CARD_PROVIDER=stripe the policy names Stripe's hosts only
 * for a page that may show a card form, one a route it matches marks with the handle `{ cardEntry: true }`
 * (app/ui/card-document.tsx's CardEntryHandle), read from the build's route modules (decision 228).
 */
export function pageHeadersOf({ routes, cardsAtStripe }) {
  const matchesOf = routeMatcher(routes);
  const takesCard = (pathname) =>
    (matchesOf(pathname) ?? []).some((id) => routes[id].module?.handle?.cardEntry === true);
  return ({ pathname, nonce, https }) =>
    securityHeaders({ nonce, https, stripe: cardsAtStripe && takesCard(pathname) });
}

/** Answers that say nothing worth a log line or a metric: a probe's or a scraper's success. */
const PROBES = new Set(["/healthz", "/readyz", "/metrics"]);

/** The request path without its query string. */
const pathOf = (url) => {
  const query = url.indexOf("?");
  return query === -1 ? url : url.slice(0, query);
};

/**
 * Build assets and public files (decisions 129, 132): Express's static middlewares, with the caching of
 * remix-serve. Build assets go out as the build compressed them (scripts/compress-build.mjs); the compression
 * middleware leaves a response that already has its encoding alone. An immutable asset is never revalidated
 * or fetched in ranges, so it goes without ETag, Last-Modified and Accept-Ranges. Public files get an hour.
 */
function staticFiles() {
  const files = express();
  files.disable("x-powered-by");
  files.use(
    "/build",
    expressStaticGzip("public/build", {
      enableBrotli: true,
      orderPreference: ["br", "gzip"],
      serveStatic: {
        immutable: true,
        maxAge: "1y",
        etag: false,
        lastModified: false,
        acceptRanges: false,
        setHeaders: withFilePolicy,
      },
    }),
  );
  files.use(express.static("public", { maxAge: "1h", setHeaders: withFilePolicy }));
  return files;
}

/**
 * The portal's request handler for a Remix build (or a function returning the current one, in development).
 * Pages go from node:http straight to Remix through scripts/remix-adapter.mjs (decision 140); only a path
 * with an extension (every file in public/ has one, no page has) goes through Express's static middlewares,
 * and on to Remix's 404 page if there is no such file.
 */
export function createApp({
  build,
  routes,
  mode = process.env.NODE_ENV ?? "production",
  trustProxy = trustedProxyHops(),
  publicOrigin,
  cardsAtStripe = false,
  operations,
  metrics,
}) {
  const origin = requestOrigin(trustProxy, publicOrigin);
  const handleRemix = createRemixRequestHandler(build, mode);
  const files = staticFiles();
  const compress = compression();
  const routeOf = routeIdOf(routes);
  const pageHeaders = pageHeadersOf({ routes, cardsAtStripe });

  const failed = (res, error) => {
    console.error(error);
    if (res.headersSent) res.destroy();
    else res.writeHead(500, { "Content-Type": "text/plain; charset=utf-8" }).end("Internal Server Error");
  };

  const page = async (req, res, { url, cspNonce, contentSecurityPolicy }) => {
    try {
      const body = await readBody(req, res, BODY_LIMIT_BYTES);
      if (body === REFUSED) return;
      const response = await handleRemix(toRemixRequest(req, res, { url, body }), {
        clientAddress: origin.clientAddress(req),
        cspNonce,
        contentSecurityPolicy,
      });
      await sendRemixResponse(res, response);
    } catch (error) {
      failed(res, error);
    }
  };

  /**
   * `/metrics` on the portal's port, for a scraper with METRICS_TOKEN (Authorization: Bearer); without the token
   * 401. With no METRICS_TOKEN set it is not served here: the path is a page like any other (a 404).
   */
  const scrape = async (req, res) => {
    if (!operations.metricsAllowed(req.headers.authorization)) {
      res.writeHead(401, { "Content-Type": "text/plain; charset=utf-8", "WWW-Authenticate": "Bearer" });
      res.end("The metrics need the bearer token METRICS_TOKEN.");
      return;
    }
    try {
      const text = await metrics();
      res.writeHead(200, { "Content-Type": operations.metricsContentType, "Cache-Control": "no-store" }).end(text);
    } catch (error) {
      failed(res, error);
    }
  };

  /**
   * Why the request is answered before anything else sees it, or null. Each refusal is one line of the request
   * log and nothing on stderr: they are a visitor's mistakes (or probes), not the server's.
   */
  const refusal = (req, where) => {
    // Only a path is a portal address: an absolute URL (a proxy's form) or `*` would otherwise make the
    // Request's URL unparsable.
    if (!req.url.startsWith("/")) return [400, "This request's target is not a path."];
    // A Host carrying a path would move the real path into the query (`Host: x/admin?`), and the page served
    // would not be the one the access log and any proxy in front saw.
    if (!where) return [400, "This request's Host is not a host name."];
    if (!METHODS.has(req.method)) return [405, "This method is not allowed here.", { Allow: [...METHODS].join(", ") }];
    return null;
  };

  /**
   * Once the response is done (or the client gone: 499, as nginx says), the request's log line and metric: for
   * pages and refusals, not for files nor a probe's success.
   */
  const whenDone = (req, res, context, started, bytesBefore, route) => {
    res.once("close", () => {
      const status = res.writableFinished ? res.statusCode : 499;
      if (status < 300 && PROBES.has(pathOf(req.url))) return;
      operations.requestDone(context, {
        method: req.method,
        route,
        status,
        durationMs: performance.now() - started,
        bytes: req.socket.bytesWritten - bytesBefore,
      });
    });
  };

  return (req, res) => {
    const started = performance.now();
    const bytesBefore = req.socket.bytesWritten;
    const requestId = requestIdOf(req, trustProxy);
    res.setHeader("X-Request-Id", requestId);
    const where = origin.of(req);
    const cspNonce = newNonce();
    const https = where ? where.protocol === "https" : Boolean(req.socket.encrypted);
    const headers = pageHeaders({ pathname: pathOf(req.url), nonce: cspNonce, https });
    for (const name in headers) res.setHeader(name, headers[name]);
    operations.inRequest(requestId, (context) => {
      const refused = refusal(req, where);
      if (refused) {
        whenDone(req, res, context, started, bytesBefore, null);
        return refuse(res, ...refused);
      }
      const pathname = pathOf(req.url);
      if (pathname === "/metrics" && operations.metricsOnPortalPort) return void scrape(req, res);
      const url = `${where.protocol}://${where.host}${req.url}`;
      compress(req, res, () => {
        // Files are not logged; pages and misses are.
        const toPage = () => {
          whenDone(req, res, context, started, bytesBefore, routeOf(pathname));
          void page(req, res, { url, cspNonce, contentSecurityPolicy: headers["Content-Security-Policy"] });
        };
        if (!path.extname(pathname)) return toPage();
        files(req, res, (error) => (error ? failed(res, error) : toPage()));
      });
    });
  };
}

/**
 * A page read whose client has closed its connection while the read waited its turn: nothing can reach the
 * client any more, so rendering it would only delay the requests behind it (a burst of them when a client
 * with many connections goes, decision 139). A form post is carried out even then: whether an order is placed
 * must not depend on whether its customer waited for the answer.
 */
const abandonedRead = (req, res) => res.destroyed && (req.method === "GET" || req.method === "HEAD");

/**
 * Starts the requests that have arrived one per turn of the event loop, in the order they arrived (decision
 * 139). Otherwise a turn renders every request that is ready, 50–100 ms under load, and only between turns
 * does a process read its channel to the primary (which sends a worker its next new connection only once it
 * has acknowledged the last) or run its timers (a job's lease).
 */
export function oneRequestPerTurn(handle) {
  const waiting = [];
  const startNext = () => {
    let next = waiting.shift();
    while (next && abandonedRead(...next)) next = waiting.shift();
    if (waiting.length > 0) setImmediate(startNext);
    if (next) handle(...next);
  };
  return (req, res) => {
    if (waiting.push([req, res]) === 1) setImmediate(startNext);
  };
}

/**
 * The HTTP server for the app, with what a clean stop needs: the connections it has open, and `Connection: close`
 * on every response once it is stopping.
 */
function portalServer(app) {
  const server = createServer(oneRequestPerTurn(app));
  const open = new Set();
  let stopping = false;
  let whenDrained = null;
  server.on("connection", (socket) => {
    open.add(socket);
    socket.once("close", () => {
      open.delete(socket);
      if (stopping && open.size === 0) whenDrained?.();
    });
  });
  // The answers under way: a request that arrived before the stop and is still reading its body or being handled
  // must close its connection too, when its answer has gone out if it is too late to say so in the answer.
  const unanswered = new Set();
  server.on("request", (req, res) => {
    if (stopping) {
      res.setHeader("Connection", "close");
      return;
    }
    unanswered.add(res);
    const socket = req.socket;
    res.once("close", () => {
      unanswered.delete(res);
      if (stopping) socket.destroy();
    });
  });
  return {
    server,
    stopping: () => stopping,
    /** Takes no more requests on open connections, closes the idle ones; resolves once every one has closed. */
    drain() {
      stopping = true;
      for (const res of unanswered) if (!res.headersSent) res.setHeader("Connection", "close");
      // Idle is every connection without an answer under way. Node's own list (closeIdleConnections) also counts one
      // as busy until its last answer's close, which comes after the client has read it: the stop then waited for
      // the client to drop the connection (undici's keep-alive, 3 s on).
      const answering = new Set([...unanswered].map((res) => res.socket));
      for (const socket of open) if (!answering.has(socket)) socket.destroy();
      return new Promise((resolve) => {
        whenDrained = resolve;
        if (open.size === 0) resolve();
      });
    },
  };
}

/**
 * A clean stop (SIGTERM or SIGINT; for a worker also its primary's channel closing): readiness turns 503 at once,
 * no new connection is taken (`closeListener`), the requests in flight finish, and meanwhile the jobs this process
 * runs are given back after their running step, so that another process takes each at once rather than after its
 * lease; then the log is flushed and the process exits 0. After SHUTDOWN_GRACE_MS it exits 0 all the same: what is
 * still open is cut, and a job still held is taken over after its lease, as after a crash.
 */
function stopGracefully(portal, operations, closeListener) {
  let started = false;
  return () => {
    if (started) return;
    started = true;
    operations.beginStop();
    closeListener();
    setTimeout(() => process.exit(0), shutdownGraceMs()).unref();
    void Promise.all([portal.drain(), operations.finishStop()]).then(() => process.exit(0));
  };
}

/**
 * A worker of scripts/start.mjs: the primary listens and sends each new connection to one worker in turn
 * (decision 135). The worker serves what it is sent until the channel to its primary closes (the portal is
 * stopping, or the primary is gone and nothing would supervise it); then it stops cleanly (stopGracefully).
 */
function serveConnectionsFromPrimary(app, operations) {
  const portal = portalServer(app);
  process.on("message", (message, socket) => {
    if (message !== NEW_CONNECTION || !socket) return;
    if (portal.stopping()) {
      socket.destroy();
      return;
    }
    // What net.Server does for a connection it accepts itself: without it, Nagle's algorithm holds a response's
    // second write for the client's delayed ACK, 40 ms per request.
    socket.setNoDelay(true);
    portal.server.emit("connection", socket);
    // The primary accepted it paused, so that no byte was read before it arrived here.
    socket.resume();
  });
  // The primary stops listening before it lets its workers go: nothing to close here.
  const stop = stopGracefully(portal, operations, () => {});
  for (const signal of ["SIGTERM", "SIGINT"]) process.once(signal, stop);
  process.once("disconnect", stop);
  process.send(WORKER_READY);
}

/** Starts the portal on PORT (HOST if set), reading configuration only from the environment. */
export async function startServer() {
  process.env.NODE_ENV ??= "production";
  let trustProxy;
  let ownMetricsPort;
  try {
    trustProxy = trustedProxyHops();
    ownMetricsPort = metricsPort();
    shutdownGraceMs();
  } catch (error) {
    console.error(`Configuration error: ${error.message}`);
    process.exit(1);
  }
  const fromPrimary = process.env.PORTAL_CONNECTIONS === FROM_PRIMARY && process.connected;
  // A worker answers its primary's requests for its metrics (prom-client's cluster aggregation: the constructor adds
  // the listener) from the start, so that a scrape while it boots does not wait for it.
  if (fromPrimary) new AggregatorRegistry();
  const buildPath = path.resolve("build/index.js");
  // The file's mtime in the URL makes a rebuilt server build a new module, and an unchanged one the same.
  const load = () => import(`${pathToFileURL(buildPath).href}?t=${statSync(buildPath).mtimeMs}`);
  const initialBuild = await load();
  // The app's one start-up (its configuration checked, the database migrated and seeded, the jobs started), before
  // anything is served; it hands over the public origin the configuration checked and its operations.
  const { publicOrigin, cardsAtStripe, operations } = await initialBuild.entry.module.boot();
  installGlobals({ nativeFetch: initialBuild.future.v3_singleFetch });
  const development = process.env.NODE_ENV === "development";
  // In development (`npm run dev`) each request takes the newest build, and each rebuild is announced to
  // `remix dev`, as remix-serve does. A rebuild that cannot load, or a `remix dev` out of reach, is logged: left
  // unhandled, its rejection would end the server.
  const announce = (build) => {
    Promise.resolve(build)
      .then((loaded) => broadcastDevReady(loaded))
      .catch((error) => console.error(`Could not announce the build to remix dev: ${error.message}`));
  };
  if (development) {
    watch(path.resolve("build/version.txt"), () => announce(load()));
  }
  // Under npm start one scrape answers for every process: the primary gathers them (askPrimaryForMetrics).
  const metrics = fromPrimary ? askPrimaryForMetrics : operations.metrics;
  const app = createApp({
    build: development ? load : initialBuild,
    routes: initialBuild.routes,
    mode: process.env.NODE_ENV,
    trustProxy,
    publicOrigin,
    cardsAtStripe,
    operations,
    metrics,
  });
  if (fromPrimary) {
    serveConnectionsFromPrimary(app, operations);
    return;
  }
  const portal = portalServer(app);
  listenOnPort(portal.server, () => {
    if (development) announce(initialBuild);
  });
  const metricsServer =
    ownMetricsPort === undefined ? null : serveMetricsPort(ownMetricsPort, metrics, operations.metricsContentType);
  const stop = stopGracefully(portal, operations, () => {
    portal.server.close();
    metricsServer?.close();
  });
  for (const signal of ["SIGTERM", "SIGINT"]) process.once(signal, stop);
}

// Run directly (or as a cluster worker's exec), it starts; imported, it only exports.
if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  await startServer();
}
