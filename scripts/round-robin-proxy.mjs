// A load balancer for tests and the bench: one port in front of several portal instances, each request sent to
// the next instance in turn, as nginx does in docker-compose.yml. Requests and answers are streamed through
// unchanged but for X-Forwarded-For (the instances run with TRUST_PROXY=1). An instance that does not answer
// gets a 502, as from nginx, and is not retried: a form posted once is never sent twice.
import http from "node:http";

/**
 * Starts the balancer on `host` (a free port) in front of `targets` (base URLs such as http://127.0.0.1:4001).
 * Resolves to its base URL and a stop function.
 */
export async function startRoundRobinProxy(targets, { host = "127.0.0.1" } = {}) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 256 });
  let next = 0;
  const server = http.createServer((request, response) => {
    const target = new URL(targets[next++ % targets.length]);
    const forwardedFor = [request.headers["x-forwarded-for"], request.socket.remoteAddress].filter(Boolean).join(", ");
    const upstream = http.request(
      {
        host: target.hostname,
        port: target.port,
        method: request.method,
        path: request.url,
        headers: { ...request.headers, "x-forwarded-for": forwardedFor },
        agent,
      },
      (answer) => {
        response.writeHead(answer.statusCode ?? 502, answer.rawHeaders);
        answer.pipe(response);
      },
    );
    upstream.on("error", () => {
      if (!response.headersSent) response.writeHead(502, { "content-type": "text/plain" });
      response.end("bad gateway");
    });
    request.pipe(upstream);
  });
  await new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, host, resolve);
  });
  const { port } = server.address();
  return {
    url: `http://${host}:${port}`,
    async stop() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      agent.destroy();
    },
  };
}
