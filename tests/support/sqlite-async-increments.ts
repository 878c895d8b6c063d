// A second process on the same SQLite file, for tests/server/sqlite-async.test.ts: adds 1 to a counter in
// rate_limits N times, each in its own async transaction that reads, waits a turn of the event loop and writes.
// Usage: node --import tsx tests/support/sqlite-async-increments.ts FILE KEY N
import { eq } from "drizzle-orm";
import { asyncSqlite } from "~/server/platform/database/sqlite-async.server";
import { migrateSqlite, openSqlite } from "~/server/platform/database/sqlite.server";
import { rateLimits } from "~db/schema";

const [file, key, times] = process.argv.slice(2);
const sqlite = openSqlite(file);
migrateSqlite(sqlite);
const db = asyncSqlite(sqlite);
for (let i = 0; i < Number(times); i++) {
  await db.transaction(async (tx) => {
    const [row] = await tx.select().from(rateLimits).where(eq(rateLimits.key, key));
    await new Promise((resolve) => setTimeout(resolve, 1));
    await tx
      .update(rateLimits)
      .set({ points: row.points + 1 })
      .where(eq(rateLimits.key, key));
  });
}
sqlite.close();
