// `npm start` and the Docker image: one portal process per core behind one port (node:cluster). The
// primary only supervises: it forks the workers, restarts one that dies and stops them all on SIGTERM.
// WEB_CONCURRENCY sets the number of workers (default: one per core the machine offers this process).
import cluster from "node:cluster";
import { availableParallelism } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("..", import.meta.url));

/** What each worker runs: the single-process server for the built app (scripts/server.mjs, decision 050). */
export const SERVER_ENTRY = [path.join(ROOT, "scripts/server.mjs")];

/** A worker that dies this soon after starting is failing at start-up: give up rather than loop. */
const CRASH_LOOP_MS = 5_000;
/** How long workers get to finish their requests on SIGTERM before they are killed. */
const SHUTDOWN_GRACE_MS = 10_000;

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
  try {
    count = workerCount();
  } catch (error) {
    console.error(error.message);
    process.exit(1);
  }
  // The workers share the database, and with it the job leases and the throttles' counters (decisions 042, 052).
  cluster.setupPrimary({ exec: SERVER_ENTRY[0], args: SERVER_ENTRY.slice(1) });
  let stopping = false;
  const startedAt = new Map();

  const fork = () => {
    const worker = cluster.fork();
    startedAt.set(worker.id, Date.now());
    return worker;
  };

  cluster.on("exit", (worker, code, signal) => {
    const lived = Date.now() - (startedAt.get(worker.id) ?? 0);
    startedAt.delete(worker.id);
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
    // disconnect() closes the worker's listener, lets its open requests finish, then drops the IPC
    // channel, after which the worker exits by itself.
    for (const worker of Object.values(cluster.workers ?? {})) worker?.disconnect();
    const force = setTimeout(() => {
      for (const worker of Object.values(cluster.workers ?? {})) worker?.process.kill("SIGKILL");
    }, SHUTDOWN_GRACE_MS);
    force.unref();
    const done = () => {
      if (Object.keys(cluster.workers ?? {}).length === 0) process.exit(exitCode);
    };
    cluster.on("exit", done);
    done();
  }
  for (const signal of ["SIGTERM", "SIGINT"]) process.on(signal, () => shutdown(0));

  // The first worker migrates (and in demo mode seeds) the database alone; the others start once it
  // listens, so no two processes run the migrations at the same time.
  const first = fork();
  await new Promise((resolve) => {
    first.once("listening", resolve);
    first.once("exit", resolve);
  });
  for (let index = 1; index < count && !stopping; index += 1) fork();
}

if (cluster.isPrimary && process.argv[1] === fileURLToPath(import.meta.url)) await runPrimary();
