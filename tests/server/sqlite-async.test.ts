import { execFile } from "node:child_process";
import { randomUUID } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import type Database from "better-sqlite3";
import { count, eq, like, sql, TransactionRollbackError } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { affectedRows, asyncSqlite, type AsyncSqliteDatabase } from "~/server/platform/database/sqlite-async.server";
import { migrateSqlite, openSqlite } from "~/server/platform/database/sqlite.server";
import { organizations, rateLimits, users } from "~db/schema";
import { promiseHooksOn } from "../support/promise-hooks";

const directory = mkdtempSync(path.join(tmpdir(), "gk-sqlite-async-"));
const file = path.join(directory, "portal.sqlite");
let sqlite: Database.Database;
let db: AsyncSqliteDatabase;

beforeAll(() => {
  sqlite = openSqlite(file);
  migrateSqlite(sqlite);
  db = asyncSqlite(sqlite);
});
afterAll(() => {
  sqlite.close();
  rmSync(directory, { recursive: true, force: true });
});

/** Lets every other waiting callback run before going on. */
const aTurn = () => new Promise((resolve) => setImmediate(resolve));

async function counter(key: string) {
  const [row] = await db.select().from(rateLimits).where(eq(rateLimits.key, key));
  return row?.points;
}

async function newCounter() {
  const key = `counter-${randomUUID()}`;
  await db.insert(rateLimits).values({ key, points: 0 });
  return key;
}

