// A throwaway PostgreSQL cluster for tests and CI: initdb in a folder of its own, a server on a unix socket
// in that folder (no TCP port, so any number can run side by side), durability off, stopped and removed after.
//
//   node scripts/postgres-cluster.mjs start DIR   creates and starts a cluster in DIR, prints its URL
//   node scripts/postgres-cluster.mjs stop DIR    stops it and removes DIR
//
// The vitest globalSetup (tests/support/postgres-global-setup.ts) imports the same functions. PostgreSQL refuses
// to run as root: as root the server runs as the `postgres` user (the Debian package creates it), which owns the
// folder; as anyone else it runs as that user. The binaries come from POSTGRES_BIN, else from Debian's newest
// /usr/lib/postgresql/N/bin, else from PATH.
import { execFile } from "node:child_process";
import { existsSync, readdirSync } from "node:fs";
import { chown, mkdir, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import pg from "pg";

const run = promisify(execFile);

/** The superuser of every throwaway cluster; local connections need no password (`-A trust`). */
export const SUPERUSER = "postgres";

/** Where initdb and pg_ctl are. */
export function postgresBin() {
  if (process.env.POSTGRES_BIN) return process.env.POSTGRES_BIN;
  const debian = "/usr/lib/postgresql";
  if (existsSync(debian)) {
    const [newest] = readdirSync(debian)
      .filter((version) => existsSync(path.join(debian, version, "bin", "pg_ctl")))
      .sort((a, b) => Number(b) - Number(a));
    if (newest) return path.join(debian, newest, "bin");
  }
  return "";
}

const isRoot = () => process.getuid?.() === 0;

/** Runs a PostgreSQL program as a user the server accepts. */
async function runPostgres(program, args) {
  const file = path.join(postgresBin(), program);
  if (path.isAbsolute(file) && !existsSync(file)) {
    throw new Error(`PostgreSQL's ${program} was not found: apt-get install postgresql-15, or set POSTGRES_BIN.`);
  }
  const [command, commandArgs] = isRoot() ? ["runuser", ["-u", SUPERUSER, "--", file, ...args]] : [file, args];
  try {
    return await run(command, commandArgs, { env: { ...process.env, LC_ALL: "C.UTF-8" } });
  } catch (error) {
    if (error.code === "ENOENT") {
      throw new Error(`PostgreSQL's ${program} was not found: apt-get install postgresql-15, or set POSTGRES_BIN.`);
    }
    const output = [error.stdout, error.stderr].filter(Boolean).join("\n").trim();
    throw new Error(`${program} failed${output ? `: ${output}` : ` (${error.message})`}`, { cause: error });
  }
}

/** The uid and gid of the `postgres` user, who must own the cluster's folder when we are root. */
async function postgresOwner() {
  const id = async (flag) => Number((await run("id", [flag, SUPERUSER])).stdout.trim());
  try {
    return { uid: await id("-u"), gid: await id("-g") };
  } catch {
    throw new Error(`Running as root, the cluster needs the "${SUPERUSER}" user (apt-get install postgresql-15).`);
  }
}

/** A connection URL on the cluster's socket; node-postgres reads the socket folder from `host`. */
export function clusterUrl(directory, database = "postgres") {
  return `postgres://${SUPERUSER}@/${database}?host=${encodeURIComponent(directory)}`;
}

/** The same server's URL for another database (any postgres:// URL, socket or TCP). */
export function withDatabase(url, database) {
  const match = /^(postgres(?:ql)?:\/\/[^/?#]*)(\/[^?#]*)?(.*)$/.exec(url);
  if (!match) throw new Error("Not a postgres:// URL.");
  return `${match[1]}/${encodeURIComponent(database)}${match[3]}`;
}

/**
 * Creates a cluster in `directory` (a new temporary folder when omitted) and starts it; resolves to where it
 * is and how to reach it. The locale is C.UTF-8 so that text sorts by code point, as SQLite's does.
 */
export async function startCluster(directory) {
  const folder = directory ?? (await mkdtemp(path.join(tmpdir(), "gk-postgres-")));
  await mkdir(folder, { recursive: true });
  if (isRoot()) {
    const { uid, gid } = await postgresOwner();
    await chown(folder, uid, gid);
  }
  const data = path.join(folder, "data");
  await runPostgres("initdb", [
    "-D",
    data,
    "-A",
    "trust",
    "-U",
    SUPERUSER,
    "-E",
    "UTF8",
    "--locale=C.UTF-8",
    "--no-sync",
    "--no-instructions",
  ]);
  const settings = [
    `-k ${folder}`,
    "-c listen_addresses=''",
    "-c fsync=off",
    "-c synchronous_commit=off",
    "-c full_page_writes=off",
  ];
  await runPostgres("pg_ctl", [
    "-D",
    data,
    "-l",
    path.join(folder, "postgres.log"),
    "-w",
    "-o",
    settings.join(" "),
    "start",
  ]);
  return { directory: folder, url: clusterUrl(folder) };
}

/** Stops the cluster in `directory` (if it runs) and removes the folder. */
export async function stopCluster(directory) {
  const data = path.join(directory, "data");
  if (existsSync(path.join(data, "postmaster.pid"))) {
    await runPostgres("pg_ctl", ["-D", data, "-m", "immediate", "-w", "stop"]);
  }
  await rm(directory, { recursive: true, force: true });
}

const quoted = (name) => `"${name.replaceAll('"', '""')}"`;

/** Runs statements on the server's maintenance database. */
async function onServer(url, statements) {
  const client = new pg.Client({ connectionString: withDatabase(url, "postgres") });
  await client.connect();
  try {
    for (const statement of statements) await client.query(statement);
  } finally {
    await client.end();
  }
}

/** Creates a database, empty or as a copy of `template` (which must have no open connections). */
export async function createDatabase(url, name, template) {
  await onServer(url, [`create database ${quoted(name)}${template ? ` template ${quoted(template)}` : ""}`]);
  return withDatabase(url, name);
}

/** Drops a database, closing whatever connections are still open on it. */
export async function dropDatabase(url, name) {
  await onServer(url, [`drop database if exists ${quoted(name)} with (force)`]);
}

async function main([command, directory]) {
  if (!directory || !["start", "stop"].includes(command)) {
    console.error("Usage: node scripts/postgres-cluster.mjs start|stop DIR");
    process.exit(2);
  }
  if (command === "start") console.log((await startCluster(path.resolve(directory))).url);
  else await stopCluster(path.resolve(directory));
}

if (process.argv[1] && path.resolve(process.argv[1]) === new URL(import.meta.url).pathname) {
  main(process.argv.slice(2)).catch((error) => {
    console.error(error.message);
    process.exit(1);
  });
}
