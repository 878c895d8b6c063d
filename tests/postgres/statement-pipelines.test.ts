import { Socket } from "node:net";
import { sql } from "drizzle-orm";
import type pg from "pg";
import { afterAll, beforeAll, expect, it, vi } from "vitest";
import { openPostgres, type PostgresDatabase } from "~/server/platform/database/postgres.server";
import { postgresTestDatabase } from "../support/postgres";
import { captureLogs } from "../support/logs";

/**
 * The statements outside transactions share a few pipelined connections (StatementPipelines in
 * app/server/platform/database/postgres.server.ts); transactions keep pooled connections of their own.
 */
const PIPELINES = 2;
const database = postgresTestDatabase();
let db: PostgresDatabase;
let pool: pg.Pool;
let admin: pg.Pool;

beforeAll(() => {
  ({ db, pool } = openPostgres(database.url, { max: 2, pipelines: PIPELINES }));
  ({ pool: admin } = openPostgres(database.url, { max: 1 }));
});
afterAll(() => Promise.all([pool.end(), admin.end()]));

const backendOf = async (store: Pick<PostgresDatabase, "execute">) =>
  Number((await store.execute<{ pid: number }>(sql`select pg_backend_pid() as pid`)).rows[0].pid);

/** The backends of this test's database other than the admin pool's, as the server lists them. */
async function backendsOfPortal(): Promise<number[]> {
  const { rows } = await admin.query<{ pid: number }>(
    "select pid from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()",
  );
  return rows.map((row) => row.pid);
}

it("answers each of many statements sent at once with its own result, on no more connections than the pipelines", async () => {
  const answers = await Promise.all(
    Array.from({ length: 200 }, (_, n) => pool.query<{ n: number }>("select $1::int as n", [n])),
  );
  expect(answers.map((answer) => answer.rows[0].n)).toEqual(Array.from({ length: 200 }, (_, n) => n));
  const backends = new Set(await Promise.all(Array.from({ length: 50 }, () => backendOf(db))));
  expect(backends.size).toBeLessThanOrEqual(PIPELINES);
});

it("fails only the statement that fails: those sent with it are answered", async () => {
  const [before, failed, after] = await Promise.allSettled([
    pool.query("select 1 as ok"),
    pool.query("select 1 / 0 as never"),
    pool.query("select 2 as ok"),
  ]);
  expect(before).toMatchObject({ status: "fulfilled", value: { rows: [{ ok: 1 }] } });
  expect(failed).toMatchObject({ status: "rejected", reason: { code: "22012" } });
  expect(after).toMatchObject({ status: "fulfilled", value: { rows: [{ ok: 2 }] } });
});

it("keeps a transaction on a pooled connection of its own: a statement outside it sees nothing it has not committed", async () => {
  await db.execute(sql`create table if not exists pipeline_probe (id int primary key)`);
  const pipelined = new Set(await Promise.all(Array.from({ length: 20 }, () => backendOf(db))));
  let seenOutside: number | undefined;
  await db.transaction(async (tx) => {
    expect(pipelined.has(await backendOf(tx))).toBe(false);
    await tx.execute(sql`insert into pipeline_probe (id) values (1)`);
    seenOutside = Number((await pool.query<{ n: string }>("select count(*) as n from pipeline_probe")).rows[0].n);
  });
  expect(seenOutside).toBe(0);
  expect(Number((await pool.query<{ n: string }>("select count(*) as n from pipeline_probe")).rows[0].n)).toBe(1);
});

it("sends the statements of one turn of the event loop in one write", async () => {
  const pid = await backendOf(db);
  const sockets = Socket.prototype as Socket & { _write: () => void; _writev: () => void };
  const writes = [vi.spyOn(sockets, "_write"), vi.spyOn(sockets, "_writev")];
  try {
    const pids = await Promise.all(Array.from({ length: 10 }, () => backendOf(db)));
    expect(new Set(pids)).toEqual(new Set([pid]));
    // Writes per socket: the pipelined connection's ten statements in one (another socket of the test process may
    // write meanwhile, on its own).
    const perSocket = new Map<unknown, number>();
    for (const socket of writes.flatMap((write) => write.mock.contexts)) {
      perSocket.set(socket, (perSocket.get(socket) ?? 0) + 1);
    }
    expect(Math.max(...perSocket.values())).toBe(1);
  } finally {
    for (const write of writes) write.mockRestore();
  }
});

it("lets the process exit while no statement waits for an answer, as the pool does when idle", async () => {
  // What keeps the process alive: sockets and timers that are not unref'd.
  const keepingAlive = () =>
    process.getActiveResourcesInfo().filter((kind) => kind === "PipeWrap" || kind === "Timeout").length;
  await pool.query("select 1");
  const idle = keepingAlive();
  const waiting = pool.query("select pg_sleep(0.2)");
  expect(keepingAlive()).toBeGreaterThan(idle);
  await waiting;
  expect(keepingAlive()).toBeLessThanOrEqual(idle);
});

it("opens a new connection in place of one the server ends, and answers on it", async () => {
  const logs = captureLogs();
  try {
    const pipelined = new Set(await Promise.all(Array.from({ length: 20 }, () => backendOf(db))));
    for (const pid of pipelined) await admin.query("select pg_terminate_backend($1)", [pid]);
    await vi.waitFor(() => expect(logs.events("database-connection-lost")).not.toHaveLength(0), {
      timeout: 10_000,
    });
    const [{ ok }] = (await pool.query<{ ok: number }>("select 1 as ok")).rows;
    expect(ok).toBe(1);
    const now = await backendsOfPortal();
    for (const pid of pipelined) expect(now).not.toContain(pid);
  } finally {
    logs.restore();
  }
});
