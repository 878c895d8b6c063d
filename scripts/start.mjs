// `npm start` and the Docker image: one portal process per core behind one port (node:cluster). The
// primary renders nothing: it forks the workers, restarts one that dies and stops them all on SIGTERM, and it
// listens on the port and hands each new connection to the next worker in turn (decision 135).
// WEB_CONCURRENCY sets the number of workers (default: one per core the machine offers this process).
// One scrape of the metrics answers for every worker: the primary gathers them (prom-client's cluster aggregation)
// for a worker's /metrics (METRICS_TOKEN) and on METRICS_PORT, which it serves itself.
import { randomUUID } from "node:crypto";
import cluster from "node:cluster";
import { createServer } from "node:http";
import net from "node:net";
import { availableParallelism } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { AggregatorRegistry } from "prom-client";

const ROOT = fileURLToPath(new URL("..", import.meta.url));

/** What each worker runs: the single-process server for the built app (scripts/server.mjs, decision 050). */
export const SERVER_ENTRY = [path.join(ROOT, "scripts/server.mjs")];

/** What the primary tells its workers (PORTAL_CONNECTIONS) and what they send each other over the IPC channel. */
export const FROM_PRIMARY = "from-primary";
export const WORKER_READY = "portal:ready";
export const NEW_CONNECTION = "portal:connection";
const METRICS_REQUEST = "portal:metrics-request";
const METRICS_ANSWER = "portal:metrics-answer";

/**
 * Picks the worker for each new connection: strictly in turn among those ready. Node's own round-robin hands a
 * worker its next connection only once it has acknowledged the last one, so a burst of connections went
 * mostly to whichever worker was less busy at that instant (14 against 36 of 50 in one measurement), and
 * keep-alive connections stay where they land.
 */
export function inTurn() {
  let turn = 0;
  return (workers) => (workers.length === 0 ? undefined : workers[turn++ % workers.length]);
}

/** A worker that dies this soon after starting is failing at start-up: give up rather than loop. */
export const CRASH_LOOP_MS = 5_000;
/**
 * SHUTDOWN_GRACE_MS: how long a stopping process gets to finish its requests and give back its jobs (10 s, Docker's
 * own grace before it kills); it exits then, and the primary kills a worker that has not a second later.
 */
export function shutdownGraceMs(value = process.env.SHUTDOWN_GRACE_MS) {
  if (value === undefined || value === "") return 10_000;
  const ms = Number(value);
  if (!Number.isInteger(ms) || ms < 0 || ms > 600_000) {
    throw new Error(`SHUTDOWN_GRACE_MS must be a whole number of milliseconds up to 600000, not "${value}".`);
  }
  return ms;
}

/** METRICS_PORT: a port of its own on which /metrics is served without a token (unset: none). */
export function metricsPort(value = process.env.METRICS_PORT) {
  if (value === undefined || value === "") return undefined;
  const port = Number(value);
  if (!Number.isInteger(port) || port < 1 || port > 65535) {
    throw new Error(`METRICS_PORT must be a port number, not "${value}".`);
  }
  return port;
}

/**
 * Serves `/metrics` (and nothing else) on the metrics port, on HOST if set. It asks for no token: keep the port
 * where only the scraper reaches it.
 */
export function serveMetricsPort(port, metrics, contentType) {
  const server = createServer((req, res) => {
    if (req.method !== "GET" || req.url.split("?")[0] !== "/metrics") {
      res.writeHead(404, { "Content-Type": "text/plain; charset=utf-8" }).end("Only /metrics is served here.");
      return;
    }
    metrics().then(
      (text) => res.writeHead(200, { "Content-Type": contentType, "Cache-Control": "no-store" }).end(text),
      (error) => res.writeHead(500, { "Content-Type": "text/plain; charset=utf-8" }).end(error.message),
    );
  });
  server.on("error", (error) => console.error(`The metrics port cannot listen: ${error.message}`));
  return process.env.HOST ? server.listen(port, process.env.HOST) : server.listen(port);
}

/** A worker's scrape: the primary gathers every worker's metrics and answers with their aggregate. */
export function askPrimaryForMetrics() {
  const id = randomUUID();
  return new Promise((resolve, reject) => {
    const answered = (message) => {
      if (message?.type !== METRICS_ANSWER || message.id !== id) return;
      process.off("message", answered);
      clearTimeout(timer);
      if (message.error) reject(new Error(message.error));
      else resolve(message.text);
    };
    const timer = setTimeout(() => {
      process.off("message", answered);
      reject(new Error("The primary did not answer with the metrics."));
    }, 10_000);
    process.on("message", answered);
    process.send({ type: METRICS_REQUEST, id });
  });
}

/**
 * Listens on PORT (on HOST if set) and says where, as the primary and the single-process server both do;
 * `onListening` runs after that.
 */
export function listenOnPort(server, onListening = () => {}) {
  const port = Number(process.env.PORT ?? 3000);
  const announce = () => {
    console.log(`[portal] http://localhost:${port}`);
    onListening();
  };
  return process.env.HOST ? server.listen(port, process.env.HOST, announce) : server.listen(port, announce);
}

