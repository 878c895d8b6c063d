import type { JobKinds } from "./jobs.server";
import { ORDER_JOB, orderJob } from "./new-subscription.server";

/** Every kind of durable job the runner knows. */
export const JOB_KINDS: JobKinds = {
  [ORDER_JOB]: orderJob,
};
