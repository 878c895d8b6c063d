import { randomUUID } from "node:crypto";
import { and, eq, inArray, lt, or, sql, type SQL } from "drizzle-orm";
import { jobs, type JobStatus } from "~db/schema";
import { ProviderError } from "./providers/errors.server";
import { db } from "./db.server";

/**
 * Durable jobs (DESIGN §6): a long sequence runs as a row whose steps are saved one by one, so closing
 * the window, refreshing or restarting the server loses nothing, and a step that already ran is never
 * run again. Steps must still be idempotent (they check what exists, and pass the job's idempotency key
 * to providers), because a crash can fall between a step's effect and its record.
 */
export interface JobContext<Input> {
  id: string;
  ownerId: string;
  idempotencyKey: string;
  input: Input;
  /** What the earlier steps returned, by step name. */
  results: Record<string, unknown>;
}

export interface JobStep<Input> {
  name: string;
  run(context: JobContext<Input>): Promise<unknown>;
}

export interface JobKind<Input> {
  steps: JobStep<Input>[];
  /** Turns a step's failure into what the progress page shows (the spec's messages). */
  failure(step: string, error: unknown): JobFailure;
}

export interface JobFailure {
  step: string;
  title: string;
  message: string;
}

export type StepState = { status: "done"; result: unknown } | { status: "failed"; message: string };

