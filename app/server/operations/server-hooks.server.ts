import { createHash, timingSafeEqual } from "node:crypto";
import { env } from "~/server/platform/config/env.server";
import { stopJobRunner } from "~/server/platform/jobs/runner.server";
import { logger, roundMs } from "~/server/platform/log/log.server";
import { collectProcessMetrics, httpRequestDuration, metricsRegistry } from "~/server/platform/metrics.server";
import { runInContext, type WorkContext } from "~/server/platform/log/request-context.server";
import { annotateSpan, flushTraces } from "~/server/platform/log/traces.server";
import { registerJobGauges } from "./job-metrics.server";
import { beginStopping } from "./readiness.server";

/** How a request went, as the HTTP server saw it. */
export interface RequestOutcome {
  method: string;
  /** The Remix route id that answered (never the raw path: few values), or null for a request refused before. */
  route: string | null;
  status: number;
  durationMs: number;
  /** What was written to the connection for it, headers included. */
  bytes: number;
}

/**
 * What the HTTP server in front of the app (scripts/server.mjs) calls: the work context of each request, its
 * log line and metrics, `/metrics`, and the two halves of a clean stop.
 */
export interface ServerOperations {
  /** Handles a request in its own work context (given to `handle`): every log line written meanwhile carries its id. */
  inRequest(requestId: string, handle: (context: WorkContext) => void): void;
  /** The request's one log line (with who was signed in) and its duration in the histogram. */
  requestDone(context: WorkContext, outcome: RequestOutcome): void;
  /** Whether `/metrics` is served on the portal's own port: METRICS_TOKEN is set. */
  readonly metricsOnPortalPort: boolean;
  /** Whether an Authorization header carries METRICS_TOKEN (never when it is not set). */
  metricsAllowed(authorization: string | undefined): boolean;
  /** This process's metrics, in Prometheus' text format. */
  metrics(): Promise<string>;
  readonly metricsContentType: string;
  /** The stop begins: readiness turns 503. */
  beginStop(): void;
  /** The stop ends, once requests are done: the jobs this process holds are given back, the log flushed. */
  finishStop(): Promise<void>;
}

const digest = (value: string) => createHash("sha256").update(value).digest();

function metricsAllowed(authorization: string | undefined): boolean {
  if (!env.METRICS_TOKEN || !authorization?.startsWith("Bearer ")) return false;
  // Compared as digests: equal lengths, in constant time.
  return timingSafeEqual(digest(authorization.slice("Bearer ".length)), digest(env.METRICS_TOKEN));
}

const statusClass = (status: number) => `${Math.floor(status / 100)}xx`;

export function serverOperations(): ServerOperations {
  collectProcessMetrics();
  registerJobGauges();
  return {
    inRequest(requestId, handle) {
      const context: WorkContext = { requestId };
      runInContext(context, () => {
        annotateSpan({ "portal.request_id": requestId });
        handle(context);
      });
    },
    requestDone(context, { method, route, status, durationMs, bytes }) {
      httpRequestDuration.observe(
        { route: route ?? "none", method, status_class: statusClass(status) },
        durationMs / 1000,
      );
      runInContext(context, () =>
        logger.info({ event: "request", method, route, status, durationMs: roundMs(durationMs), bytes }),
      );
    },
    metricsOnPortalPort: env.METRICS_TOKEN !== undefined,
    metricsAllowed,
    metrics: () => metricsRegistry.metrics(),
    metricsContentType: metricsRegistry.contentType,
    beginStop() {
      beginStopping();
      logger.info({ event: "stopping" }, "Stopping: readiness answers 503; requests in flight finish.");
    },
    async finishStop() {
      await stopJobRunner();
      logger.info({ event: "stopped" }, "Stopped: every job this process held is given back.");
      logger.flush();
      await flushTraces();
    },
  };
}
