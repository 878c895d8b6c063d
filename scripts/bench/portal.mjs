import { fork, spawn } from "node:child_process";
import { mkdtemp, open, readFile, rm } from "node:fs/promises";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { setTimeout as sleep } from "node:timers/promises";
import { createDatabase, startCluster, stopCluster } from "../postgres-cluster.mjs";
import { startTags } from "./html.mjs";

export const HOST = "127.0.0.1";

/** A free loopback port. The server has no "any free port" mode, so the OS picks one and we hand it on. */
function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, HOST, () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/**
 * Starts the built portal as `npm start` runs it (scripts/start.mjs: one process per core) on loopback, with a fresh database in a
 * temporary directory so that every run sees the same seeded demo data. Resolves once /healthz answers.
 */
export async function startPortal(root, { databaseUrl, env = {} } = {}) {
  const dir = await mkdtemp(path.join(tmpdir(), "gk-bench-"));
  const logFile = path.join(dir, "server.log");
  const databaseFile = path.join(dir, "portal.sqlite");
  const log = await open(logFile, "w");
  const port = await freePort();
  // The server logs every request (morgan); a file keeps that cheap and at hand if start-up fails.
  const child = spawn(process.execPath, [path.join(root, "scripts/start.mjs")], {
    cwd: root,
    env: {
      ...process.env,
      NODE_ENV: "production",
      HOST,
      PORT: String(port),
      DATABASE_URL: databaseUrl ?? `file:${databaseFile}`,
      SEED_DEMO: "true",
      ...env,
    },
    stdio: ["ignore", log.fd, log.fd],
  });
  await log.close();
  const exited = new Promise((resolve) => child.once("exit", resolve));

  async function stop() {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill("SIGTERM");
      // The workers close their listeners on SIGTERM; the data is thrown away, so there is nothing to
      // wait for. Workers exit by themselves once their primary is gone.
      if ((await Promise.race([exited.then(() => "exited"), sleep(1000)])) !== "exited") child.kill("SIGKILL");
      await exited;
    }
    await rm(dir, { recursive: true, force: true });
  }

  const baseUrl = `http://${HOST}:${port}`;
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null || Date.now() > deadline) {
      const tail = (await readFile(logFile, "utf8")).split("\n").slice(-20).join("\n");
      await stop();
      throw new Error(`the portal did not become healthy on ${baseUrl}; its log ends:\n${tail}`);
    }
    const healthy = await fetch(`${baseUrl}/healthz`).then(
      (response) => response.status === 200,
      () => false,
    );
    if (healthy) return { baseUrl, databaseFile, stop };
    await sleep(100);
  }
}

/**
 * The portal on PostgreSQL as it runs past one machine: a throwaway cluster (scripts/postgres-cluster.mjs), two
 * instances of `npm start` on one database, one process each, behind a round-robin balancer on one port
 * (scripts/round-robin-proxy.mjs, standing for nginx, in a process of its own: scripts/bench/balancer.mjs). The
 * instances start together, as a deployment's do.
 */
export async function startPostgresPortals(root) {
  const cluster = await startCluster();
  const databaseUrl = await createDatabase(cluster.url, "portal_bench");
  const instances = [];
  let balancer;
  async function stop() {
    await balancer?.stop();
    await Promise.all(instances.map((instance) => instance.stop()));
    await stopCluster(cluster.directory);
  }
  try {
    const env = { WEB_CONCURRENCY: "1" };
    instances.push(...(await Promise.all([0, 1].map(() => startPortal(root, { databaseUrl, env })))));
    balancer = await startBalancer(instances.map((instance) => new URL(instance.baseUrl).port));
  } catch (error) {
    await stop();
    throw error;
  }
  return { baseUrl: balancer.url, databaseUrl, stop };
}

/** Starts scripts/bench/balancer.mjs in front of the ports; resolves to its URL and a stop(). */
async function startBalancer(ports) {
  const child = fork(fileURLToPath(new URL("balancer.mjs", import.meta.url)), ports, { stdio: "inherit" });
  const exited = new Promise((resolve) => child.once("exit", resolve));
  const url = await new Promise((resolve, reject) => {
    child.once("message", (message) => resolve(message.url));
    child.once("exit", (code) => reject(new Error(`the balancer exited (${code}) before listening`)));
  });
  return {
    url,
    // The child exits when its IPC channel closes, so it also goes if the bench dies.
    async stop() {
      if (child.connected) child.disconnect();
      await exited;
    },
  };
}

/**
 * The cookie that tells the portal a browser has been given the build's stylesheet files
 * (app/server/platform/delivery/stylesheet-delivery.server.ts, decision 130). Without it, a page comes with its CSS inline.
 */
export const STYLESHEETS_COOKIE = "gk_styles";

/** The cookies a browser would hold for the portal: enough of RFC 6265 for one host and path "/". */
export class CookieJar {
  #cookies = new Map();

  /** A copy without the cookie `name`. */
  without(name) {
    const copy = new CookieJar();
    for (const [key, value] of this.#cookies) if (key !== name) copy.#cookies.set(key, value);
    return copy;
  }

  update(response) {
    for (const setCookie of response.headers.getSetCookie()) {
      const [pair] = setCookie.split(";");
      const at = pair.indexOf("=");
      const name = pair.slice(0, at).trim();
      const value = pair.slice(at + 1).trim();
      // A cleared cookie comes back empty (with an expiry in the past).
      if (value) this.#cookies.set(name, value);
      else this.#cookies.delete(name);
    }
  }

  get header() {
    return this.entries()
      .map(([name, value]) => `${name}=${value}`)
      .join("; ");
  }

  /** [name, value] pairs, e.g. to hand to a browser context. */
  entries() {
    return [...this.#cookies];
  }
}

/** The cookies a browser holds after its first page, the sign-in form. */
export async function firstVisit(baseUrl) {
  const jar = new CookieJar();
  jar.update(await fetch(`${baseUrl}/login`));
  return jar;
}

/** Signs in through the real form, CSRF token included, as a browser without JavaScript would. */
export async function signIn(baseUrl, email, password) {
  const jar = new CookieJar();
  const form = await fetch(`${baseUrl}/login`);
  jar.update(form);
  const csrf = startTags(await form.text(), "input").find((input) => input.name === "csrf")?.value;
  if (!csrf) throw new Error("/login has no hidden csrf field");
  const response = await fetch(`${baseUrl}/login`, {
    method: "POST",
    redirect: "manual",
    headers: { cookie: jar.header, "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ csrf, redirectTo: "", email, password }),
  });
  jar.update(response);
  if (response.status !== 302) throw new Error(`signing in as ${email} answered ${response.status}, not a redirect`);
  return jar;
}

/** The jar's cookies for a browser context on `baseUrl`, without the stylesheets cookie: a cold browser's visit. */
export function browserCookies(jar, baseUrl) {
  return jar
    .without(STYLESHEETS_COOKIE)
    .entries()
    .map(([name, value]) => ({ name, value, url: baseUrl }));
}
