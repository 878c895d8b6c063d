import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import type { Readable } from "node:stream";
import { setTimeout as sleep } from "node:timers/promises";
import path from "node:path";
import AxeBuilder from "@axe-core/playwright";
import { test as base, expect, type APIRequestContext, type BrowserContext, type Page } from "@playwright/test";
import type { Engine } from "~/server/platform/database/portal-database.server";
import { databaseChoice } from "~/server/platform/config/database-url.server";
import { createDatabase, dropDatabase } from "../scripts/postgres-cluster.mjs";
import { startRoundRobinProxy } from "../scripts/round-robin-proxy.mjs";
import { PORTAL_SETTINGS } from "./portal-settings";
import { startSessionIn } from "./sessions";

export const DEMO_PASSWORD = "GateKeeper-demo-1";
export const DEMO = {
  customer: "customer@example.com",
  distributor: "distributor@example.com",
  admin: "admin@example.com",
} as const;

/** The database a portal runs on: a SQLite file in its folder, or a database of its own on a PostgreSQL server. */
export type DatabaseEngine = Engine;

interface PortalServer {
  baseURL: string;
  /**
   * Each instance's own address, behind the proxy on PostgreSQL, for what a test asks of one process: an instance
   * that refuses a body before reading it (413) closes the connection at once, and a proxy still streaming that
   * body to it gets a broken pipe instead of the answer (nginx answers 502 there too).
   */
  instanceURLs: string[];
  /** The running portal's DATABASE_URL, for e2e/database.ts (e.g. to arm a provider fault mid-test). */
  databaseUrl: string;
  /** Everything the portal's instances wrote to stderr so far, line by line as each arrived. */
  stderr: () => string;
  /** Everything the portal's instances wrote to stdout so far (the request log, the demo-seed line). */
  stdout: () => string;
}

/** How long a stopped portal may take to exit before it is killed. */
const STOP_GRACE_MS = 15_000;

/**
 * The run's migrated and demo-seeded databases that a portal's own database is copied from (e2e/global-setup.ts):
 * a PostgreSQL database's name, a SQLite folder. Each start of a fresh portal migrated and seeded its own, some
 * seconds of CPU each.
 */
const SEEDED_COPIES: { postgres?: string; sqlite?: string } = {
  postgres: process.env.E2E_SEEDED_POSTGRES,
  sqlite: process.env.E2E_SEEDED_SQLITE,
};

/** How many instances serve a portal behind one port: two on PostgreSQL, as a deployment past one machine runs. */
const INSTANCES: Record<DatabaseEngine, number> = { sqlite: 1, postgres: 2 };

/** Where a portal's folder keeps its database's URL, so that a restart on that folder finds the same database. */
const DATABASE_URL_FILE = "database-url";

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const address = probe.address();
      probe.close(() =>
        typeof address === "object" && address ? resolve(address.port) : reject(new Error("no port")),
      );
    });
  });
}

const STARTUP_LIMIT_MS = 60_000;

/**
 * Waits until this child says it listens on `port` and answers /healthz. The listen line matters: the free port
 * is probed before the child binds it, so another portal that took it meanwhile could answer in its place.
 */
async function waitForHealth(baseURL: string, port: number, child: ChildProcess, output: () => string): Promise<void> {
  // Wide: a first start migrates and seeds, and a busy two-core machine can take many times its quiet minute's time.
  const deadline = Date.now() + STARTUP_LIMIT_MS;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`The portal exited during start-up:\n${output()}`);
    try {
      const listening = output().includes(`[portal] http://localhost:${port}\n`);
      if (listening && (await fetch(`${baseURL}/healthz`, { signal: AbortSignal.timeout(5_000) })).ok) return;
    } catch {
      // not answering yet
    }
    await sleep(100);
  }
  throw new Error(`The portal did not answer /healthz within ${STARTUP_LIMIT_MS / 1000} s:\n${output()}`);
}