export function workerCount(value = process.env.WEB_CONCURRENCY, cores = availableParallelism()) {
  if (value === undefined || value.trim() === "") return cores;
  const count = Number(value);
  if (!Number.isInteger(count) || count < 1) {
    throw new Error(`WEB_CONCURRENCY must be a whole number of at least 1, not "${value}".`);
  }
  return count;
}

async function runPrimary() {
  let count;
  let grace;
  let ownMetricsPort;
  try {
    count = workerCount();
    grace = shutdownGraceMs();
    ownMetricsPort = metricsPort();
  } catch (error) {
    console.error(error.message);
    process.exit(1);
  }
  const metrics = new AggregatorRegistry();
  // The workers share the database, and with it the job leases and the throttles' counters (decisions 042, 052).
  // Traces, when asked for: the workers load OpenTelemetry before the server (scripts/telemetry.mjs).
  const telemetry = process.env.OTEL_EXPORTER_OTLP_ENDPOINT
    ? ["--import", path.join(ROOT, "scripts/telemetry.mjs")]
    : [];
  cluster.setupPrimary({
    exec: SERVER_ENTRY[0],
    args: SERVER_ENTRY.slice(1),
    execArgv: [...process.execArgv, ...telemetry],
  });
  let stopping = false;
  // Every worker process until its exit event, with the time it started. Not cluster.workers: that drops a
  // worker as soon as its channel closes, while it may still be finishing its requests.
  const startedAt = new Map();
  const ready = new Set();

  const fork = () => {
    const worker = cluster.fork({ PORTAL_CONNECTIONS: FROM_PRIMARY });
    startedAt.set(worker, Date.now());
    worker.on("message", (message) => {
      if (message === WORKER_READY) ready.add(worker);
      if (message?.type === METRICS_REQUEST) {
        metrics.clusterMetrics().then(
          (text) => worker.isConnected() && worker.send({ type: METRICS_ANSWER, id: message.id, text }),
          (error) =>
            worker.isConnected() && worker.send({ type: METRICS_ANSWER, id: message.id, error: error.message }),
        );
      }
    });
    return worker;
  };

  let metricsServer = null;
  const nextWorker = inTurn();
  const listener = net.createServer({ pauseOnConnect: true }, (socket) => {
    const worker = nextWorker([...ready]);
    if (!worker) {
      socket.destroy();
      return;
    }
    // The socket moves to the worker; the primary closes its own copy once it has been sent.
    worker.send(NEW_CONNECTION, socket, (error) => {
      if (error) socket.destroy();
    });
  });
  listener.on("error", (error) => {
    console.error(`The portal cannot listen: ${error.message}`);
    shutdown(1);
  });

  cluster.on("exit", (worker, code, signal) => {
    const lived = Date.now() - (startedAt.get(worker) ?? 0);
    startedAt.delete(worker);
    ready.delete(worker);
    if (stopping) return;
    console.error(`Portal worker ${worker.process.pid} stopped (${signal ?? `exit code ${code}`}).`);
    if (lived < CRASH_LOOP_MS) {
      console.error("It stopped during start-up; not restarting it. Stopping the portal.");
      shutdown(1);
      return;
    }
    fork();
  });

  function shutdown(exitCode = 0) {
    if (stopping) return;
    stopping = true;
    listener.close();
    metricsServer?.close();
    // disconnect() drops the IPC channel; the worker then takes no more connections, lets its open requests
    // finish and exits (scripts/server.mjs).
    for (const worker of startedAt.keys()) if (worker.isConnected()) worker.disconnect();
    const force = setTimeout(() => {
      for (const worker of startedAt.keys()) worker.process.kill("SIGKILL");
    }, grace + 1_000);
    force.unref();
    const done = () => {
      if (startedAt.size === 0) process.exit(exitCode);
    };
    cluster.on("exit", done);
    done();
  }
  for (const signal of ["SIGTERM", "SIGINT"]) process.on(signal, () => shutdown(0));

  const started = (worker) =>
    new Promise((resolve) => {
      worker.on("message", (message) => message === WORKER_READY && resolve());
      worker.once("exit", resolve);
    });
  // The first worker migrates (and in demo mode seeds) the database alone; the others start once it
  // is ready, so no two processes run the migrations at the same time.
  await started(fork());
  if (stopping) return;
  const others = Array.from({ length: count - 1 }, () => fork());
  // The port opens once every worker is ready: a keep-alive connection stays with the worker it is given, so
  // the connections opened in the first second (a load balancer's, a benchmark's) would all stay with the first.
  await Promise.all(others.map(started));
  if (stopping) return;
  listenOnPort(listener);
  metricsServer =
    ownMetricsPort === undefined
      ? null
      : serveMetricsPort(ownMetricsPort, () => metrics.clusterMetrics(), metrics.contentType);
}

if (cluster.isPrimary && process.argv[1] === fileURLToPath(import.meta.url)) await runPrimary();
