import { databaseAnswers, migrationsApplied } from "~/server/platform/database/dialect.server";

let stopping = false;

/** The instance has begun to stop (SIGTERM): readiness turns 503 at once, so load balancers send it nothing new. */
export function beginStopping(): void {
  stopping = true;
}

export interface Readiness {
  ready: boolean;
  /** Each dependency's state: "ok", or why it is not. */
  checks: {
    process: "ok" | "stopping";
    database: "ok" | "not answering";
    migrations: "ok" | "not applied" | "unknown";
  };
}

/**
 * Whether this instance should be sent requests: it is not stopping, its database answers and has every migration
 * this build holds. Liveness (/healthz) asks none of this: a slow database must take instances out of the load
 * balancer's rotation, not have them restarted.
 */
export async function readiness(): Promise<Readiness> {
  const database = await databaseAnswers();
  const migrations = database ? await migrationsApplied().catch(() => null) : null;
  const checks: Readiness["checks"] = {
    process: stopping ? "stopping" : "ok",
    database: database ? "ok" : "not answering",
    migrations: migrations === null ? "unknown" : migrations ? "ok" : "not applied",
  };
  return { ready: !stopping && database && migrations === true, checks };
}