/** Appends what a stream writes to `log` a whole line at a time, so that two instances' lines never mix. */
function linesOf(stream: Readable | null, log: (text: string) => void) {
  let partial = "";
  stream?.on("data", (chunk: Buffer) => {
    partial += chunk.toString();
    const end = partial.lastIndexOf("\n") + 1;
    if (end > 0) {
      log(partial.slice(0, end));
      partial = partial.slice(end);
    }
  });
  stream?.on("end", () => partial && log(partial));
}

/**
 * The PostgreSQL server the tests make their databases on: TEST_POSTGRES_URL (.ci/run starts one), else the one
 * e2e/global-setup.ts started for this run.
 */
function postgresServer(): string {
  const server = process.env.TEST_POSTGRES_URL;
  if (server) return server;
  throw new Error(
    `No PostgreSQL server for the tests: ${process.env.E2E_POSTGRES_UNAVAILABLE ?? "set TEST_POSTGRES_URL"}`,
  );
}

/**
 * A new database for a portal that starts on PostgreSQL: a copy of the run's migrated and demo-seeded one
 * (e2e/global-setup.ts) when `template` names it, else empty (the portal migrates and seeds it itself).
 */
async function newPostgresDatabase(template: string | undefined): Promise<{ name: string; url: string }> {
  const name = `portal_e2e_${randomBytes(6).toString("hex")}`;
  return { name, url: await createDatabase(postgresServer(), name, template) };
}

type InstanceOptions = {
  workers?: number;
  port?: number;
  env: Record<string, string>;
  log: { stdout: (text: string) => void; stderr: (text: string) => void };
};

/** How many ports a portal given none tries: a probed port can be taken by another test's process before the bind. */
const PORT_ATTEMPTS = 3;

/**
 * One process of the portal, listening on a port of its own: on a free one when `port` names none, and on another
 * when another process took that one between the probe and the portal's bind.
 */
async function startInstance(options: InstanceOptions) {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await startInstanceOn(options.port ?? (await freePort()), options);
    } catch (error) {
      const portTaken = error instanceof Error && error.message.includes("EADDRINUSE");
      if (!portTaken || options.port !== undefined || attempt === PORT_ATTEMPTS) throw error;
    }
  }
}