describe("the async SQLite database (drizzle sqlite-proxy over one better-sqlite3 connection)", () => {
  it("loses no update among 200 concurrent read-await-write transactions and 20 inserts outside them", async () => {
    const key = await newCounter();
    let open = 0;
    let mostOpen = 0;
    const increment = () =>
      db.transaction(async (tx) => {
        mostOpen = Math.max(mostOpen, ++open);
        const [row] = await tx.select().from(rateLimits).where(eq(rateLimits.key, key));
        await aTurn();
        await tx
          .update(rateLimits)
          .set({ points: row.points + 1 })
          .where(eq(rateLimits.key, key));
        open--;
      });
    const prefix = `outside-${randomUUID()}-`;
    const work = Array.from({ length: 200 }, (_, i) => [
      increment(),
      ...(i % 10 === 5 ? [db.insert(rateLimits).values({ key: `${prefix}${i}`, points: 1 })] : []),
    ]).flat();
    expect(work).toHaveLength(220);
    await Promise.all(work);
    expect(await counter(key)).toBe(200);
    const [outside] = await db
      .select({ n: count() })
      .from(rateLimits)
      .where(like(rateLimits.key, `${prefix}%`));
    expect(outside.n).toBe(20);
    expect(mostOpen).toBe(1);
  });

  it("rolls back a transaction that throws, or that its callback rolls back, and hands the error on", async () => {
    const key = await newCounter();
    const written = () =>
      db
        .select()
        .from(rateLimits)
        .where(like(rateLimits.key, `${key}-%`));
    await expect(
      db.transaction(async (tx) => {
        await tx.insert(rateLimits).values({ key: `${key}-a`, points: 1 });
        await aTurn();
        throw new Error("The card was declined.");
      }),
    ).rejects.toThrow("The card was declined.");
    await expect(
      db.transaction(async (tx) => {
        await tx.insert(rateLimits).values({ key: `${key}-b`, points: 1 });
        tx.rollback();
      }),
    ).rejects.toThrow(TransactionRollbackError);
    // A statement that fails (here a duplicate key) fails its transaction with its own error.
    await expect(
      db.transaction(async (tx) => {
        await tx.insert(rateLimits).values({ key: `${key}-c`, points: 1 });
        await tx.insert(rateLimits).values({ key, points: 1 });
      }),
    ).rejects.toMatchObject({ cause: { code: "SQLITE_CONSTRAINT_PRIMARYKEY" } });
    // One that ends the transaction itself (SQLite rolls back on its own): still its own error, not the rollback's.
    await expect(
      db.transaction(async (tx) => {
        await tx.insert(rateLimits).values({ key: `${key}-e`, points: 1 });
        await tx.run(sql`insert or rollback into ${rateLimits} (key, points) values (${key}, 1)`);
      }),
    ).rejects.toMatchObject({ cause: { code: "SQLITE_CONSTRAINT_PRIMARYKEY" } });
    expect(await written()).toEqual([]);
    expect(sqlite.inTransaction).toBe(false);
    // And the connection goes on working.
    await db.transaction((tx) => tx.insert(rateLimits).values({ key: `${key}-d`, points: 1 }));
    expect((await written()).map((row) => row.key)).toEqual([`${key}-d`]);
  });

  it("makes queries and transactions outside a transaction wait for it, so they never see its uncommitted writes", async () => {
    const key = await newCounter();
    let started!: () => void;
    let finish!: () => void;
    const isStarted = new Promise<void>((resolve) => (started = resolve));
    const mayFinish = new Promise<void>((resolve) => (finish = resolve));
    const first = db.transaction(async (tx) => {
      await tx.update(rateLimits).set({ points: -1 }).where(eq(rateLimits.key, key));
      started();
      await mayFinish;
      await tx.update(rateLimits).set({ points: 7 }).where(eq(rateLimits.key, key));
    });
    await isStarted;
    const seen: string[] = [];
    const read = counter(key).then((points) => seen.push(`read ${points}`));
    const second = db.transaction(async (tx) => {
      const [row] = await tx.select().from(rateLimits).where(eq(rateLimits.key, key));
      seen.push(`second ${row.points}`);
    });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(seen).toEqual([]);
    finish();
    await Promise.all([first, read, second]);
    expect(seen.sort()).toEqual(["read 7", "second 7"]);
  });

  it("runs a transaction started inside another as a savepoint of it, through tx or through db, without waiting for itself", async () => {
    const key = await newCounter();
    await db.transaction(async (tx) => {
      await tx.update(rateLimits).set({ points: 1 }).where(eq(rateLimits.key, key));
      await expect(
        tx.transaction(async (inner) => {
          await inner.update(rateLimits).set({ points: 2 }).where(eq(rateLimits.key, key));
          throw new Error("undo the inner part only");
        }),
      ).rejects.toThrow("undo the inner part only");
      // Code that opens its own transaction on db, called from inside this one: it joins as a savepoint.
      await db.transaction(async (inner) => {
        await inner.update(rateLimits).set({ points: 3 }).where(eq(rateLimits.key, key));
      });
      // A plain query on db in the same call chain runs in the open transaction and sees its writes.
      expect(await counter(key)).toBe(3);
    });
    expect(await counter(key)).toBe(3);
  });

  it("follows each transaction's call chain only while one is open: promise hooks are off between them", async () => {
    expect(await promiseHooksOn()).toBe(false);
    const inOne = async (key: string, points: number) =>
      db.transaction(async (tx) => {
        expect(await promiseHooksOn()).toBe(true);
        await tx.update(rateLimits).set({ points }).where(eq(rateLimits.key, key));
        await new Promise((resolve) => setTimeout(resolve, 1));
        // Through db, after a timer and inside a savepoint: still this transaction, seeing its own write.
        await db.transaction(async (inner) => {
          await aTurn();
          await inner
            .update(rateLimits)
            .set({ points: points + 1 })
            .where(eq(rateLimits.key, key));
        });
        return counter(key);
      });
    const [first, second] = [await newCounter(), await newCounter()];
    expect(await Promise.all([inOne(first, 10), inOne(second, 20)])).toEqual([11, 21]);
    expect(await promiseHooksOn()).toBe(false);
  });

  it("lets work that outlives a transaction's callback wait its turn like any other", async () => {
    const key = await newCounter();
    let later: Promise<number | undefined> | undefined;
    let hold!: () => void;
    await db.transaction(async (tx) => {
      await tx.update(rateLimits).set({ points: 1 }).where(eq(rateLimits.key, key));
      later = new Promise<void>((resolve) => setTimeout(resolve, 30)).then(() => counter(key));
    });
    const blocker = db.transaction(async (tx) => {
      await tx.update(rateLimits).set({ points: 5 }).where(eq(rateLimits.key, key));
      await new Promise<void>((resolve) => (hold = resolve));
    });
    await new Promise((resolve) => setTimeout(resolve, 60));
    hold();
    await blocker;
    expect(await later).toBe(5);
  });

  it("reports the rows a statement changed, and maps booleans, dates and JSON both ways", async () => {
    const prefix = `rows-${randomUUID()}-`;
    await db.insert(rateLimits).values(["a", "b", "c"].map((name) => ({ key: `${prefix}${name}`, points: 1 })));
    expect(
      affectedRows(
        await db
          .update(rateLimits)
          .set({ points: 2 })
          .where(like(rateLimits.key, `${prefix}%`)),
      ),
    ).toBe(3);
    expect(affectedRows(await db.delete(rateLimits).where(eq(rateLimits.key, `${prefix}none`)))).toBe(0);
    expect(() => affectedRows([])).toThrow(TypeError);
    const id = randomUUID();
    const createdAt = new Date("2026-11-25T10:11:12.345Z");
    const shippingAddress = {
      firstName: "Ada",
      lastName: "Byron",
      line1: "1 Main St",
      city: "Austin",
      state: "TX",
      zip: "78701",
      country: "US",
    };
    const [inserted] = await db
      .insert(users)
      .values({
        id,
        email: `${id}@example.com`,
        passwordHash: "x",
        firstName: "Ada",
        lastName: "Byron",
        isGKAdmin: true,
        createdAt,
      })
      .returning();
    const found = await db.select().from(users).where(eq(users.id, id)).get();
    expect(found).toEqual(inserted);
    expect(found).toMatchObject({ isGKAdmin: true, createdAt, company: "", emailVerifiedAt: null });
    await db.insert(organizations).values({ id, name: "Byron Ltd", shippingAddress });
    expect(await db.select().from(organizations).where(eq(organizations.id, id)).get()).toMatchObject({
      shippingAddress,
      customerType: "customer",
    });
    expect(await db.select().from(users).where(eq(users.id, "nobody")).get()).toBeUndefined();
    expect(await db.query.users.findFirst({ where: eq(users.id, id), columns: { email: true } })).toEqual({
      email: `${id}@example.com`,
    });
  });

  it("loses no update when two processes on the same file each run read-await-write transactions", async () => {
    const key = await newCounter();
    const run = promisify(execFile);
    const worker = () =>
      run(process.execPath, ["--import", "tsx", "tests/support/sqlite-async-increments.ts", file, key, "40"], {
        timeout: 90_000,
      });
    await Promise.all([worker(), worker()]);
    expect(await counter(key)).toBe(80);
  }, 120_000);
});
