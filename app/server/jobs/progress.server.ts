import { json } from "@remix-run/node";
import { progressOf } from "~/domain/jobs";
import { findOwnedJob, mayHaveCharged, retryJob, type AnyJobKind } from "./runner.server";

/**
 * One progress page for any job (the order, the update, a cloud Hub, a trial): the job of that kind if it
 * is the user's (404 otherwise, DESIGN §1.8), as the spec's stages, with what the customer can do next.
 */
export function jobProgress(
  ownerId: string,
  jobId: string,
  kind: AnyJobKind,
  stages: { title: string; steps: string[] }[],
) {
  const job = findOwnedJob(ownerId, jobId, kind.name);
  if (!job) throw json({ message: "There is no such order." }, { status: 404 });
  return {
    job,
    view: {
      status: job.status,
      error: job.error,
      stages: progressOf(job.status, job.steps, stages),
      // Only a job that cannot have charged may be left for an edited order; any other is finished or retried.
      canEdit: job.status === "failed" && !mayHaveCharged(kind, job),
    },
  };
}

/** The progress page's "Try again": the same job from where it stopped (404 when it is not the user's). */
export function retryFromProgress(ownerId: string, jobId: string, kind: AnyJobKind): void {
  if (!findOwnedJob(ownerId, jobId, kind.name)) throw json({ message: "There is no such order." }, { status: 404 });
  retryJob(ownerId, jobId);
}
