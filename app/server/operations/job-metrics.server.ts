import { and, count, eq, lte, min, ne } from "drizzle-orm";
import { Gauge } from "prom-client";
import { db } from "~/server/platform/database/db.server";
import { jobs } from "~/server/platform/database/tables.server";
import { metricsRegistry } from "~/server/platform/metrics.server";

/**
 * The durable jobs as the database holds them, read at each scrape: how many are queued, running, needing
 * attention (and any other status short of succeeded) by kind, and how long the longest-waiting due job has
 * waited; registered by the server's start (serverOperations), once. Every process reads the same rows, so the
 * processes of `npm start` are not added up: the scrape keeps one's figure (`aggregator: "max"`). Across
 * instances, a query takes the max too.
 */
export function registerJobGauges(): void {
  if (metricsRegistry.getSingleMetric("portal_jobs")) return;
  new Gauge({
    name: "portal_jobs",
    help: "Durable jobs not succeeded, by kind and status (queued, running, needs_attention, failed, ...)",
    labelNames: ["kind", "status"] as const,
    aggregator: "max",
    async collect() {
      const rows = await db
        .select({ kind: jobs.kind, status: jobs.status, jobs: count() })
        .from(jobs)
        .where(ne(jobs.status, "succeeded"))
        .groupBy(jobs.kind, jobs.status);
      this.reset();
      for (const row of rows) this.set({ kind: row.kind, status: row.status }, row.jobs);
    },
  });

  new Gauge({
    name: "portal_jobs_oldest_due_seconds",
    help: "How long the queued job due longest ago has waited for a runner, by kind (0 when none is waiting)",
    labelNames: ["kind"] as const,
    aggregator: "max",
    async collect() {
      const now = new Date();
      const rows = await db
        .select({ kind: jobs.kind, due: min(jobs.nextRunAt) })
        .from(jobs)
        .where(and(eq(jobs.status, "queued"), lte(jobs.nextRunAt, now)))
        .groupBy(jobs.kind);
      this.reset();
      for (const row of rows) {
        this.set({ kind: row.kind }, row.due ? Math.max(0, (now.getTime() - row.due.getTime()) / 1000) : 0);
      }
    },
  });
}