export interface JobView {
  id: string;
  kind: string;
  status: JobStatus;
  steps: Record<string, StepState>;
  error: JobFailure | null;
  result: Record<string, unknown> | null;
  input: Record<string, unknown>;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- each kind has its own input type; the registry holds them all
export type JobKinds = Record<string, JobKind<any>>;

/** How long a runner holds a job before another may take it over (a crashed process's job). */
const LEASE_MS = 60_000;
/** Provider failures that may be passing (retryable, or unknown outcome) are tried this many times in all. */
const MAX_ATTEMPTS = 3;

const now = () => new Date();

/**
 * Queues a job, or returns the existing one with the same idempotency key: a double submit, a resubmitted
 * form or a refresh gets the first job, never a second.
 */
export function enqueueJob(job: { kind: string; ownerId: string; idempotencyKey: string; input: Record<string, unknown> }): JobView {
  db.insert(jobs)
    .values({ id: randomUUID(), ...job, steps: {} })
    .onConflictDoNothing({ target: jobs.idempotencyKey })
    .run();
  const row = db.select().from(jobs).where(eq(jobs.idempotencyKey, job.idempotencyKey)).get();
  if (!row) throw new Error(`The job ${job.idempotencyKey} was not saved.`);
  wakeRunner();
  return toView(row);
}

/** The user's job with this idempotency key, or null. */
export function findJobByKey(ownerId: string, idempotencyKey: string): JobView | null {
  return findOwned(ownerId, eq(jobs.idempotencyKey, idempotencyKey));
}

/** The user's job, or null: a job id from a URL is never trusted on its own. */
export function findOwnedJob(ownerId: string, jobId: string): JobView | null {
  return findOwned(ownerId, eq(jobs.id, jobId));
}

function findOwned(ownerId: string, condition: SQL): JobView | null {
  const row = db
    .select()
    .from(jobs)
    .where(and(eq(jobs.ownerId, ownerId), condition))
    .get();
  return row ? toView(row) : null;
}

function toView(row: typeof jobs.$inferSelect): JobView {
  return {
    id: row.id,
    kind: row.kind,
    status: row.status,
    steps: row.steps as Record<string, StepState>,
    error: (row.error as JobFailure | null) ?? null,
    result: row.result ?? null,
    input: row.input,
  };
}

/** Takes a queued job (or one whose runner died) for this runner, atomically; null when there is none. */
function claimNext(): typeof jobs.$inferSelect | null {
  const claimable = or(eq(jobs.status, "queued"), and(eq(jobs.status, "running"), lt(jobs.leaseUntil, now())));
  const candidate = db.select({ id: jobs.id }).from(jobs).where(claimable).orderBy(jobs.createdAt).limit(1).get();
  if (!candidate) return null;
  return (
    db
      .update(jobs)
      .set({
        status: "running",
        leaseUntil: new Date(Date.now() + LEASE_MS),
        attempts: sql`${jobs.attempts} + 1`,
        updatedAt: now(),
      })
      .where(and(eq(jobs.id, candidate.id), claimable))
      .returning()
      .get() ?? null
  );
}

async function execute(row: typeof jobs.$inferSelect, kinds: JobKinds): Promise<void> {
  const kind = kinds[row.kind];
  if (!kind) throw new Error(`No job kind ${row.kind} is registered.`);
  const steps = { ...(row.steps as Record<string, StepState>) };
  const results = Object.fromEntries(
    Object.entries(steps).flatMap(([name, state]) => (state.status === "done" ? [[name, state.result]] : [])),
  );
  for (const step of kind.steps) {
    if (steps[step.name]?.status === "done") continue;
    try {
      const result = await step.run({ id: row.id, ownerId: row.ownerId, idempotencyKey: row.idempotencyKey, input: row.input, results });
      results[step.name] = result ?? null;
      steps[step.name] = { status: "done", result: result ?? null };
      db.update(jobs)
        .set({ steps, leaseUntil: new Date(Date.now() + LEASE_MS), updatedAt: now() })
        .where(eq(jobs.id, row.id))
        .run();
    } catch (error) {
      const passing = error instanceof ProviderError && error.kind !== "final";
      if (passing && row.attempts < MAX_ATTEMPTS) {
        // The same idempotency key makes the retry safe even when the outcome was unknown.
        db.update(jobs).set({ status: "queued", leaseUntil: null, updatedAt: now() }).where(eq(jobs.id, row.id)).run();
        return;
      }
      const failure = kind.failure(step.name, error);
      steps[step.name] = { status: "failed", message: failure.message };
      db.update(jobs)
        .set({ status: "failed", steps, error: { ...failure }, leaseUntil: null, updatedAt: now(), finishedAt: now() })
        .where(eq(jobs.id, row.id))
        .run();
      return;
    }
  }
  db.update(jobs)
    .set({ status: "succeeded", result: results, leaseUntil: null, updatedAt: now(), finishedAt: now() })
    .where(eq(jobs.id, row.id))
    .run();
}

/** Runs every job that can be claimed now, one after another; resolves when none is left. */
export async function drainJobs(kinds: JobKinds): Promise<void> {
  for (let row = claimNext(); row; row = claimNext()) {
    try {
      await execute(row, kinds);
    } catch (error) {
      // A bug in a step's code, not a provider's refusal: record it so the page can say so, and go on.
      console.error(`Job ${row.id} (${row.kind}) stopped:`, error);
      db.update(jobs)
        .set({
          status: "failed",
          error: { step: "", title: "Something went wrong", message: "An unexpected error stopped this order. Please contact support." },
          leaseUntil: null,
          finishedAt: now(),
        })
        .where(eq(jobs.id, row.id))
        .run();
    }
  }
}

let runner: { kinds: JobKinds; running: Promise<void> | null } | null = null;

function wakeRunner(): void {
  if (!runner || runner.running) return;
  const active = runner;
  active.running = drainJobs(active.kinds).finally(() => {
    active.running = null;
  });
}

/**
 * Starts this process's runner. One runner serves one database: on start-up the jobs a stopped process
 * left running are taken back at once, not after their lease, then queued jobs run as they arrive.
 */
export function startJobRunner(kinds: JobKinds, pollMs = 1000): void {
  if (runner) return;
  runner = { kinds, running: null };
  db.update(jobs)
    .set({ status: "queued", leaseUntil: null })
    .where(inArray(jobs.status, ["running"]))
    .run();
  wakeRunner();
  setInterval(wakeRunner, pollMs).unref();
}
