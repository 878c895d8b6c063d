import { memberGuard } from "~/server/accounts/access.server";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { jobs } from "~/server/platform/database/tables.server";
import { db } from "~/server/platform/database/db.server";
import { jobProgressRoute, ofKind } from "~/server/platform/jobs/progress.server";
import { enqueueJob, findOwnedJob, type JobKind } from "~/server/platform/jobs/runner.server";
import { memberByEmail } from "../support/members";
import { formRequest, getRequest, respond } from "../support/requests";
import { demoCookie } from "../support/sign-in";

/** The one loader and action behind every job's progress page (an order, an update, a deployment, a trial). */
const kind: JobKind<{ label: string }, { only: Record<string, never> }> = {
  name: "progress-page-test",
  input: z.object({ label: z.string() }),
  steps: [{ name: "only", run: async () => ({}) }],
  failure: (step) => ({ step, title: "It stopped", message: "Try again." }),
};
const page = jobProgressRoute({
  guard: memberGuard,
  open: ofKind(kind, [{ title: "Do the thing", steps: ["only"] }]),
  details: (job) => ({ label: String(job.input.label) }),
  retryNeeds: "purchase",
});

const cookieOf = demoCookie;

const show = async (email: string, jobId: string) =>
  respond(async () =>
    page.loader({ request: getRequest(`/things/${jobId}`, await cookieOf(email)), params: { jobId }, context: {} }),
  );

async function placeJob(key: string) {
  const { organization } = await memberByEmail("customer@example.com");
  return enqueueJob(kind, { ownerId: organization.id, idempotencyKey: key, input: { label: key } });
}
const setStatus = async (id: string, status: "queued" | "running" | "succeeded" | "failed" | "needs_attention") => {
  await db.update(jobs).set({ status, nextRunAt: null }).where(eq(jobs.id, id));
};

describe("a job's progress page", () => {
  it.each([
    ["queued", true],
    ["running", true],
    ["needs_attention", true],
    ["succeeded", false],
    ["failed", false],
  ] as const)("says a %s job is running: %s (the page follows it and has no close)", async (status, running) => {
    const job = await placeJob(`status-${status}`);
    await setStatus(job.id, status);
    const body = await (await show("customer@example.com", job.id)).json();
    expect(body.view).toMatchObject({ status, running });
    expect(body.label).toBe(`status-${status}`);
  });

  it("is 404 for another account's job and for an unknown id", async () => {
    const job = await placeJob("not-yours");
    expect((await show("distributor@example.com", job.id)).status).toBe(404);
    expect((await show("customer@example.com", "no-such-job")).status).toBe(404);
  });

  it("'Try again' retries the same job and shows the page again", async () => {
    const job = await placeJob("retried");
    await setStatus(job.id, "failed");
    const retried = await respond(async () =>
      page.action({
        request: await formRequest(
          `/things/${job.id}`,
          { intent: "retry" },
          { cookie: await cookieOf("customer@example.com") },
        ),
        params: { jobId: job.id },
        context: {},
      }),
    );
    expect(retried.status).toBe(302);
    expect(retried.headers.get("Location")).toBe(`/things/${job.id}`);
    expect((await findOwnedJob(job.ownerId, job.id))?.status).toBe("queued");
  });
});
