import { randomUUID } from "node:crypto";
import { hostname } from "node:os";
import { and, asc, desc, eq, inArray, lt, lte, or, sql } from "drizzle-orm";
import type { z } from "zod";
import { claimCondition } from "~/server/platform/database/dialect.server";
import { affectedRows } from "~/server/platform/database/portal-database.server";
import { jobs, type JobStatus } from "~/server/platform/database/tables.server";
import { db, type PortalExecutor, type PortalTransaction } from "~/server/platform/database/db.server";
import { env } from "~/server/platform/config/env.server";
import { ProviderError } from "~/server/platform/provider-errors.server";
import { errorFields, logger, roundMs } from "~/server/platform/log/log.server";
import { currentCause, runInContext } from "~/server/platform/log/request-context.server";
import { inSpan } from "~/server/platform/log/traces.server";

/**
 * Durable jobs (decision 042): a long sequence runs as a row whose steps are recorded one by
 * one, so closing the window, refreshing or restarting the server loses nothing and a step that finished
 * is never run again. Any number of processes may run jobs on one database: a runner claims a due job
 * with one atomic update that takes an absent or expired lease (claimJob), renews the lease while a step runs,
 * and every write it makes checks that it still holds the lease.
 *
 * What a failure does depends on what it says about the outside world:
 * - a refusal (`final`): nothing happened; the job fails with its kind's screen for the step, and a retry of the step
 *   uses a new provider key (the refused one would only replay the refusal);
 * - an unknown outcome (a timeout after the request left): the job `needs_attention`; before the step
 *   runs again, its `reconcile` asks the provider whether the first try took effect;
 * - anything else that may pass (`retryable`, a bug, a full disk): retried with backoff, then failed.
 * A failed or needs_attention job is retried as the same job (`retryJob`), never placed anew.
 *
 * A step whose charge the card's bank asks the present cardholder to authenticate throws AwaitingCardholder: nothing
 * was charged, and the job waits for them (`waiting_for_cardholder`), claimed by no runner and counted as no
 * attempt, until they come back from the bank's page or choose another card (resumeWaitingJob).
 */
/**
 * What each step of a kind returns, by step name. Results are saved with the job as JSON, so they are plain data
 * (strings, numbers, booleans, null, arrays and objects of them; a date as its ISO string).
 */
export type StepResults = Record<string, unknown>;

/**
 * Who a job is for: an organization (its id), or nobody yet (null) for a job that finds out itself, such as a
 * link mailed to an address a stranger typed, which must cost the same whether or not an account has it.
 */
export type JobOwner = string | null;

export interface JobContext<Input, Results extends StepResults, Owner extends JobOwner = string> {
  id: string;
  ownerId: Owner;
  idempotencyKey: string;
  input: Input;
  /** What the earlier steps returned, by step name: every step before the running one is done (see `resultOf`). */
  results: Partial<Results>;
  /** The key this step passes to its provider: the job's key, the step, and how many times it was refused. */
  stepKey: string;
  /** Deletes a field of the saved input once it has served (a sealed password): it is then gone from the database. */
  forget(field: string): Promise<void>;
  /**
   * Saves a field into the job's input for the steps after this one (a sealed credential they need), where
   * `forget` deletes it: unlike a step's result, which stays with the job for good.
   */
  remember(field: string, value: string): Promise<void>;
}

/** One step of a kind; `Name` is its name among the kind's results, and what it returns is that result. */
export interface JobStep<
  Input,
  Results extends StepResults,
  Name extends keyof Results & string,
  Owner extends JobOwner = string,
> {
  name: Name;
  /** A step that charges the customer: a job whose charging step may have run cannot be replaced by a new order. */
  charges?: boolean;
  run(context: JobContext<Input, Results, Owner>): Promise<Results[Name]>;
  /**
   * Whether an earlier try whose outcome is unknown (a timeout, a crash mid-step) took effect: what the
   * step would have returned, or null when it did not. Asked before the step runs again.
   */
  reconcile?(context: JobContext<Input, Results, Owner>): Promise<Results[Name] | null>;
}

/** Any one of a kind's steps: each name of its results with the step that makes that result. */
export type StepOf<Input, Results extends StepResults, Owner extends JobOwner = string> = {
  [Name in keyof Results & string]: JobStep<Input, Results, Name, Owner>;
}[keyof Results & string];

