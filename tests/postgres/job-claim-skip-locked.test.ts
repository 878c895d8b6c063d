import { eq, sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import type { openPostgres as OpenPostgres } from "~/server/platform/database/postgres.server";
import type * as Tables from "~/server/platform/database/tables.server";
import type { claimJob as ClaimJob } from "~/server/platform/jobs/runner.server";
import { postgresTestDatabase, startPortalOn } from "../support/postgres";

/**
 * The job claim on PostgreSQL, as several instances run it: each runner claims on a pool of its own, all at once.
 * With `for update skip locked` each claim takes the next job no other claim holds; without it they all go for
 * the same first job, wait on its row, find it taken, and come back empty while hundreds of jobs wait.
 */
const database = postgresTestDatabase();
const RUNNERS = 8;
const JOBS = 400;

let claimJob: typeof ClaimJob;
let openPostgres: typeof OpenPostgres;
let tables: typeof Tables;

beforeAll(async () => {
  // The runner's claim is written for the portal's engine (claimCondition): the portal opens this database.
  await startPortalOn(database.url);
  ({ claimJob } = await import("~/server/platform/jobs/runner.server"));
  ({ openPostgres } = await import("~/server/platform/database/postgres.server"));
  tables = await import("~/server/platform/database/tables.server");
}, 60_000);

describe("claiming jobs on PostgreSQL", () => {
  it(`lets ${RUNNERS} runners drain ${JOBS} jobs at once: none runs twice, and no claim comes back empty while jobs wait`, async () => {
    const { jobs, organizations } = tables;
    const runners = Array.from({ length: RUNNERS }, () => openPostgres(database.url, { max: 2 }));
    const [first] = runners;
    try {
      await first.db.insert(organizations).values({ id: "org-claims", name: "Claims" });
      const due = new Date(Date.now() - 60_000);
      await first.db.insert(jobs).values(
        Array.from({ length: JOBS }, (_, n) => ({
          id: `job-${String(n).padStart(3, "0")}`,
          kind: "claim-test",
          ownerId: "org-claims",
          idempotencyKey: `claim-test:${n}`,
          input: {},
          steps: {},
          nextRunAt: new Date(due.getTime() + n),
        })),
      );

      const ran: string[] = [];
      /** Claims that came back empty while more jobs waited than the other runners could be holding. */
      let emptyWhileWaiting = 0;
      const queued = async (db: (typeof runners)[number]["db"]) => {
        const [row] = await db
          .select({ n: sql<number>`count(*)`.mapWith(Number) })
          .from(jobs)
          .where(eq(jobs.status, "queued"));
        return row?.n ?? 0;
      };
      await Promise.all(
        runners.map(async ({ db }, runner) => {
          for (;;) {
            const job = await claimJob(`runner-${runner}`, 60_000, db);
            if (job) {
              ran.push(job.id);
              await db.update(jobs).set({ status: "succeeded", leaseHolder: null }).where(eq(jobs.id, job.id));
              continue;
            }
            // An empty claim is right only once every job left is held by another runner's claim (one each).
            if ((await queued(db)) < RUNNERS) return;
            emptyWhileWaiting += 1;
          }
        }),
      );

      expect(emptyWhileWaiting).toBe(0);
      expect(ran).toHaveLength(JOBS);
      expect(new Set(ran).size).toBe(JOBS);
      const rows = await first.db.select({ status: jobs.status, attempts: jobs.attempts }).from(jobs);
      expect(rows.every((row) => row.status === "succeeded" && row.attempts === 1)).toBe(true);
    } finally {
      await Promise.all(runners.map(({ pool }) => pool.end()));
    }
  }, 120_000);
});
