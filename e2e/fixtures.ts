import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { setTimeout as sleep } from "node:timers/promises";
import path from "node:path";
import AxeBuilder from "@axe-core/playwright";
import { test as base, expect, type Page } from "@playwright/test";

export const DEMO_PASSWORD = "GateKeeper-demo-1";
export const DEMO = {
  customer: "customer@example.com",
  distributor: "distributor@example.com",
  admin: "admin@example.com",
} as const;

interface PortalServer {
  baseURL: string;
  /** The running portal's DATABASE_URL, for e2e/database.ts (e.g. to arm a provider fault mid-test). */
  databaseUrl: string;
  /** Everything the server wrote to stderr so far. */
  stderr: () => string;
  /** Everything the server wrote to stdout so far (the request log, the demo-seed line). */
  stdout: () => string;
}

/** How long a stopped portal may take to exit before it is killed. */
const STOP_GRACE_MS = 15_000;

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

/**
 * Waits until this child says it listens on `port` and answers /healthz. The listen line matters: the free port
 * is probed before the child binds it, so another portal that took it meanwhile could answer in its place.
 */
async function waitForHealth(baseURL: string, port: number, child: ChildProcess, output: () => string): Promise<void> {
  const deadline = Date.now() + 20_000;
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
  throw new Error(`The portal did not answer /healthz within 20 s:\n${output()}`);
}

/**
 * Starts the built portal on a free port with an empty database (migrated and demo-seeded at start), or,
 * given a directory, on the database already there (a restart); the caller then owns the directory. With
 * `workers`, it starts as `npm start` does (scripts/start.mjs: a primary and that many worker processes).
 */
export async function startPortal({
  directory: reused,
  env: extraEnv = {},
  workers,
}: { directory?: string; env?: Record<string, string>; workers?: number } = {}) {
  const directory = reused ?? mkdtempSync(path.join(tmpdir(), "gk-portal-e2e-"));
  const databaseUrl = `file:${path.join(directory, "portal.sqlite")}`;
  const port = await freePort();
  let stdout = "";
  let stderr = "";
  const child = spawn(process.execPath, [workers ? "scripts/start.mjs" : "scripts/server.mjs"], {
    env: {
      ...process.env,
      ...(workers ? { WEB_CONCURRENCY: String(workers) } : {}),
      NODE_ENV: "production",
      PORT: String(port),
      DATABASE_URL: databaseUrl,
      SEED_DEMO: "true",
      // A crashed portal's jobs are taken over after the lease: short here, so restart tests wait seconds.
      JOB_LEASE_MS: "3000",
      JOB_BACKOFF_MS: "200",
      // Simulated Hubs are ready and running at once; a test that wants a slow one injects not_ready.
      HUB_SIM_STARTUP_SECONDS: "0",
      // 'Try again' after a Hub that is still coming up opens at once; the test of the 30 s rule sets its own wait.
      HUB_RETRY_WAIT_MS: "0",
      ...extraEnv,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  child.stdout?.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr?.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  const baseURL = `http://127.0.0.1:${port}`;
  await waitForHealth(baseURL, port, child, () => stdout + stderr);
  return {
    baseURL,
    directory,
    pid: child.pid,
    databaseUrl,
    stderr: () => stderr,
    stdout: () => stdout,
    /** Stops the server; SIGKILL stands for a crash (nothing gets to finish). keepData leaves the database for a restart. */
    async stop({ signal = "SIGTERM", keepData = false }: { signal?: NodeJS.Signals; keepData?: boolean } = {}) {
      const exited = () => child.exitCode !== null || child.signalCode !== null;
      if (!exited()) {
        const exit = new Promise((resolve) => child.once("exit", resolve));
        child.kill(signal);
        const stopped = await Promise.race([exit.then(() => true), sleep(STOP_GRACE_MS).then(() => false)]);
        if (!stopped) {
          // Docker's grace before SIGKILL is 10 s: a portal slower than that to stop is a finding, not a hang here.
          console.warn(
            `The portal did not exit within ${STOP_GRACE_MS / 1000} s of ${signal}; killed. Its last output:\n${(stdout + stderr).slice(-2_000)}`,
          );
          child.kill("SIGKILL");
          await exit;
        }
      }
      if (!reused && !keepData) rmSync(directory, { recursive: true, force: true });
    },
  };
}

interface TestFixtures {
  /** HTTP statuses this test expects the browser to report (e.g. a 403 page), so they are not counted as errors. */
  expectedHttpErrors: number[];
  /** Server log lines this test causes on purpose (e.g. an injected provider failure), each matched by one pattern. */
  expectedServerErrors: RegExp[];
  guardConsole: void;
}

export const test = base.extend<TestFixtures, { portal: PortalServer }>({
  portal: [
    // eslint-disable-next-line no-empty-pattern -- Playwright fixtures take their dependencies as a destructured object
    async ({}, use) => {
      const server = await startPortal();
      await use(server);
      await server.stop();
    },
    { scope: "worker" },
  ],
  baseURL: async ({ portal }, use) => {
    await use(portal.baseURL);
  },
  expectedHttpErrors: [[], { option: true }],
  expectedServerErrors: [[], { option: true }],
  /** A stray console.error in the browser, an uncaught page error, or an error on the server fails the test. */
  guardConsole: [
    async ({ page, portal, expectedHttpErrors, expectedServerErrors }, use) => {
      const problems: string[] = [];
      const allowed = new RegExp(`status of (${expectedHttpErrors.join("|") || "none"})\\b`);
      page.on("console", (message) => {
        if (message.type() === "error" && !allowed.test(message.text()))
          problems.push(`console.error: ${message.text()}`);
      });
      page.on("pageerror", (error) => problems.push(`page error: ${error.message}`));
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

/** Signs in through the login form the way a person does, and waits for the portal to show. */
export async function signIn(page: Page, email: string, password = DEMO_PASSWORD, startAt = "/login") {
  await page.goto(startAt);
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Sign in" }).click();
}

export async function signInAs(page: Page, email: string) {
  await signIn(page, email);
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
 * No serious or critical WCAG 2 A/AA violation on the current page. axe runs as a script in the page,
 * so without JavaScript the same URL is scanned in a context that runs no script of the portal's own:
 * the DOM is exactly the server's HTML.
 */
export async function expectAccessible(page: Page, javaScriptEnabled: boolean) {
  if (javaScriptEnabled) return expectNoSeriousViolations(page);
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
    await expectNoSeriousViolations(scanPage);
  } finally {
    await scanContext.close();
  }
}

async function expectNoSeriousViolations(page: Page) {
  const results = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]).analyze();
  const serious = results.violations
    .filter((violation) => violation.impact === "serious" || violation.impact === "critical")
    .map(
      (violation) =>
        `${violation.id}: ${violation.help} (${violation.nodes.map((node) => node.target.join(" ")).join(", ")})`,
    );
  expect(serious, `accessibility violations on ${page.url()}`).toEqual([]);
}
