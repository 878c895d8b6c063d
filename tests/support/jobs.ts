import { and, inArray, isNotNull } from "drizzle-orm";
import { affectedRows } from "~/server/platform/database/portal-database.server";
import { jobs } from "~/server/platform/database/tables.server";
import { db } from "~/server/platform/database/db.server";
import { JOB_KINDS } from "~/server/job-kinds.server";
import { JobRunner } from "~/server/platform/jobs/runner.server";

/** Runs every job until none is due, bringing retries' backoff forward (the clock of a test does not wait). */
export async function runJobs() {
  const runner = new JobRunner(JOB_KINDS);
  for (let round = 0; round < 20; round += 1) {
    await runner.drain();
    const waiting = await db
      .update(jobs)
      .set({ nextRunAt: new Date(0) })
      .where(and(inArray(jobs.status, ["queued", "needs_attention"]), isNotNull(jobs.nextRunAt)));
    if (affectedRows(waiting) === 0) return;
  }
}
