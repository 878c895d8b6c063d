// What the async SQLite database (app/server/platform/database/sqlite-async.server.ts) costs per query against drizzle's
// synchronous better-sqlite3 driver on the same connection and data: the same queries, built each time as the
// portal builds them, taking turns so that both see the same machine. Prints µs per query (median of the rounds)
// and the CPU each used. Run: node --import tsx scripts/sqlite-driver-cost.ts
import { randomUUID } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import path from "node:path";
import { and, desc, eq } from "drizzle-orm";
import { drizzle } from "drizzle-orm/better-sqlite3";
import { asyncSqlite } from "~/server/platform/database/sqlite-async.server";
import { migrateSqlite, openSqlite } from "~/server/platform/database/sqlite.server";
import { licenses, users } from "~db/schema";

const ROUNDS = 7;
const TIMES = 3_000;
const directory = mkdtempSync(path.join(tmpdir(), "gk-driver-cost-"));
const sqlite = openSqlite(path.join(directory, "portal.sqlite"));
migrateSqlite(sqlite);
const sync = drizzle(sqlite);
const db = asyncSqlite(sqlite);

const owner = randomUUID();
sync
  .insert(users)
  .values({ id: owner, email: `${owner}@example.com`, passwordHash: "x", firstName: "A", lastName: "B" })
  .run();
const ids = Array.from({ length: 2_000 }, () => randomUUID());
sync.transaction((tx) => {
  ids.forEach((id, i) =>
    tx
      .insert(licenses)
      .values({
        id,
        ownerId: owner,
        externalLicenseId: `GK-${id}`,
        name: `Office ${i}`,
        nodes: 5,
        planType: "core",
        type: "recurring",
        validFrom: new Date(Date.UTC(2026, 0, 1) + i * 60_000),
        validTo: new Date(Date.UTC(2027, 0, 1)),
        licenseCode: "{}",
      })
      .run(),
  );
});
const pick = (i: number) => ids[(i * 7919) % ids.length];
const raw = sqlite.prepare("select * from licenses where id = ?");

/** Each query, synchronously and awaited. */
const queries: Record<string, { sync: (i: number) => unknown; async: (i: number) => Promise<unknown> }> = {
  "raw better-sqlite3 statement (floor)": {
    sync: (i) => raw.get(pick(i)),
    async: async (i) => raw.get(pick(i)),
  },
  "license by id": {
    sync: (i) =>
      sync
        .select()
        .from(licenses)
        .where(eq(licenses.id, pick(i)))
        .get(),
    async: (i) =>
      db
        .select()
        .from(licenses)
        .where(eq(licenses.id, pick(i)))
        .get(),
  },
  "page of 20, newest first": {
    sync: (i) =>
      sync
        .select()
        .from(licenses)
        .where(eq(licenses.ownerId, owner))
        .orderBy(desc(licenses.validFrom), desc(licenses.id))
        .limit(20)
        .offset(i % 50)
        .all(),
    async: (i) =>
      db
        .select()
        .from(licenses)
        .where(eq(licenses.ownerId, owner))
        .orderBy(desc(licenses.validFrom), desc(licenses.id))
        .limit(20)
        .offset(i % 50),
  },
  "update one row": {
    sync: (i) =>
      sync
        .update(licenses)
        .set({ nodes: i % 100 })
        .where(eq(licenses.id, pick(i)))
        .run(),
    async: (i) =>
      db
        .update(licenses)
        .set({ nodes: i % 100 })
        .where(eq(licenses.id, pick(i))),
  },
  "transaction: read, then write": {
    sync: (i) =>
      sync.transaction((tx) => {
        const row = tx
          .select()
          .from(licenses)
          .where(eq(licenses.id, pick(i)))
          .get()!;
        tx.update(licenses)
          .set({ nodes: row.nodes + 1 })
          .where(and(eq(licenses.id, row.id), eq(licenses.ownerId, owner)))
          .run();
      }),
    async: (i) =>
      db.transaction(async (tx) => {
        const [row] = await tx
          .select()
          .from(licenses)
          .where(eq(licenses.id, pick(i)));
        await tx
          .update(licenses)
          .set({ nodes: row.nodes + 1 })
          .where(and(eq(licenses.id, row.id), eq(licenses.ownerId, owner)));
      }),
  },
};

async function time(run: (i: number) => unknown) {
  const cpu = process.cpuUsage();
  const start = process.hrtime.bigint();
  for (let i = 0; i < TIMES; i++) await run(i);
  const wall = Number(process.hrtime.bigint() - start) / 1e3 / TIMES;
  const { user, system } = process.cpuUsage(cpu);
  return { wall, cpu: (user + system) / TIMES };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const format = (n: number) => n.toFixed(1).padStart(7);

console.log(
  `load average ${loadavg()[0].toFixed(2)}; ${ROUNDS} rounds of ${TIMES} queries each; µs per query, median of the rounds`,
);
console.log(`${"query".padEnd(38)}  sync wall  async wall  sync cpu  async cpu  async ÷ sync`);
for (const [name, { sync: runSync, async: runAsync }] of Object.entries(queries)) {
  // The synchronous calls are awaited too, so that both loops pay for the await itself and differ only in the driver.
  await time(runSync);
  await time(runAsync);
  const results = { sync: [] as { wall: number; cpu: number }[], async: [] as { wall: number; cpu: number }[] };
  for (let round = 0; round < ROUNDS; round++) {
    results.sync.push(await time(runSync));
    results.async.push(await time(runAsync));
  }
  const [syncWall, asyncWall] = [median(results.sync.map((r) => r.wall)), median(results.async.map((r) => r.wall))];
  const [syncCpu, asyncCpu] = [median(results.sync.map((r) => r.cpu)), median(results.async.map((r) => r.cpu))];
  console.log(
    `${name.padEnd(38)} ${format(syncWall)}    ${format(asyncWall)}   ${format(syncCpu)}   ${format(asyncCpu)}        ${(asyncCpu / syncCpu).toFixed(2)}`,
  );
}
sqlite.close();
rmSync(directory, { recursive: true, force: true });
