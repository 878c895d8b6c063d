import { mkdirSync } from "node:fs";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import Database from "better-sqlite3";
import pg from "pg";
import type { DatabaseChoice } from "~/server/platform/config/database-url.server";

/** Gives a held start-up lock back. */
type Release = () => Promise<void>;

/**
 * Runs `work` (preparing the database: migrations, generated secrets, the demo seed, license files) while holding
 * the database's start-up lock, which every process starting on that database takes first. However many start at
 * once, they do the work one after another, so the work must find what an earlier holder did and leave it be.
 * The lock dies with its holder, even one killed, so a crash during start-up never blocks the next start.
 */
export async function withStartupLock<T>(database: DatabaseChoice, work: () => Promise<T>): Promise<T> {
  const release =
    database.engine === "postgres" ? await postgresStartupLock(database.url) : await sqliteStartupLock(database.file);
  try {
    return await work();
  } finally {
    await release();
  }
}

/** How often a process waiting for SQLite's start-up lock tries again. */
const SQLITE_RETRY_MS = 25;

/**
 * On SQLite, an exclusive transaction on a file of its own beside the database (`<file>.startup-lock`), on a
 * connection of its own. The operating system's lock on that file is what the others wait on, and it goes with
 * the process. Not the database file itself: the work runs on the portal's own connection, which would then wait
 * for this one. The wait polls without a busy timeout, which would block the event loop.
 */
async function sqliteStartupLock(file: string): Promise<Release> {
  const lockFile = `${path.resolve(file)}.startup-lock`;
  mkdirSync(path.dirname(lockFile), { recursive: true });
  const lock = new Database(lockFile, { timeout: 0 });
  for (;;) {
    try {
      lock.exec("begin exclusive");
      break;
    } catch (error) {
      if ((error as { code?: string }).code !== "SQLITE_BUSY") {
        lock.close();
        throw error;
      }
      await sleep(SQLITE_RETRY_MS);
    }
  }
  return async () => {
    lock.exec("rollback");
    lock.close();
  };
}

/** The advisory lock's name; hashed to the 64-bit key PostgreSQL's advisory locks take. */
const POSTGRES_LOCK = "gatekeeper-portal:start-up";

/**
 * On PostgreSQL, a session advisory lock held by a connection of its own (not one of the pool's, which would
 * hand it to other work): others wait in `pg_advisory_lock`, and the server releases it when the connection
 * ends, a dead process's too.
 */
async function postgresStartupLock(url: string): Promise<Release> {
  const client = new pg.Client({ connectionString: url });
  // A connection lost while the lock is held (a server restart, a terminated backend) is an 'error' event, which
  // without a listener ends the process with a stack trace. The lock went with the connection, so another process
  // may have done the work meanwhile: start-up fails in one line when the lock is given back, and starts again.
  let lost: Error | null = null;
  client.on("error", (error) => {
    lost = error;
  });
  await client.connect();
  try {
    await client.query("select pg_advisory_lock(hashtextextended($1, 0))", [POSTGRES_LOCK]);
  } catch (error) {
    await client.end();
    throw error;
  }
  return async () => {
    if (lost) {
      throw new Error(`The start-up lock's connection to PostgreSQL was lost while it was held: ${lost.message}`);
    }
    try {
      await client.query("select pg_advisory_unlock(hashtextextended($1, 0))", [POSTGRES_LOCK]);
    } finally {
      await client.end();
    }
  };
}
