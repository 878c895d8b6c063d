import { AsyncLocalStorage } from "node:async_hooks";

/**
 * Where the work being done comes from: a request being handled, or a job being run (and the request that queued
 * it). Every log line written meanwhile carries these fields (log.server's mixin), so that one request can be
 * followed through the jobs it queued and the provider calls they made. Ids only: nothing here may identify a
 * person beyond the portal's own ids.
 */
export interface WorkContext {
  /** The request being handled (X-Request-Id). */
  requestId?: string;
  /** The request that queued the job being run, passed on to the jobs and provider calls that follow from it. */
  cause?: string;
  jobId?: string;
  jobKind?: string;
  /** The signed-in person and the organization they act for, once the request's guard has read its session. */
  memberId?: string;
  organizationId?: string;
}

const work = new AsyncLocalStorage<WorkContext>();

/** Runs `handle` (and everything it starts) in `context`. */
export function runInContext<T>(context: WorkContext, handle: () => T): T {
  return work.run(context, handle);
}

/** The context of the work this call is part of, if any. */
export function currentContext(): WorkContext | undefined {
  return work.getStore();
}

/**
 * The request a job queued now follows from: the request being handled, or the one that queued the job being
 * run. Undefined for work no request started (a scheduled reconciliation).
 */
export function currentCause(): string | undefined {
  const context = work.getStore();
  return context?.requestId ?? context?.cause;
}

/** Says, for the request being handled, who is signed in and for which organization (if they act for one). */
export function describeMember(memberId: string, organizationId?: string): void {
  const context = work.getStore();
  if (!context?.requestId) return;
  context.memberId = memberId;
  if (organizationId) context.organizationId = organizationId;
}
