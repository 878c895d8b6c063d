import { inArray } from "drizzle-orm";
import { describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { jobs } from "~/server/platform/database/tables.server";
import { db } from "~/server/platform/database/db.server";
import { enqueueJob, JobRunner, type JobKind } from "~/server/platform/jobs/runner.server";
import { memberByEmail } from "../support/members";

/**
 * A process's runner between polls: woken (a job queued, a job finished), it claims jobs one claim at a time and
 * runs up to four at once, and a wake that comes while a claim is out is not lost.
 */
describe("the job runner woken", () => {
  it("runs at most four jobs at once, claims the rest as they finish, and runs each once", async () => {
    let running = 0;
    let mostAtOnce = 0;
    const runs: string[] = [];
    let open: () => void = () => {};
    const gate = new Promise<void>((resolve) => (open = resolve));
    const kind: JobKind<{ n: number }, { work: null }> = {
      name: "wake-test",
      input: z.object({ n: z.number() }),
      steps: [
        {
          name: "work",
          async run({ id }) {
            runs.push(id);
            mostAtOnce = Math.max(mostAtOnce, ++running);
            await gate;
            running -= 1;
            return null;
          },
        },
      ],
      failure: (step) => ({ step, title: "Stopped", message: "Stopped." }),
    };
    const { organization } = await memberByEmail("customer@example.com");
    const queued = [];
    for (let n = 0; n < 6; n += 1) {
      queued.push(await enqueueJob(kind, { ownerId: organization.id, idempotencyKey: `wake-${n}`, input: { n } }));
    }
    const runner = new JobRunner({ [kind.name]: kind });
    try {
      // Wakes that overlap start no more than the runner's share.
      runner.wake();
      runner.wake();
      runner.wake();
      await vi.waitFor(() => expect(running).toBe(4), { timeout: 20_000, interval: 20 });
      open();
      const ids = queued.map((job) => job.id);
      await vi.waitFor(
        async () => {
          const rows = await db.select({ status: jobs.status }).from(jobs).where(inArray(jobs.id, ids));
          expect(rows.map((row) => row.status)).toEqual(ids.map(() => "succeeded"));
        },
        { timeout: 20_000, interval: 50 },
      );
      expect(mostAtOnce).toBe(4);
      expect([...runs].sort()).toEqual([...ids].sort());
    } finally {
      await runner.stop();
    }
  }, 60_000);
});
