import { collectDefaultMetrics, Counter, Histogram, register } from "prom-client";

/**
 * The portal's metrics, in prom-client's default registry: what `/metrics` answers in Prometheus' text format.
 * Under `npm start` each process keeps its own and one scrape answers for all of them (prom-client's cluster
 * aggregation: counters and histograms are summed over the processes). Labels take few values (a route's id,
 * never its path; a provider's call name), so the number of series stays bounded whatever is requested.
 */
export const metricsRegistry = register;

/** The process's own metrics (event-loop lag, heap, GC, handles, CPU); started by the start-up, once. */
export function collectProcessMetrics(): void {
  const globalForMetrics = globalThis as unknown as { __portalProcessMetrics?: boolean };
  if (globalForMetrics.__portalProcessMetrics) return;
  globalForMetrics.__portalProcessMetrics = true;
  collectDefaultMetrics();
}

/** A metric is made once per process: a development rebuild of the app finds the one registered before. */
function once<T>(name: string, make: () => T): T {
  return (register.getSingleMetric(name) as T | undefined) ?? make();
}

export const httpRequestDuration = once(
  "http_request_duration_seconds",
  () =>
    new Histogram({
      name: "http_request_duration_seconds",
      help: "Time from a request's arrival to its response's last byte, by route id, method and status class (2xx, ...)",
      labelNames: ["route", "method", "status_class"] as const,
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    }),
);

/** The outcome of a provider call: ok, or the kind of its failure (final, retryable, unknown). */
export type CallOutcome = "ok" | "final" | "retryable" | "unknown";

export const providerCallDuration = once(
  "portal_provider_call_duration_seconds",
  () =>
    new Histogram({
      name: "portal_provider_call_duration_seconds",
      help: "Calls to the billing, card and Hub providers and the mailer, by provider, call and outcome",
      labelNames: ["provider", "call", "outcome"] as const,
      buckets: [0.005, 0.025, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
    }),
);

export const webhookEvents = once(
  "portal_webhook_events_total",
  () =>
    new Counter({
      name: "portal_webhook_events_total",
      help: "The billing provider's events: received (stored), applied, set aside (left for reconciliation)",
      labelNames: ["outcome"] as const,
    }),
);

export const webhookEventLag = once(
  "portal_webhook_event_lag_seconds",
  () =>
    new Histogram({
      name: "portal_webhook_event_lag_seconds",
      help: "From an event's time at the billing provider to its application in the portal",
      buckets: [0.1, 0.5, 1, 5, 15, 60, 300, 900, 3600],
    }),
);

export const mailMessages = once(
  "portal_mail_messages_total",
  () =>
    new Counter({
      name: "portal_mail_messages_total",
      help: "Mail queued, sent, and failed for good",
      labelNames: ["outcome"] as const,
    }),
);

export const throttleRefusals = once(
  "portal_throttle_refusals_total",
  () =>
    new Counter({
      name: "portal_throttle_refusals_total",
      help: "Requests a throttle refused, by limit",
      labelNames: ["limit"] as const,
    }),
);
