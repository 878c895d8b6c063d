import { performance } from "node:perf_hooks";
import { median } from "./slow-link.mjs";

const WARMUP = 10;
const REQUESTS = 100;

/**
 * The time a page takes to render for each account, one request at a time (so it is the page's own
 * cost, not queueing): the median over REQUESTS sequential requests after WARMUP thrown away. `accounts`
 * maps a name to its cookie jar; every page is timed for every account, the accounts taking turns request
 * by request, so that a change in the machine's load (other processes on a shared box) hits both alike.
 */
export async function timePages(baseUrl, paths, accounts) {
  const results = [];
  for (const path of paths) {
    const times = Object.fromEntries(Object.keys(accounts).map((name) => [name, []]));
    for (let n = 0; n < WARMUP + REQUESTS; n += 1) {
      for (const [name, jar] of Object.entries(accounts)) {
        const started = performance.now();
        const response = await fetch(new URL(path, baseUrl), { headers: { cookie: jar.header }, redirect: "manual" });
        await response.arrayBuffer();
        if (response.status !== 200) throw new Error(`${path} answered ${response.status} for the ${name} account`);
        if (n >= WARMUP) times[name].push(performance.now() - started);
      }
    }
    results.push({
      path,
      ...Object.fromEntries(
        Object.entries(times).map(([name, list]) => [name, { medianMs: medianOf(list), requests: REQUESTS }]),
      ),
    });
  }
  return results;
}

/** median() rounds to whole numbers; these times are a few milliseconds, so keep a decimal. */
const medianOf = (times) => median(times.map((time) => Math.round(time * 10))) / 10;
