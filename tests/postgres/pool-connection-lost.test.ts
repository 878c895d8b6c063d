import { afterAll, expect, it, vi } from "vitest";
import { openPostgres } from "~/server/platform/database/postgres.server";
import { postgresTestDatabase } from "../support/postgres";
import { captureLogs } from "../support/logs";

const database = postgresTestDatabase();
let ended: Promise<void> | undefined;
afterAll(() => ended);

it("outlives a pooled connection the server terminates while it waits, and answers again on a new one", async () => {
  const logs = captureLogs();
  const { pool } = openPostgres(database.url, { max: 1 });
  const { pool: admin } = openPostgres(database.url, { max: 1 });
  try {
    const [{ pid }] = (await pool.query<{ pid: number }>("select pg_backend_pid() as pid")).rows;
    await admin.query("select pg_terminate_backend($1)", [pid]);
    await vi.waitFor(() => expect(logs.events("database-connection-lost")).not.toHaveLength(0), {
      timeout: 10_000,
    });
    const [{ ok }] = (await pool.query<{ ok: number }>("select 1 as ok")).rows;
    expect(ok).toBe(1);
  } finally {
    logs.restore();
    ended = Promise.all([pool.end(), admin.end()]).then(() => undefined);
  }
});
