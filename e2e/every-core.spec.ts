import { readFileSync } from "node:fs";
import { get } from "node:http";
import { setTimeout as sleep } from "node:timers/promises";
import { CRASH_LOOP_MS } from "../scripts/start.mjs";
import { DEMO, expect, signIn, startPortal, test } from "./fixtures";

/**
 * `npm start` and the Docker image run a primary that listens and one worker process per core, each new
 * connection going to the next worker in turn (decision 135). A browser's connections land on different
 * workers, so everything a page needs (session, drafts, CSRF token) must hold across them.
 */

type Cluster = Awaited<ReturnType<typeof startPortal>>;

/** The worker processes of a portal started with `workers` (the primary's children). */
function workerPids(cluster: Cluster): number[] {
  const children = readFileSync(`/proc/${cluster.pids[0]}/task/${cluster.pids[0]}/children`, "utf8");
  return children.trim().split(/\s+/).filter(Boolean).map(Number);
}

/** One request on a connection of its own, as a new visitor's browser opens it. */
function statusOnNewConnection(url: string): Promise<number> {
  return new Promise((resolve, reject) => {
    get(url, { agent: false }, (response) => {
      response.resume();
      resolve(response.statusCode ?? 0);
    }).once("error", reject);
  });
}

test.describe("the portal on every core", () => {
  let cluster: Cluster;
  test.beforeEach(async ({ databaseEngine }) => {
    cluster = await startPortal({ engine: databaseEngine, workers: 2 });
  });
  test.afterEach(async () => {
    await cluster.stop();
  });

  test("a customer signs in and moves between pages that two worker processes serve", async ({ page }) => {
    await signIn(page, DEMO.customer, undefined, `${cluster.baseURL}/login`);
    await expect(page).toHaveURL(`${cluster.baseURL}/home`);
    for (const [path, heading] of [
      ["/licenses", "Licenses"],
      ["/account", "Account"],
      ["/home", "Home"],
    ] as const) {
      await page.goto(`${cluster.baseURL}${path}`);
      await expect(page.getByRole("heading", { level: 1, name: heading })).toBeVisible();
    }
  });

  test("a worker that dies is replaced, and the portal answers new connections meanwhile", async ({
    javaScriptEnabled,
  }) => {
    test.skip(!javaScriptEnabled, "processes only: once is enough");
    const [first, second] = workerPids(cluster);
    expect(second, "two workers").toBeDefined();
    // A worker that dies in its first 5 s stops the portal (a crash loop at start-up); this one has run longer.
    await sleep(CRASH_LOOP_MS + 1_000);
    process.kill(first, "SIGKILL");
    // The primary forks a replacement once it sees the exit; the portal answers throughout.
    await expect.poll(() => workerPids(cluster).filter((pid) => pid !== first).length, { timeout: 20_000 }).toBe(2);
    const statuses = [];
    for (let request = 0; request < 8; request += 1)
      statuses.push(await statusOnNewConnection(`${cluster.baseURL}/healthz`));
    expect(statuses).toEqual(Array(8).fill(200));
  });

  test("SIGTERM stops the primary and every worker", async ({ javaScriptEnabled }) => {
    test.skip(!javaScriptEnabled, "processes only: once is enough");
    const workers = workerPids(cluster);
    expect(workers).toHaveLength(2);
    await cluster.stop();
    for (const pid of workers) expect(() => process.kill(pid, 0), `worker ${pid} has exited`).toThrow();
  });
});
