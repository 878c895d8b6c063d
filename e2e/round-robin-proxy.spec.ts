import { createServer, request, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { expect, test } from "@playwright/test";
import { startRoundRobinProxy } from "../scripts/round-robin-proxy.mjs";

type RoundRobinProxy = Awaited<ReturnType<typeof startRoundRobinProxy>>;

/**
 * The proxy the javascript project puts in front of two portal instances on PostgreSQL: each request goes to the
 * next instance, and each instance sees the request as the client sent it, from the client's own address.
 */

/** A stand-in instance that answers with its name and what it saw of the request. */
async function echoInstance(name: string): Promise<Server> {
  const server = createServer((req, res) => {
    let body = "";
    req.on("data", (chunk: Buffer) => (body += chunk.toString()));
    req.on("end", () => {
      res.setHeader("Set-Cookie", [`${name}=1`, "second=2"]);
      res.end(JSON.stringify({ name, rawHeaders: req.rawHeaders, address: req.socket.remoteAddress, body }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return server;
}

const portOf = (server: Server) => (server.address() as AddressInfo).port;

/** Two stand-in instances, "first" and "second", and the proxy in front of them, for the length of `work`. */
async function behindProxy(work: (proxy: RoundRobinProxy, instances: [Server, Server]) => Promise<void>) {
  const instances = await Promise.all([echoInstance("first"), echoInstance("second")]);
  const proxy = await startRoundRobinProxy(instances.map(portOf));
  try {
    await work(proxy, instances);
  } finally {
    await proxy.close();
    for (const server of instances) {
      server.close();
      server.closeAllConnections();
    }
  }
}

interface Seen {
  status: number;
  cookies: string[];
  name: string;
  rawHeaders: string[];
  address: string;
  body: string;
}

/** One request from `localAddress`; what came back. */
function send(
  url: string,
  {
    method = "GET",
    headers = {},
    body,
    localAddress = "127.0.0.1",
  }: Partial<{
    method: string;
    headers: Record<string, string>;
    body: string;
    localAddress: string;
  }> = {},
): Promise<Seen> {
  return new Promise((resolve, reject) => {
    const outgoing = request(url, { method, headers, localAddress }, (response) => {
      let text = "";
      response.on("data", (chunk: Buffer) => (text += chunk.toString()));
      response.on("end", () => {
        const seen = response.statusCode === 200 ? (JSON.parse(text) as Omit<Seen, "status" | "cookies">) : null;
        resolve({
          status: response.statusCode ?? 0,
          cookies: response.headers["set-cookie"] ?? [],
          ...(seen ?? { name: "", rawHeaders: [], address: "", body: text }),
        });
      });
    });
    outgoing.on("error", reject);
    outgoing.end(body);
  });
}

test.describe("the round-robin proxy in front of the portal's instances", () => {
  test.skip(({ javaScriptEnabled }) => !javaScriptEnabled, "no browser: once is enough");

  test("sends each request to the next instance, headers and body as the client sent them, from its address", async () => {
    await behindProxy(async (proxy) => {
      const names = [];
      for (let turn = 0; turn < 4; turn += 1) names.push((await send(`${proxy.url}/healthz`)).name);
      expect(names).toEqual(["first", "second", "first", "second"]);

      const seen = await send(`${proxy.url}/login?next=%2Fhome`, {
        method: "POST",
        headers: { "Content-Type": "application/x-www-form-urlencoded", "X-Forwarded-For": "203.0.113.7" },
        body: "email=a%40example.com",
        localAddress: "127.0.0.5",
      });
      expect(seen.address).toBe("127.0.0.5");
      expect(seen.body).toBe("email=a%40example.com");
      expect(seen.rawHeaders).toEqual(
        expect.arrayContaining(["Host", new URL(proxy.url).host, "X-Forwarded-For", "203.0.113.7"]),
      );
      expect(seen.rawHeaders.filter((header) => /^x-forwarded-for$/i.test(header))).toHaveLength(1);
      expect(seen.cookies).toEqual([`${seen.name}=1`, "second=2"]);
    });
  });

  test("answers 502 for an instance that is gone, and the other one still answers", async () => {
    await behindProxy(async (proxy, [, second]) => {
      const closed = new Promise((resolve) => second.close(resolve));
      second.closeAllConnections();
      await closed;
      const statuses = [];
      for (let turn = 0; turn < 2; turn += 1) statuses.push((await send(`${proxy.url}/healthz`)).status);
      expect(statuses).toEqual([200, 502]);
    });
  });
});
