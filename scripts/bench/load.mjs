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