/**
 * A kind of job: its input (zod), its steps in order, and what each step returns (`Results`, by step name), so
 * that a later step, and the kind's progress page, read an earlier step's result in its own type. `Owner` is
 * `string` for the kinds an organization's jobs are of (all but a few), `null` for a kind queued for nobody.
 */
export interface JobKind<Input, Results extends StepResults, Owner extends JobOwner = string> {
  name: string;
  /** The job's input as saved; parsed again when the job runs, so a runner never trusts a stored shape. */
  input: z.ZodType<Input, z.ZodTypeDef, unknown>;
  steps: StepOf<Input, Results, Owner>[];
  /** Turns a step's failure into what the progress page shows: a title and a message the customer can act on. */
  failure(step: string, error: unknown): JobFailure;
  /**
   * What the job takes for itself as it is queued (a license a Hub is to be made from), in `tx`, the transaction
   * that queues it, so two jobs cannot both take it; false refuses the job (enqueueJob throws JobRefused).
   */
  reserve?(job: { id: string; ownerId: Owner; input: Input }, tx: PortalTransaction): Promise<boolean>;
  /** Called once the job has failed, to give back what it reserved and no finished step has made its own. */
  release?(job: { id: string; steps: Record<string, StepState> }): Promise<void>;
  /**
   * How long a kind waits out an outside service that may be down for hours (a tax register): its automatic runs and
   * the longest wait between two. Without it, MAX_AUTOMATIC_ATTEMPTS runs a minute apart at most, what a customer
   * watching a progress page can wait for.
   */
  patience?: { attempts: number; maxBackoffMs: number };
}

/** The results of a kind, by step name. */
export type ResultsOf<Kind> = Kind extends JobKind<infer _Input, infer Results, infer _Owner> ? Results : never;

/**
 * An earlier step's result. The runner runs a kind's steps in order and each only after the ones before it are
 * done, so a result missing here is a bug in the kind (a step reading one that comes after it).
 */
export function resultOf<Results extends StepResults, Name extends keyof Results & string>(
  results: Partial<Results>,
  name: Name,
): Results[Name] {
  if (!(name in results)) throw new Error(`The step ${name} has not run yet.`);
  return results[name] as Results[Name];
}

/**
 * The results of a job's finished steps, in its kind's types: they were saved by that kind's own steps (the job
 * row's kind is the kind's name, which the callers have checked), so this is the one place their type is restored.
 */
export function finishedResults<Kind extends AnyJobKind>(_kind: Kind, job: JobView): Partial<ResultsOf<Kind>> {
  return Object.fromEntries(
    Object.entries(job.steps).flatMap(([name, state]) => (state.status === "done" ? [[name, state.result]] : [])),
  ) as Partial<ResultsOf<Kind>>;
}

export interface JobFailure {
  step: string;
  title: string;
  message: string;
}

/**
 * A step as recorded: `started` and `unknown` mean it may have taken effect; `refusals` counts final refusals. A
 * `waiting` step charged nothing: it waits for the cardholder on the bank's page at `redirectUrl` (`message`: why
 * the last authentication did not pass, if it did not).
 */
export type StepState =
  | { status: "done"; result: unknown }
  | { status: "started" | "unknown" | "failed"; refusals: number; message?: string }
  | { status: "waiting"; refusals: number; redirectUrl: string; message?: string };

