import { Agent, get } from "node:http";
import { connect } from "node:net";
import { DEMO, DEMO_PASSWORD, expect, signIn, startPortal, test } from "./fixtures";
import { walkToOrder } from "./purchase-steps";

/**
 * What the people who run the portal see: one JSON log line per request whose id follows the request into the
 * jobs it queued and the provider calls they made, with nothing in any line that identifies a person or opens an
 * account; one scrape of /metrics answering for every process of `npm start`; a stop that lets a request in
 * flight finish.
 */

type LogLine = Record<string, unknown> & { event?: string; requestId?: string; cause?: string };

const linesOf = (text: string): LogLine[] =>
  text
    .split("\n")
    .filter((line) => line.startsWith("{"))
    .map((line) => JSON.parse(line) as LogLine);

test.describe("the portal's log", () => {
  test("follows a purchase from its request through the job and the provider calls, and holds no secret", async ({
    page,
    databaseEngine,
  }) => {
    test.setTimeout(120_000);
    const portal = await startPortal({ engine: databaseEngine, env: { LOG_LEVEL: "debug" } });
    try {
      // Everything from the sign-in on: the start-up's lines (the demo seed's password among them) come before.
      const from = portal.stdout().length;
      const fromErrors = portal.stderr().length;
      await signIn(page, DEMO.customer, undefined, `${portal.baseURL}/login`);
      await walkToOrder(page, "Logged Clinics", "5", portal.baseURL);
      await page.getByRole("link", { name: "Submit Order" }).click();
      await page.getByRole("dialog", { name: "Place your order." }).getByRole("button", { name: "Purchase" }).click();
      await expect(page.getByText("Successfully created your GateKeeper Enterprise recurring license!")).toBeVisible({
        timeout: 30_000,
      });
      const written = () => portal.stdout().slice(from) + portal.stderr().slice(fromErrors);
      // The job's last line is written once its run is recorded.
      await expect.poll(() => linesOf(written()).some((line) => line.event === "job-run" && line.cause)).toBe(true);
      const lines = linesOf(written());

      const purchase = lines.find(
        (line) => line.event === "job-run" && line.jobKind === "new-subscription" && line.outcome === "succeeded",
      );
      expect(purchase, "the order's job ran").toBeDefined();
      const requestId = purchase!.cause;
      const request = lines.find((line) => line.event === "request" && line.requestId === requestId);
      expect(request).toMatchObject({ method: "POST", status: expect.any(Number), memberId: expect.any(String) });
      const calls = lines.filter((line) => line.event === "provider-call" && line.cause === requestId);
      expect(calls.map((line) => line.call)).toEqual(expect.arrayContaining(["createSubscription"]));
      // Every request of the visit has a line with its route's id, never its path.
      const routes = new Set(lines.filter((line) => line.event === "request").map((line) => line.route));
      expect([...routes]).toEqual(expect.arrayContaining(["routes/login", "routes/_portal.store.subscribe.plan"]));

      const cookies = (await page.context().cookies())
        .map((cookie) => cookie.value)
        .filter((value) => value.length > 8);
      const text = written();
      expect(text).not.toContain(DEMO_PASSWORD);
      expect(text).not.toMatch(/[\w.+-]+@[\w-]+\.[a-z]{2,}/i);
      expect(text).not.toMatch(/4242[ -]?4242/);
      for (const value of cookies) expect(text).not.toContain(value);
    } finally {
      // The page leaves first: links it renders ask the portal for their routes, and a stopped portal answers 502.
      await page.goto("about:blank");
      await portal.stop();
    }
  });
});

test.describe("metrics from npm start", () => {
  const token = "metrics-token-for-the-e2e-run";

  test("one scrape counts the requests of both workers, and is refused without the token", async ({
    databaseEngine,
  }) => {
    test.setTimeout(120_000);
    const cluster = await startPortal({ engine: databaseEngine, workers: 2, env: { METRICS_TOKEN: token } });
    try {
      // Each on a connection of its own: the primary hands new connections to the workers in turn.
      for (let request = 0; request < 6; request += 1) {
        const response = await fetch(`${cluster.baseURL}/login`, { headers: { Connection: "close" } });
        expect(response.status).toBe(200);
        expect(response.headers.get("X-Request-Id")).toMatch(/^[0-9a-f-]{36}$/);
      }
      const served = () =>
        linesOf(cluster.stdout()).filter((line) => line.event === "request" && line.route === "routes/login");
      // A worker writes its line as the answer goes out: the last may reach this side after the answer.
      await expect.poll(() => served().length).toBe(6);
      expect(new Set(served().map((line) => line.pid)).size, "both workers served some").toBe(2);

      expect((await fetch(`${cluster.baseURL}/metrics`)).status).toBe(401);
      expect(
        (await fetch(`${cluster.baseURL}/metrics`, { headers: { Authorization: "Bearer not-the-token" } })).status,
      ).toBe(401);
      const scrape = await fetch(`${cluster.baseURL}/metrics`, { headers: { Authorization: `Bearer ${token}` } });
      expect(scrape.status).toBe(200);
      const text = await scrape.text();
      const count =
        /^http_request_duration_seconds_count\{route="routes\/login",method="GET",status_class="2xx"\} (\d+)$/m.exec(
          text,
        );
      expect(Number(count?.[1])).toBe(6);
      expect(text).toMatch(/^nodejs_eventloop_lag_seconds /m);
    } finally {
      await cluster.stop();
    }
  });
});

test.describe("a clean stop", () => {
  test("lets a request in flight during SIGTERM finish, closes an idle connection at once, and exits 0", async ({
    databaseEngine,
  }) => {
    test.setTimeout(60_000);
    const portal = await startPortal({ engine: databaseEngine });
    try {
      const url = new URL(portal.instanceURLs[0]);
      // A form post whose body is still arriving when the stop begins.
      const socket = connect(Number(url.port), url.hostname);
      let answer = "";
      socket.on("data", (chunk) => (answer += chunk.toString()));
      const closed = new Promise((resolve) => socket.once("close", resolve));
      const body = "email=someone&password=x";
      socket.write(
        `POST /login HTTP/1.1\r\nHost: ${url.host}\r\nContent-Type: application/x-www-form-urlencoded\r\n` +
          `Content-Length: ${body.length}\r\n\r\n${body.slice(0, 6)}`,
      );
      const exited = new Promise<number | null>((resolve) => {
        const check = setInterval(() => {
          try {
            process.kill(portal.pids[0], 0);
          } catch {
            clearInterval(check);
            resolve(0);
          }
        }, 50);
      });
      await new Promise((resolve) => setTimeout(resolve, 300));
      // A kept-alive connection whose answer has just been read: the stop closes it at once, not when the client
      // drops it (this agent never would).
      let idleClosed = false;
      const idle = new Agent({ keepAlive: true });
      idle.on("free", (freed) => freed.once("close", () => (idleClosed = true)));
      await new Promise((resolve) =>
        get(`${portal.instanceURLs[0]}/healthz`, { agent: idle }, (res) => res.resume().on("end", resolve)),
      );
      process.kill(portal.pids[0], "SIGTERM");
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect(idleClosed, "the idle connection is closed while the request in flight still waits").toBe(true);
      socket.write(body.slice(6));
      await closed;
      expect(answer).toMatch(/^HTTP\/1\.1 \d{3} /);
      expect(answer).toMatch(/\r\nConnection: close\r\n/i);
      await exited;
      expect(portal.stdout()).toContain('"event":"stopped"');
    } finally {
      await portal.stop();
    }
  });
});
