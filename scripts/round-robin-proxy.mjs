// A load balancer for the e2e tests and the bench: one port in front of several portal instances, each request
// going to the next instance in turn, as nginx does in docker-compose.yml.
import { Agent, createServer, request } from "node:http";

/** Hop-by-hop headers (RFC 9110 §7.6.1): they describe one connection, so a proxy never passes them on. */
const HOP_BY_HOP = new Set([
  "connection",
  "keep-alive",
  "proxy-connection",
  "proxy-authenticate",
  "proxy-authorization",
  "te",
  "trailer",
  "transfer-encoding",
  "upgrade",
]);

/**
 * A raw header list (name, value, name, value, …) without the hop-by-hop headers, repeated headers kept in order.
 * @param {string[]} rawHeaders
 */
function endToEnd(rawHeaders) {
  /** @type {string[]} */
  const kept = [];
  for (let index = 0; index < rawHeaders.length; index += 2) {
    if (!HOP_BY_HOP.has(rawHeaders[index].toLowerCase())) kept.push(rawHeaders[index], rawHeaders[index + 1]);
  }
  return kept;
}

/** @param {import("node:http").IncomingHttpHeaders} headers */
const closes = (headers) => /\bclose\b/i.test(headers.connection ?? "");

/**
 * Starts the balancer on 127.0.0.1, on `port` (a free one when 0), in front of the instances listening on `upstreamPorts`; each
 * request goes to the next instance in turn, so the consecutive requests of one walk (a page, its form post, the
 * redirect after it) land on different instances and anything an instance kept to itself shows. Bodies stream
 * both ways. The proxy is transparent, so that every test means on it what it means on one instance: headers go
 * through as they came (repeated ones, the Host and the forwarding headers included, none added), and the
 * connection to the instance is made from the client's own loopback address, so an instance sees each client at
 * its address (tests play clients at 127.0.0.2 and up) with TRUST_PROXY=0, and a test that plays a proxy itself
 * (TRUST_PROXY=1) has its own X-Forwarded-For believed. An instance that cannot be reached is a 502; a request is
 * never sent to a second instance, so a form posted once is never submitted twice.
 * @param {number[]} upstreamPorts
 * @param {number} [port]
 * @returns {Promise<{ url: string, close(): Promise<void> }>}
 */
export async function startRoundRobinProxy(upstreamPorts, port = 0) {
  let turn = 0;
  // Connections to the instances are kept for the next request, and dropped while idle well before the instances'
  // own 5 s: a connection reused just as its instance closes it would fail that request.
  const agent = new Agent({ keepAlive: true, timeout: 2_000 });
  const server = createServer((req, res) => {
    const port = upstreamPorts[turn++ % upstreamPorts.length];
    // The instance's own Date goes through; the proxy's would be a second one.
    res.sendDate = false;
    let answered = false;
    const upstream = request(
      {
        host: "127.0.0.1",
        port,
        method: req.method,
        path: req.url,
        headers: endToEnd(req.rawHeaders),
        setHost: false,
        localAddress: req.socket.remoteAddress,
        agent,
      },
      (answer) => {
        answered = true;
        const closing = closes(answer.headers);
        // An instance that answers before it has read the body (a refused upload) and closes the connection: the
        // rest of the body is not sent to it, and the client's connection closes after the answer too.
        if (closing) req.unpipe(upstream);
        const headers = [...endToEnd(answer.rawHeaders), ...(closing ? ["Connection", "close"] : [])];
        res.writeHead(answer.statusCode ?? 502, answer.statusMessage, headers);
        answer.pipe(res);
        answer.once("error", () => res.destroy());
      },
    );
    upstream.once("error", (error) => {
      // Once the answer has come, an error writing the rest of the body to an instance that stopped reading it
      // changes nothing: the answer goes out whole.
      if (answered) return;
      res.writeHead(502, { "Content-Type": "text/plain", Connection: "close" });
      res.end(`The portal instance on port ${port} did not answer: ${error.message}\n`);
    });
    // A client that goes away before its answer has come drops the instance's connection too, as it would its own.
    res.once("close", () => {
      if (!res.writableFinished) upstream.destroy();
    });
    // The headers go at once, as a load balancer that streams bodies sends them: an instance may answer on them alone.
    upstream.flushHeaders();
    req.pipe(upstream);
  });
  await new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, "127.0.0.1", () => resolve(undefined));
  });
  const address = /** @type {import("node:net").AddressInfo} */ (server.address());
  return {
    url: `http://127.0.0.1:${address.port}`,
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve(undefined));
        server.closeAllConnections();
        agent.destroy();
      }),
  };
}
