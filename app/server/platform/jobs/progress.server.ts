import { json, redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { isUnfinished, progressOf } from "~/domain/jobs";
import type { Action } from "~/domain/access-policy";
import type { Guard } from "../guard.server";
import { findOwnedJob, mayHaveCharged, retryJob, waitingStep, type AnyJobKind, type JobView } from "./runner.server";

/** The stages a job's progress page lists: each a title the customer reads over the job steps it stands for. */
export type ProgressStages = { title: string; steps: string[] }[];

/**
 * One progress page for any job (the order, the update, a cloud Hub, a trial): the job of that kind if it
 * is the organization's (404 otherwise: another organization's id is never found), as its kind's stages,
 * with what the customer can do next. Whoever placed it, every member allowed to read it follows it.
 */
export async function jobProgress(ownerId: string, jobId: string, kind: AnyJobKind, stages: ProgressStages) {
  const job = await findOwnedJob(ownerId, jobId, kind.name);
  if (!job) throw json({ message: "There is no such order." }, { status: 404 });
  return {
    job,
    view: {
      status: job.status,
      error: job.error,
      stages: progressOf(job.status, job.steps, stages),
      // Not finished: the page follows the job and offers no close (closing would look like cancelling).
      running: isUnfinished(job.status),
      // Only a job that cannot have charged may be left for an edited order; any other is finished or retried.
      canEdit: job.status === "failed" && !mayHaveCharged(kind, job),
      // Waiting for the cardholder: the bank's page to send them to, and why the last authentication did not pass.
      waiting: waitingStep(job),
    },
  };
}

/** The progress page's "Try again": the same job from where it stopped (404 when it is not the organization's). */
export async function retryFromProgress(ownerId: string, jobId: string, kind: AnyJobKind): Promise<void> {
  if (!(await findOwnedJob(ownerId, jobId, kind.name))) {
    throw json({ message: "There is no such order." }, { status: 404 });
  }
  await retryJob(ownerId, jobId);
}

/** Who follows a job's progress: an actor of the organization that owns it. */
interface JobOwnerActor {
  organization: { id: string };
}

/**
 * The loader and action of a job's progress route (`.../:jobId`), one for every job. `open` names the
 * kind of the URL's job and its stages (and may refuse the URL); `details` adds what the page shows beyond
 * the progress (what comes next, the new Hub, ...). Reading the page needs what `readNeeds` names (any member of
 * the organization when it names nothing), checked by the page's own loader. "Try again" posts to the page
 * itself: the same job is retried from where it stopped (`retry`, immediately by default) and the page shown
 * again, for an actor the guard allows what the job does (`retryNeeds`).
 */
export function jobProgressRoute<
  Actor extends JobOwnerActor,
  Opened extends { kind: AnyJobKind; stages: ProgressStages },
  Details extends object,
>({
  guard,
  open,
  details,
  readNeeds,
  retryNeeds,
  retry = retryFromProgress,
}: {
  guard: Guard<Actor>;
  open: (ownerId: string, jobId: string) => Opened | Promise<Opened>;
  details: (job: JobView, opened: Opened) => Details;
  readNeeds?: Action;
  retryNeeds: Action;
  retry?: (ownerId: string, jobId: string, kind: AnyJobKind) => Promise<void>;
}) {
  return {
    async loader({ request, params }: LoaderFunctionArgs) {
      const actor = await guard.require(request, readNeeds);
      const { organization } = actor;
      const jobId = params.jobId ?? "";
      const opened = await open(organization.id, jobId);
      const { job, view } = await jobProgress(organization.id, jobId, opened.kind, opened.stages);
      // Every member allowed to read follows the job; only one who may do what it does is offered 'Try again'.
      return { view: { ...view, retryRefused: guard.whyNot(actor, retryNeeds) }, ...details(job, opened) };
    },
    async action({ request, params }: ActionFunctionArgs) {
      const {
        actor: { organization },
      } = await guard.readForm(request, retryNeeds);
      const jobId = params.jobId ?? "";
      await retry(organization.id, jobId, (await open(organization.id, jobId)).kind);
      return redirect(new URL(request.url).pathname);
    },
  };
}

/** A route whose jobs are all of one kind. */
export const ofKind = (kind: AnyJobKind, stages: ProgressStages) => () => ({ kind, stages });
