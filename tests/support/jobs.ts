import { and, inArray, sql } from "drizzle-orm";
import { db } from "~/server/db.server";
import { JOB_KINDS } from "~/server/jobs/kinds.server";
import { JobRunner } from "~/server/jobs/runner.server";
import { jobs } from "~db/schema";

/** Runs every job until none is due, bringing retries' backoff forward (the clock of a test does not wait). */
export async function runJobs() {
  const runner = new JobRunner(JOB_KINDS);
  for (let round = 0; round < 20; round += 1) {
    await runner.drain();
    const waiting = db
      .update(jobs)
      .set({ nextRunAt: new Date(0) })
      .where(and(inArray(jobs.status, ["queued", "needs_attention"]), sql`${jobs.nextRunAt} is not null`))
      .run().changes;
    if (waiting === 0) return;
  }
}
