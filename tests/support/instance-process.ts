import { spawn } from "node:child_process";
import type pg from "pg";

/**
 * A portal instance of its own on the test database, as behind a load balancer: a process running `script` (under
 * tests/support) that says "ready" once its pool is open, waits for "go" on its stdin, does its work, prints what it
 * did and exits. A test holds a row first and lets the instances go, so that their transactions meet for certain.
 * An instance that takes several commands is told each on a line of its own, the last by `go`, which ends its input.
 */
export function startInstanceProcess(script: string, args: string[], env: Record<string, string>) {
  const child = spawn(process.execPath, ["--import", "tsx", `tests/support/${script}`, ...args], {
    env: { ...process.env, SEED_DEMO: "true", NODE_ENV: "test", ...env },
    stdio: ["pipe", "pipe", "pipe"],
  });
  let output = "";
  const exited = new Promise<number | null>((resolve) => child.on("exit", resolve));
  const ready = new Promise<void>((resolve, reject) => {
    child.stdout.on("data", (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes("ready\n")) resolve();
    });
    child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
    void exited.then((code) => reject(new Error(`The instance exited (${code}) before it was ready:\n${output}`)));
  });
  return {
    ready,
    go: (line = "go") => child.stdin.end(`${line}\n`),
    /** Tells it `line`, its input left open for another; its output once that matches `pattern`. */
    tell(line: string, pattern: RegExp): Promise<string> {
      child.stdin.write(`${line}\n`);
      return new Promise((resolve, reject) => {
        const check = () => {
          if (!pattern.test(output)) return;
          child.stdout.off("data", check);
          resolve(output);
        };
        child.stdout.on("data", check);
        void exited.then((code) => reject(new Error(`The instance exited (${code}) before ${pattern}:\n${output}`)));
      });
    },
    /** What it has printed so far. */
    said: () => output,
    /** What it printed, once it exited; a failure throws with it. */
    async finished(): Promise<string> {
      const code = await exited;
      if (code !== 0) throw new Error(`The instance failed (${code}):\n${output}`);
      return output;
    },
    stop: () => child.kill("SIGKILL"),
  };
}

/** How many connections to the test database wait on a lock (a held row) right now. */
export async function waitingOnLocks(pool: pg.Pool): Promise<number> {
  const { rows } = await pool.query<{ n: number }>(
    "select count(*)::int as n from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'",
  );
  return rows[0].n;
}
