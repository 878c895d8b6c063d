import autocannon from "autocannon";
import { fork } from "node:child_process";
import { fileURLToPath } from "node:url";
import { HOST } from "./portal.mjs";

export const LOAD = { connections: 50, warmupSeconds: 2, seconds: 10 };

/**
 * Requests per second and latency for one URL under LOAD.connections concurrent keep-alive
 * connections, after a short warm-up so that the JIT and caches are settled. No Accept-Encoding is
 * sent, so the numbers are for rendering, not compression.
 */
export async function loadTest(url, headers = {}) {
  const options = { url, headers, connections: LOAD.connections };
  await autocannon({ ...options, duration: LOAD.warmupSeconds });
  const result = await autocannon({ ...options, duration: LOAD.seconds });
  return {
    requestsPerSecond: result.requests.average,
    latencyMs: { p50: result.latency.p50, p99: result.latency.p99, max: result.latency.max },
    requests: result.requests.total,
    bytesPerResponse: Math.round(result.throughput.total / Math.max(result.requests.total, 1)),
    // autocannon counts timeouts (no answer within 10 s) among its errors; they are timings, not faults.
    timeouts: result.timeouts,
    errors: result.errors - result.timeouts,
    non2xx: result.non2xx,
  };
}

/**
 * The same as loadTest for two targets measured in turns, A B B A, each turn `seconds` long (LOAD.seconds unless
 * given) after a warm-up of its own: what the machine does besides (its load drifts over a minute on a shared host)
 * falls on both alike, so their ratio holds where two runs one after the other differ by a third. Requests per second
 * are over the four turns, and each turn's own are kept in order (their gap shows how much the machine moved); p50
 * and p99 are the means of each target's two turns' own.
 * @param {[{ url: string, headers?: Record<string, string> }, { url: string, headers?: Record<string, string> }]} targets
 */
export async function loadTestsInTurns(targets, { seconds = LOAD.seconds } = {}) {
  const run = ({ url, headers = {} }, duration) =>
    autocannon({ url, headers, connections: LOAD.connections, duration });
  const turns = [[], []];
  for (const index of [0, 1, 1, 0]) {
    // Each turn after its own warm-up, as loadTest's one run: the other's turn left this one idle long enough for
    // its balancer to drop its connections to the instances, whose first requests would otherwise be the p99.
    await run(targets[index], LOAD.warmupSeconds);
    turns[index].push(await run(targets[index], seconds));
  }
  return turns.map((results) => {
    const sum = (pick) => results.reduce((total, result) => total + pick(result), 0);
    const mean = (pick) => sum(pick) / results.length;
    const requests = sum((result) => result.requests.total);
    const timeouts = sum((result) => result.timeouts);
    return {
      requestsPerSecond: requests / sum((result) => result.duration),
      turnsRequestsPerSecond: results.map((result) => result.requests.total / result.duration),
      latencyMs: {
        p50: mean((result) => result.latency.p50),
        p99: mean((result) => result.latency.p99),
        max: Math.max(...results.map((result) => result.latency.max)),
      },
      requests,
      bytesPerResponse: Math.round(sum((result) => result.throughput.total) / Math.max(requests, 1)),
      timeouts,
      errors: sum((result) => result.errors) - timeouts,
      non2xx: sum((result) => result.non2xx),
    };
  });
}

/** Starts scripts/bench/bare-server.mjs answering `bytes` bytes; resolves to its URL and a stop(). */
export async function startBareServer(bytes) {
  const child = fork(fileURLToPath(new URL("bare-server.mjs", import.meta.url)), [String(bytes)], { stdio: "inherit" });
  const exited = new Promise((resolve) => child.once("exit", resolve));
  const port = await new Promise((resolve, reject) => {
    child.once("message", (message) => resolve(message.port));
    child.once("exit", (code) => reject(new Error(`the bare server exited (${code}) before listening`)));
  });
  return {
    url: `http://${HOST}:${port}/`,
    // The child exits when its IPC channel closes, so it also goes if the bench dies.
    async stop() {
      if (child.connected) child.disconnect();
      await exited;
    },
  };
}
