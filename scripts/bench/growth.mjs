import { performance } from "node:perf_hooks";
import { median } from "./slow-link.mjs";

const WARMUP = 5;
const REQUESTS = 40;

/**
 * The time a page takes to render for each account, one request at a time (so it is the page's own
 * cost, not queueing): the median over REQUESTS sequential requests after WARMUP thrown away. `accounts`
 * maps a name to its cookie jar; every page is timed for every account, interleaved page by page so
 * that a change in the machine's load hits both alike.
 */
export async function timePages(baseUrl, paths, accounts) {
  const results = [];
  for (const path of paths) {
    const row = { path };
    for (const [name, jar] of Object.entries(accounts)) {
      const times = [];
      for (let n = 0; n < WARMUP + REQUESTS; n += 1) {
        const started = performance.now();
        const response = await fetch(new URL(path, baseUrl), { headers: { cookie: jar.header }, redirect: "manual" });
        await response.arrayBuffer();
        if (response.status !== 200) throw new Error(`${path} answered ${response.status} for the ${name} account`);
        if (n >= WARMUP) times.push(performance.now() - started);
      }
      row[name] = { medianMs: medianOf(times), requests: REQUESTS };
    }
    results.push(row);
  }
  return results;
}

/** median() rounds to whole numbers; these times are a few milliseconds, so keep a decimal. */
const medianOf = (times) => median(times.map((time) => Math.round(time * 10))) / 10;
