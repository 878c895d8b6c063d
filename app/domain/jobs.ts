/** How a durable job looks to the person waiting for it: its progress stages, each with a state. */
export type ProgressState = "done" | "running" | "waiting" | "failed";

export type JobStatusName =
  "queued" | "running" | "succeeded" | "failed" | "needs_attention" | "waiting_for_cardholder";

/** A job's status in the product's words, as the administrator's pages show it. */
export const JOB_STATUS_NAMES: Record<JobStatusName, string> = {
  queued: "Queued",
  running: "Running",
  succeeded: "Done",
  failed: "Failed",
  needs_attention: "Needs attention",
  waiting_for_cardholder: "Waiting for the cardholder",
};

/**
 * A job its page follows until it finishes: queued, running, or asking a provider what became of a step. One
 * waiting for the cardholder is not followed: nothing moves until they come back from their bank's page.
 */
export const isUnfinished = (status: JobStatusName) =>
  status === "queued" || status === "running" || status === "needs_attention";

export interface ProgressStage {
  title: string;
  state: ProgressState;
}

/**
 * The progress list of a job: each stage (a title the customer reads, e.g. 'Create Recurring License') groups
 * job steps; it is done when they all are, failed when the job stopped in it, running while the job works
 * on it, and waiting otherwise.
 */
export function progressOf(
  status: JobStatusName,
  stepStates: Record<string, { status: string }>,
  stages: { title: string; steps: string[] }[],
): ProgressStage[] {
  const stopped = status === "failed" || status === "needs_attention";
  let current = true;
  return stages.map(({ title, steps }) => {
    const done = steps.every((step) => stepStates[step]?.status === "done");
    if (done) return { title, state: "done" };
    const state: ProgressState = current ? (stopped ? "failed" : "running") : "waiting";
    current = false;
    return { title, state };
  });
}