export interface JobView {
  id: string;
  kind: string;
  ownerId: JobOwner;
  status: JobStatus;
  steps: Record<string, StepState>;
  error: JobFailure | null;
  result: Record<string, unknown> | null;
  input: Record<string, unknown>;
  attempts: number;
  createdAt: Date;
  updatedAt: Date;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- each kind has its own input and results; the registry holds them all
export type AnyJobKind = JobKind<any, any, any>;

/** Runs of a job (claims) before an automatic retry gives up and leaves it to the customer or an admin. */
export const MAX_AUTOMATIC_ATTEMPTS = 5;
const MAX_BACKOFF_MS = 60_000;
/** Jobs one process runs at once: a hanging provider call must not hold up every other customer's order. */
const CONCURRENCY = 4;

const now = () => new Date();
type JobRow = typeof jobs.$inferSelect;

export class LeaseLostError extends Error {
  override name = "LeaseLostError";
}

/** A job its kind refused to queue: what it must reserve is taken. */
export class JobRefused extends Error {
  override name = "JobRefused";
}

/**
 * A step's charge the card's bank asks the present cardholder to authenticate, on its page at `redirectUrl`:
 * nothing was charged, and the job waits for them. `reason` says why an earlier authentication did not pass.
 */
export class AwaitingCardholder extends Error {
  override name = "AwaitingCardholder";
  constructor(
    readonly redirectUrl: string,
    readonly reason: string | null = null,
  ) {
    super(reason ?? "The card's bank asks the cardholder to authenticate the payment.");
  }
}

/** A step's own refusal (a rule or a price that no longer holds): final, like a provider's refusal. */
export class StepRefused extends Error {
  override name = "StepRefused";
}

function toView(row: JobRow): JobView {
  return {
    id: row.id,
    kind: row.kind,
    ownerId: row.ownerId,
    status: row.status,
    steps: row.steps as Record<string, StepState>,
    error: (row.error as JobFailure | null) ?? null,
    result: row.result ?? null,
    input: row.input,
    attempts: row.attempts,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}

/**
 * Queues a job for its owner (an organization), or returns the existing one with the same idempotency key: a
 * double submit, a resubmitted form or a refresh gets the first job, never a second. Throws JobRefused when its
 * kind cannot reserve what it needs (nothing is queued then). `alongside` writes what commits with a new job
 * (the activity log's entry for an order placed), in the same transaction, and only when the job is new.
 */
export async function enqueueJob<
  Input extends Record<string, unknown>,
  Results extends StepResults,
  Owner extends JobOwner,
>(
  kind: JobKind<Input, Results, Owner>,
  {
    alongside,
    ...job
  }: {
    ownerId: Owner;
    idempotencyKey: string;
    input: Input;
    /** Written in the transaction that queues the job (with the job's id), only when it is queued; throws to queue none. */
    alongside?: (tx: PortalTransaction, jobId: string) => Promise<void>;
  },
): Promise<JobView & { ownerId: Owner }> {
  const id = randomUUID();
  const input = kind.input.parse(job.input);
  await db.transaction(async (tx) => {
    const queued = affectedRows(
      await tx
        .insert(jobs)
        .values({
          id,
          kind: kind.name,
          ...job,
          input: input as Record<string, unknown>,
          steps: {},
          nextRunAt: now(),
          cause: currentCause() ?? null,
        })
        .onConflictDoNothing({ target: jobs.idempotencyKey }),
    );
    if (queued && kind.reserve && !(await kind.reserve({ id, ownerId: job.ownerId, input }, tx))) {
      throw new JobRefused(`The ${kind.name} job could not reserve what it needs.`);
    }
    if (queued && alongside) await alongside(tx, id);
  });
  const [row] = await db.select().from(jobs).where(eq(jobs.idempotencyKey, job.idempotencyKey));
  if (!row) throw new Error(`The job ${job.idempotencyKey} was not saved.`);
  wakeRunner();
  // The row its key found is the one queued for this owner: keys are the owner's (an order's draft, a mail's).
  return toView(row) as JobView & { ownerId: Owner };
}

/** The user's job with this idempotency key, or null. */
export async function findJobByKey(ownerId: string, idempotencyKey: string): Promise<JobView | null> {
  const [row] = await db
    .select()
    .from(jobs)
    .where(and(eq(jobs.ownerId, ownerId), eq(jobs.idempotencyKey, idempotencyKey)));
  return row ? toView(row) : null;
}

/** The user's jobs whose key starts with the prefix (e.g. every order of one draft), oldest first. */
export async function findJobsByKeyPrefix(ownerId: string, prefix: string): Promise<JobView[]> {
  const rows = await db
    .select()
    .from(jobs)
    .where(and(eq(jobs.ownerId, ownerId), sql`substr(${jobs.idempotencyKey}, 1, ${prefix.length}) = ${prefix}`))
    .orderBy(asc(jobs.createdAt), asc(jobs.id));
  return rows.map(toView);
}

/** The user's job of this kind, or null: a job id from a URL is never trusted on its own. */
export async function findOwnedJob(ownerId: string, jobId: string, kind?: string): Promise<JobView | null> {
  const [row] = await db
    .select()
    .from(jobs)
    .where(and(eq(jobs.ownerId, ownerId), eq(jobs.id, jobId)));
  return row && (!kind || row.kind === kind) ? toView(row) : null;
}

/** The organization's jobs that wait for the cardholder (a handful at most: each waits on one customer's bank). */
export async function listWaitingJobs(ownerId: string): Promise<JobView[]> {
  const rows = await db
    .select()
    .from(jobs)
    .where(and(eq(jobs.ownerId, ownerId), eq(jobs.status, "waiting_for_cardholder")));
  return rows.map(toView);
}

/** Jobs an administrator should look at: those waiting on an unknown outcome, and failed ones, newest first. */
export async function listJobsNeedingAttention(limit = 100, ownerId?: string): Promise<JobView[]> {
  const stopped = inArray(jobs.status, ["needs_attention", "failed"]);
  const rows = await db
    .select()
    .from(jobs)
    .where(ownerId ? and(eq(jobs.ownerId, ownerId), stopped) : stopped)
    .orderBy(desc(jobs.updatedAt), desc(jobs.id))
    .limit(limit);
  return rows.map(toView);
}

/** Whether a charging step of the job may have run: such a job must be finished, never replaced by a new order. */
export function mayHaveCharged(kind: AnyJobKind, job: JobView): boolean {
  if (job.status === "queued" && Object.keys(job.steps).length === 0) return true;
  return kind.steps.some((step) => {
    const state = job.steps[step.name];
    return step.charges && state !== undefined && state.status !== "failed";
  });
}

/**
 * The customer's "Try again": the same job runs again from the step that stopped it (a refused step with a
 * new provider key, an unknown outcome after asking the provider). False when the job is not theirs or
 * is not stopped.
 */
export async function retryJob(ownerId: string, jobId: string): Promise<boolean> {
  const result = await db
    .update(jobs)
    .set({
      status: sql`case when ${jobs.status} = 'needs_attention' then 'needs_attention' else 'queued' end`,
      nextRunAt: now(),
      attempts: 0,
      error: null,
      finishedAt: null,
      updatedAt: now(),
    })
    .where(and(eq(jobs.id, jobId), eq(jobs.ownerId, ownerId), inArray(jobs.status, ["failed", "needs_attention"])));
  const changed = affectedRows(result) > 0;
  if (changed) wakeRunner();
  return changed;
}

/**
 * Starts a job that waits for the cardholder again, as the same job, from the step that waits: once they came back
 * from the bank's page, or with `input` (another card) when they chose one. One statement checks that it still
 * waits, unchanged since the caller read it (`seen`, its `updatedAt`), so of two returns or two choices (a reload,
 * a second tab) only one starts it, even when the job has run and waits again in between; false for the other,
 * and for a job that is not the organization's or does not wait.
 */
export async function resumeWaitingJob(
  ownerId: string,
  seen: Pick<JobView, "id" | "updatedAt">,
  input?: Record<string, unknown>,
): Promise<boolean> {
  const result = await db
    .update(jobs)
    .set({ status: "queued", nextRunAt: now(), attempts: 0, updatedAt: now(), ...(input && { input }) })
    .where(
      and(
        eq(jobs.id, seen.id),
        eq(jobs.ownerId, ownerId),
        eq(jobs.status, "waiting_for_cardholder"),
        eq(jobs.updatedAt, seen.updatedAt),
      ),
    );
  const resumed = affectedRows(result) > 0;
  if (resumed) wakeRunner();
  return resumed;
}

/** The step of a job that waits for the cardholder, as recorded; null when none waits. */
export function waitingStep(job: JobView): { redirectUrl: string; message: string | null } | null {
  if (job.status !== "waiting_for_cardholder") return null;
  const waiting = Object.values(job.steps).find((state) => state.status === "waiting");
  return waiting?.status === "waiting" ? { redirectUrl: waiting.redirectUrl, message: waiting.message ?? null } : null;
}

/**
 * One line per failure, with the step and the error's stack; the job's id, kind and cause come with the work
 * context the job runs in.
 */
function logJobFailure(row: JobRow, step: string, kind: string, error: unknown): void {
  logger.error({
    event: "job-step-failed",
    jobId: row.id,
    jobKind: row.kind,
    step,
    errorKind: kind,
    run: row.attempts,
    ...errorFields(error),
  });
}

/** A claim that failed (the database unreachable): the next poll claims again. */
function logClaimFailure(error: unknown): void {
  logger.error({ event: "job-claim-failed", ...errorFields(error) });
}

const backoff = (attempts: number, maxBackoffMs = MAX_BACKOFF_MS) =>
  Math.min(maxBackoffMs, env.JOB_BACKOFF_MS * 2 ** Math.max(0, attempts - 1));

/**
 * Takes one due job for `holder` (queued or needs_attention whose time has come, or running under an expired lease)
 * with one atomic update, leased for `leaseMs`; null when none is due. A job is never taken by two claims at once:
 * the update checks again, as it writes, that the job is due (claimCondition), so a claim that lost the race takes
 * another job or none. `database` is the portal's, or another one (a test of many claimers on one database).
 */
export async function claimJob(
  holder: string,
  leaseMs: number,
  database: PortalExecutor = db,
  at = now(),
): Promise<JobRow | null> {
  const due = or(
    and(inArray(jobs.status, ["queued", "needs_attention"]), lte(jobs.nextRunAt, at)),
    and(eq(jobs.status, "running"), lt(jobs.leaseUntil, at)),
  )!;
  const [claimed] = await database
    .update(jobs)
    .set({
      status: "running",
      leaseHolder: holder,
      leaseUntil: new Date(at.getTime() + leaseMs),
      attempts: sql`${jobs.attempts} + 1`,
      updatedAt: at,
    })
    .where(claimCondition(due))
    .returning();
  return claimed ?? null;
}

/** One process's runner: its id is the lease holder written on the jobs it claims. */
export class JobRunner {
  readonly id = `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
  private active = 0;
  private claiming = false;
  private wakeAgain = false;
  private stopped = false;
  /** Settles once the runner has stopped and holds no job (stop). */
  private idle: (() => void) | null = null;

  constructor(
    private readonly kinds: Record<string, AnyJobKind>,
    private readonly leaseMs = env.JOB_LEASE_MS,
  ) {}

  /** Takes one due job for this runner (claimJob). */
  claim(): Promise<JobRow | null> {
    return claimJob(this.id, this.leaseMs);
  }

  /** A write of this runner's job, refused when another runner has taken the job over. */
  private async write(jobId: string, change: Partial<typeof jobs.$inferInsert>): Promise<void> {
    const result = await db
      .update(jobs)
      .set({ ...change, updatedAt: now() })
      .where(and(eq(jobs.id, jobId), eq(jobs.leaseHolder, this.id)));
    if (affectedRows(result) !== 1) throw new LeaseLostError(`Job ${jobId} is no longer held by ${this.id}.`);
  }

  /** Keeps the lease while a step runs; `lost` turns true when another runner took the job. */
  private holdLease(jobId: string) {
    const state = { lost: false };
    const timer = setInterval(
      () => {
        this.write(jobId, { leaseUntil: new Date(Date.now() + this.leaseMs) }).catch(() => {
          state.lost = true;
        });
      },
      Math.max(100, Math.floor(this.leaseMs / 3)),
    );
    timer.unref();
    return { state, release: () => clearInterval(timer) };
  }

  /**
   * Runs the claimed job's remaining steps, recording each one; returns when the job stops or finishes, or, once
   * the runner is stopping, after the step that is running (the job is then given back for another runner). Its
   * log lines and provider calls carry the job and the request that queued it.
   */
  execute(row: JobRow): Promise<void> {
    return runInContext({ jobId: row.id, jobKind: row.kind, cause: row.cause ?? undefined }, async () => {
      const started = performance.now();
      const outcome = await this.runSteps(row);
      logger.info({ event: "job-run", outcome, run: row.attempts, durationMs: roundMs(performance.now() - started) });
    });
  }

  private async runSteps(row: JobRow): Promise<"succeeded" | "stopped" | "waiting" | "given-back" | "lease-lost"> {
    const kind = this.kinds[row.kind];
    const input = kind?.input.safeParse(row.input);
    if (!kind || !input?.success) {
      logJobFailure(row, "", "final", new Error(kind ? "Its input does not parse." : "No such job kind."));
      await this.finish(row.id, "failed", {
        error: { step: "", title: "Something went wrong", message: "This job cannot run. Please contact support." },
      });
      return "stopped";
    }
    const steps = { ...(row.steps as Record<string, StepState>) };
    const results: Record<string, unknown> = Object.fromEntries(
      Object.entries(steps).flatMap(([name, state]) => (state.status === "done" ? [[name, state.result]] : [])),
    );
    for (const step of kind.steps) {
      const state = steps[step.name];
      if (state?.status === "done") continue;
      if (this.stopped) {
        await this.giveBack(row, steps);
        return "given-back";
      }
      const refusals = state?.refusals ?? 0;
      const context: JobContext<unknown, StepResults, JobOwner> = {
        id: row.id,
        ownerId: row.ownerId,
        idempotencyKey: row.idempotencyKey,
        input: input.data,
        results,
        stepKey: `${row.idempotencyKey}:${step.name}:${refusals}`,
        forget: async (field) => {
          const { [field]: _forgotten, ...kept } = row.input;
          row.input = kept;
          await this.write(row.id, { input: kept });
        },
        remember: async (field, value) => {
          row.input = { ...row.input, [field]: value };
          await this.write(row.id, { input: row.input });
          // The steps after this one in this run read the parsed input.
          (input.data as Record<string, unknown>)[field] = value;
        },
      };
      const lease = this.holdLease(row.id);
      try {
        const mayHaveRun = state?.status === "started" || state?.status === "unknown";
        const found = mayHaveRun && step.reconcile ? await step.reconcile(context) : null;
        let result = found;
        if (found === null || found === undefined) {
          steps[step.name] = { status: "started", refusals };
          await this.write(row.id, { steps });
          result =
            (await inSpan(`job step ${step.name}`, { "portal.job_kind": row.kind }, () => step.run(context))) ?? null;
        }
        if (lease.state.lost) throw new LeaseLostError(`Job ${row.id} was taken over while ${step.name} ran.`);
        results[step.name] = result;
        steps[step.name] = { status: "done", result };
        await this.write(row.id, { steps });
      } catch (error) {
        if (error instanceof LeaseLostError) return "lease-lost";
        if (error instanceof AwaitingCardholder) {
          await this.waitForCardholder(row, step.name, steps, refusals, error);
          return "waiting";
        }
        await this.recordFailure(row, kind, step.name, steps, refusals, error);
        return "stopped";
      } finally {
        lease.release();
      }
    }
    await this.finish(row.id, "succeeded", { result: results, steps });
    return "succeeded";
  }

  /**
   * A stopping runner's job between two steps: queued again and due at once, its lease released, so that another
   * runner takes it on its next claim rather than after the lease. The run it gives back does not count as one of
   * its automatic attempts.
   */
  private async giveBack(row: JobRow, steps: Record<string, StepState>): Promise<void> {
    await this.write(row.id, {
      status: "queued",
      steps,
      leaseHolder: null,
      leaseUntil: null,
      nextRunAt: now(),
      attempts: Math.max(0, row.attempts - 1),
    });
  }

  /** Leaves the job to the cardholder: no runner claims it, and no attempt counts, until it is resumed. */
  private async waitForCardholder(
    row: JobRow,
    stepName: string,
    steps: Record<string, StepState>,
    refusals: number,
    waiting: AwaitingCardholder,
  ): Promise<void> {
    logger.info({ event: "job-waits-for-cardholder", jobId: row.id, jobKind: row.kind, step: stepName });
    const { redirectUrl, reason } = waiting;
    steps[stepName] = { status: "waiting", refusals, redirectUrl, ...(reason && { message: reason }) };
    await this.write(row.id, {
      status: "waiting_for_cardholder",
      steps,
      error: null,
      leaseHolder: null,
      leaseUntil: null,
      nextRunAt: null,
      attempts: 0,
    });
  }

  /** Records why a step stopped the job, and what happens next (see the class comment). */
  private async recordFailure(
    row: JobRow,
    kind: AnyJobKind,
    stepName: string,
    steps: Record<string, StepState>,
    refusals: number,
    error: unknown,
  ) {
    const kindOfError =
      error instanceof ProviderError ? error.kind : error instanceof StepRefused ? "final" : "retryable";
    const failure = kind.failure(stepName, error);
    logJobFailure(row, stepName, kindOfError, error);
    const canRetry = row.attempts < (kind.patience?.attempts ?? MAX_AUTOMATIC_ATTEMPTS);
    const nextRun = () => new Date(Date.now() + backoff(row.attempts, kind.patience?.maxBackoffMs));
    if (kindOfError === "final") {
      steps[stepName] = { status: "failed", refusals: refusals + 1, message: failure.message };
      await this.finish(row.id, "failed", { steps, error: { ...failure } });
      await kind.release?.({ id: row.id, steps });
    } else if (kindOfError === "unknown") {
      steps[stepName] = { status: "unknown", refusals, message: failure.message };
      await this.write(row.id, {
        status: "needs_attention",
        steps,
        error: { ...failure },
        leaseHolder: null,
        leaseUntil: null,
        nextRunAt: canRetry ? nextRun() : null,
      });
    } else if (canRetry) {
      // The step is left as started: it may have done part of its work, so its own checks decide on the rerun.
      await this.write(row.id, {
        status: "queued",
        steps,
        leaseHolder: null,
        leaseUntil: null,
        nextRunAt: nextRun(),
      });
    } else {
      await this.finish(row.id, "failed", { steps, error: { ...failure } });
      await kind.release?.({ id: row.id, steps });
    }
  }

  private async finish(jobId: string, status: "succeeded" | "failed", change: Partial<typeof jobs.$inferInsert>) {
    await this.write(jobId, {
      ...change,
      status,
      leaseHolder: null,
      leaseUntil: null,
      nextRunAt: null,
      finishedAt: now(),
    });
  }

  /**
   * Runs due jobs until none is left; at most CONCURRENCY at once in this process. One claim is in flight at a
   * time: a wake that comes meanwhile (a job queued, a job finished) claims again once it is back, so a job queued
   * while a claim came back empty is not left for the next poll.
   */
  wake(): void {
    if (this.stopped || this.active >= CONCURRENCY) return;
    if (this.claiming) {
      this.wakeAgain = true;
      return;
    }
    this.claiming = true;
    this.wakeAgain = false;
    void this.claim()
      .catch((error: unknown) => {
        logClaimFailure(error);
        return null;
      })
      .then((row) => {
        this.claiming = false;
        if (row) {
          this.active += 1;
          void this.execute(row)
            .catch((error: unknown) => logJobFailure(row, "", "retryable", error))
            .finally(() => {
              this.active -= 1;
              if (this.stopped && this.active === 0) this.idle?.();
              this.wake();
            });
        }
        if (row || this.wakeAgain) this.wake();
      });
  }

  /** Resolves when every job due now has run (for tests and scripts). */
  async drain(): Promise<void> {
    for (let row = await this.claim(); row; row = await this.claim()) await this.execute(row);
  }

  /**
   * Claims nothing more; each job it runs is given back after the step that is running (see execute). Resolves once
   * it holds none: every job it held is then due for another runner at once.
   */
  stop(): Promise<void> {
    this.stopped = true;
    if (this.active === 0) return Promise.resolve();
    return new Promise((resolve) => {
      this.idle = resolve;
    });
  }
}

let runner: JobRunner | null = null;

/** Stops this process's runner, if it runs one (JobRunner.stop). */
export function stopJobRunner(): Promise<void> {
  return runner?.stop() ?? Promise.resolve();
}

function wakeRunner(): void {
  runner?.wake();
}

/**
 * Starts this process's runner. It takes back nothing at start-up: a job left running by a stopped
 * process is claimed like any other once its lease has expired, so several processes can share one database.
 */
export function startJobRunner(kinds: Record<string, AnyJobKind>, pollMs = 500): JobRunner {
  if (runner) return runner;
  const started = new JobRunner(kinds);
  runner = started;
  started.wake();
  setInterval(() => started.wake(), pollMs).unref();
  return started;
}