async function startInstanceOn(port: number, options: InstanceOptions) {
  let output = "";
  const child = spawn(process.execPath, [options.workers ? "scripts/start.mjs" : "scripts/server.mjs"], {
    env: {
      ...process.env,
      ...(options.workers ? { WEB_CONCURRENCY: String(options.workers) } : {}),
      ...options.env,
      PORT: String(port),
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  // The portal's error log gets its lines once it answers: a start that fails (on a port another process took, say)
  // leaves nothing in it for a test that reads it for errors, and says its lines in its error instead. What it did
  // before it failed did happen (it may be the instance that migrated and seeded), so its other lines go to the log
  // as they come.
  let answering = false;
  const held: (() => void)[] = [];
  linesOf(child.stdout, (text) => {
    output += text;
    options.log.stdout(text);
  });
  linesOf(child.stderr, (text) => {
    output += text;
    if (answering) options.log.stderr(text);
    else held.push(() => options.log.stderr(text));
  });
  try {
    await waitForHealth(`http://127.0.0.1:${port}`, port, child, () => output);
  } catch (error) {
    child.kill("SIGKILL");
    throw error;
  }
  answering = true;
  for (const write of held) write();
  return { child, port, output: () => output };
}

/**
 * Starts the built portal on a free port with a database of its own on `engine`, or, given the directory of one
 * started before, on the database it left (a restart); the caller then owns the directory. The database is a copy of
 * the run's migrated and demo-seeded one (e2e/global-setup.ts), but for a `firstStart` and a portal started with
 * settings or workers of its own (which may seed otherwise, or not at all): those start on an empty database, which
 * they migrate and seed themselves. On PostgreSQL two instances serve the portal, behind a proxy that sends each request to the next
 * one (e2e/round-robin-proxy.ts), as stateless instances behind a load balancer; on SQLite, one. With `workers`,
 * one instance starts as `npm start` does (scripts/start.mjs: a primary and that many worker processes). With
 * `ownPublicUrl`, PUBLIC_URL is the portal's own address (what Stripe's pages send the cardholder back to).
 */
export async function startPortal(
  options: { env?: Record<string, string>; workers?: number; ownPublicUrl?: boolean; firstStart?: boolean } & (
    { engine: DatabaseEngine; directory?: undefined } | { directory: string; engine?: undefined }
  ),
) {
  const { directory: reused, env: extraEnv = {}, workers, ownPublicUrl = false } = options;
  const directory = reused ?? mkdtempSync(path.join(tmpdir(), "gk-portal-e2e-"));
  const copied = !options.firstStart && !options.env && !workers ? SEEDED_COPIES : {};
  const databaseUrlFile = path.join(directory, DATABASE_URL_FILE);
  let databaseUrl: string;
  /** The PostgreSQL database this start made, which its stop drops. */
  let madeDatabase: string | undefined;
  if (reused) databaseUrl = readFileSync(databaseUrlFile, "utf8");
  else {
    if (options.engine === "postgres")
      ({ name: madeDatabase, url: databaseUrl } = await newPostgresDatabase(copied.postgres));
    else {
      // The database file with the secrets kept beside it.
      if (copied.sqlite) cpSync(copied.sqlite, directory, { recursive: true });
      databaseUrl = `file:${path.join(directory, "portal.sqlite")}`;
    }
    writeFileSync(databaseUrlFile, databaseUrl);
  }
  const engine = databaseChoice(databaseUrl)!.engine;
  const count = workers ? 1 : INSTANCES[engine];
  // The port the browser talks to (the proxy's, or the one instance's), chosen first when PUBLIC_URL must name it.
  const frontPort = ownPublicUrl ? await freePort() : undefined;
  let stdout = "";
  let stderr = "";
  const log = { stdout: (text: string) => (stdout += text), stderr: (text: string) => (stderr += text) };
  // Every instance gets the same settings: they share sessions only because they share their secrets.
  const env = {
    ...PORTAL_SETTINGS,
    DATABASE_URL: databaseUrl,
    ...(frontPort ? { PUBLIC_URL: `http://127.0.0.1:${frontPort}` } : {}),
    ...extraEnv,
  };
  // The instances start at once, as a deployment's do: the first migrates and seeds, under the start-up lock.
  const instancePort = count === 1 ? frontPort : undefined;
  const started = await Promise.allSettled(
    Array.from({ length: count }, () => startInstance({ workers, port: instancePort, env, log })),
  );
  const instances = started.flatMap((result) => (result.status === "fulfilled" ? [result.value] : []));
  const proxy =
    count > 1 && instances.length === count
      ? await startRoundRobinProxy(
          instances.map((i) => i.port),
          frontPort,
        )
      : null;

  /** Stops the instances and the proxy; SIGKILL stands for a crash (nothing gets to finish). keepData leaves the database for a restart. */
  async function stop({ signal = "SIGTERM", keepData = false }: { signal?: NodeJS.Signals; keepData?: boolean } = {}) {
    await Promise.all(instances.map(({ child, output }) => stopInstance(child, signal, output)));
    await proxy?.close();
    if (!reused && !keepData) {
      rmSync(directory, { recursive: true, force: true });
      if (madeDatabase) await dropDatabase(postgresServer(), madeDatabase);
    }
  }

  const failed = started.find((result) => result.status === "rejected");
  if (failed) {
    await stop();
    throw failed.reason;
  }
  const baseURL = proxy?.url ?? `http://127.0.0.1:${instances[0].port}`;
  databaseAt.set(baseURL, databaseUrl);
  return {
    baseURL,
    instanceURLs: instances.map(({ port }) => `http://127.0.0.1:${port}`),
    directory,
    /** The instances' processes (with `workers`, the primary's). */
    pids: instances.map(({ child }) => child.pid!),
    databaseUrl,
    stderr: () => stderr,
    stdout: () => stdout,
    stop,
  };
}

async function stopInstance(child: ChildProcess, signal: NodeJS.Signals, output: () => string) {
  const exited = () => child.exitCode !== null || child.signalCode !== null;
  if (exited()) return;
  const exit = new Promise((resolve) => child.once("exit", resolve));
  child.kill(signal);
  const stopped = await Promise.race([exit.then(() => true), sleep(STOP_GRACE_MS).then(() => false)]);
  if (!stopped) {
    // Docker's grace before SIGKILL is 10 s: a portal slower than that to stop is a finding, not a hang here.
    console.warn(
      `The portal did not exit within ${STOP_GRACE_MS / 1000} s of ${signal}; killed. Its last output:\n${output().slice(-2_000)}`,
    );
    child.kill("SIGKILL");
    await exit;
  }
}

interface TestFixtures {
  /** HTTP statuses this test expects the browser to report (e.g. a 403 page), so they are not counted as errors. */
  expectedHttpErrors: number[];
  /** Server log lines this test causes on purpose (e.g. an injected provider failure), each matched by one pattern. */
  expectedServerErrors: RegExp[];
  guardConsole: void;
}

export interface WorkerOptions {
  /** The engine this project's portals run on (playwright.config.ts): every flow meets both across the projects. */
  databaseEngine: DatabaseEngine;
}

export const test = base.extend<TestFixtures, WorkerOptions & { portal: PortalServer }>({
  databaseEngine: ["sqlite", { option: true, scope: "worker" }],
  portal: [
    async ({ databaseEngine }, use) => {
      // A first start: each worker's portal migrates and seeds its database, as a fresh clone's does.
      const server = await startPortal({ engine: databaseEngine, firstStart: true });
      await use(server);
      await server.stop();
    },
    { scope: "worker" },
  ],
  baseURL: async ({ portal }, use) => {
    await use(portal.baseURL);
  },
  context: async ({ context, portal }, use) => {
    servesPortal(context, portal.baseURL);
    await use(context);
  },
  expectedHttpErrors: [[], { option: true }],
  expectedServerErrors: [[], { option: true }],
  /** A stray console.error in the browser, an uncaught page error, or an error on the server fails the test. */
  guardConsole: [
    async ({ page, portal, expectedHttpErrors, expectedServerErrors }, use) => {
      const problems: string[] = [];
      reportBrowserErrors(page, problems, expectedHttpErrors);
      const serverOutputBefore = portal.stderr().length;
      await use();
      const serverErrors = portal
        .stderr()
        .slice(serverOutputBefore)
        .split("\n")
        .filter((line) => line.trim() && !expectedServerErrors.some((pattern) => pattern.test(line)))
        .join("\n");
      if (serverErrors) problems.push(`server stderr: ${serverErrors}`);
      expect(problems, "no errors in the browser console or on the server").toEqual([]);
    },
    { auto: true },
  ],
});

export { expect };

/**
 * Adds the page's console errors and uncaught errors to `problems`, but for the statuses a test expects (Chromium
 * logs a failed load of each as a console error).
 */
export function reportBrowserErrors(page: Page, problems: string[], expectedHttpErrors: number[] = []) {
  const allowed = new RegExp(`status of (${expectedHttpErrors.join("|") || "none"})\\b`);
  page.on("console", (message) => {
    if (message.type() === "error" && !allowed.test(message.text())) problems.push(`console.error: ${message.text()}`);
  });
  // The stack and the page say where a rare error came from, when a walk on a busy machine meets one.
  page.on("pageerror", (error) => problems.push(`page error on ${page.url()}: ${error.stack ?? error.message}`));
}

/** The CSRF token the page at `path` renders for this client (its cookie is in the client's jar). */
export async function csrfOf(api: APIRequestContext, path: string): Promise<string> {
  const html = await (await api.get(path)).text();
  const token = /name="csrf" value="([^"]+)"/.exec(html)?.[1];
  if (!token) throw new Error(`no CSRF token on ${path}`);
  return token;
}

/** Signs in through the login form the way a person does, and waits for the portal to show. */
export async function signIn(page: Page, email: string, password = DEMO_PASSWORD, startAt = "/login") {
  await page.goto(startAt);
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Sign in" }).click();
}

/** The database of each portal this worker started, by its address. */
const databaseAt = new Map<string, string>();

/** The portal each browser context talks to, for signInAs to start its sessions in that portal's database. */
const portalOfContext = new WeakMap<BrowserContext, { baseURL: string; databaseUrl: string }>();

/** Says which portal, by its address, a browser context a test made talks to (the test's own `page` is known already). */
export function servesPortal(context: BrowserContext, baseURL: string) {
  const databaseUrl = databaseAt.get(baseURL);
  if (!databaseUrl) throw new Error(`no portal of this worker answers at ${baseURL}`);
  portalOfContext.set(context, { baseURL, databaseUrl });
}

/**
 * The person signed in, on Home: with a session written into the portal's database (e2e/sessions.ts), for the walks
 * about what comes after signing in. The walks about signing in use signIn, the form.
 */
export async function signInAs(page: Page, email: string) {
  const portal = portalOfContext.get(page.context());
  if (!portal) throw new Error("signInAs: this browser context's portal is unknown (servesPortal)");
  await startSessionIn(page.context(), portal.baseURL, portal.databaseUrl, email);
  await page.goto(`${portal.baseURL}/home`);
  await expect(page.getByRole("heading", { level: 1, name: "Home" })).toBeVisible();
}

/**
 * Holds every build script of the pages to come until the returned `hydrate` is called, so a test can act on a
 * page that is shown but not yet hydrated, as on a slow link. Open the page with `waitUntil: "commit"`: its
 * load event waits for the scripts.
 */
export async function holdScripts(page: Page): Promise<() => void> {
  let hydrate = () => {};
  const scriptsHeld = new Promise<void>((resolve) => (hydrate = resolve));
  await page.route(/\/build\/.*\.js$/, async (route) => {
    await scriptsHeld;
    await route.continue();
  });
  return hydrate;
}

/**
 * No serious or critical WCAG 2 A/AA violation on the current page, hydrated: called in the JavaScript project, which
 * scans each of the portal's states once. Its server HTML is the markup hydration adopts (a difference fails the walk
 * as a hydration error), and what scripts change after it only shows here; the no-JavaScript walk of the same flow
 * would load the same URL's same HTML again to scan it.
 */
export async function expectAccessible(page: Page) {
  const results = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]).analyze();
  const serious = results.violations
    .filter((violation) => violation.impact === "serious" || violation.impact === "critical")
    .map(
      (violation) =>
        `${violation.id}: ${violation.help} (${violation.nodes.map((node) => node.target.join(" ")).join(", ")})`,
    );
  expect(serious, `accessibility violations on ${page.url()}`).toEqual([]);
}

/**
 * No serious or critical WCAG 2 A/AA violation in the current URL's HTML as the server sends it, for pages with
 * nothing to hydrate (the content pages). axe runs as a script in the page, so the URL is loaded again in a context
 * that runs no script of the portal's own: the DOM is exactly the server's HTML.
 */
export async function expectServerHtmlAccessible(page: Page) {
  const browser = page.context().browser();
  if (!browser) throw new Error("no browser to scan the page with");
  const scanContext = await browser.newContext({
    javaScriptEnabled: true,
    storageState: await page.context().storageState(),
  });
  try {
    const scanPage = await scanContext.newPage();
    await scanPage.route(/\.js(\?|$)/, (route) => route.abort());
    await scanPage.goto(page.url());
    await expectAccessible(scanPage);
  } finally {
    await scanContext.close();
  }
}
