import type { Attributes, Span, Tracer } from "@opentelemetry/api";

/**
 * Spans for what OpenTelemetry's instrumentations do not see (job steps, the SQLite driver's statements, provider
 * calls through an SDK). OpenTelemetry is loaded only when OTEL_EXPORTER_OTLP_ENDPOINT is set, by
 * scripts/telemetry.mjs before anything else, which leaves its tracer here; without it nothing of OpenTelemetry
 * is loaded (this module imports its types only) and `inSpan` only calls `work`.
 */
interface PortalTelemetry {
  tracer: Tracer;
  /** The span of the work this call is part of (the request's, once the HTTP instrumentation made it). */
  activeSpan(): Span | undefined;
  /** Sends the spans not sent yet, and stops. */
  shutdown(): Promise<void>;
}

const telemetry = () => (globalThis as { __portalTelemetry?: PortalTelemetry }).__portalTelemetry;

/** Runs `work` in a span named `name` when tracing is on; its failure is recorded on the span. */
export function inSpan<T>(name: string, attributes: Attributes, work: () => T): T {
  const tracer = telemetry()?.tracer;
  if (!tracer) return work();
  return tracer.startActiveSpan(name, { attributes }, (span) => {
    const end = (error?: unknown) => {
      if (error !== undefined) {
        span.recordException(error instanceof Error ? error : String(error));
        span.setStatus({ code: 2 });
      }
      span.end();
    };
    try {
      const result = work();
      if (result instanceof Promise) {
        return result.then(
          (value: unknown) => {
            end();
            return value;
          },
          (error: unknown) => {
            end(error);
            throw error;
          },
        ) as T;
      }
      end();
      return result;
    } catch (error) {
      end(error);
      throw error;
    }
  });
}

/** Adds attributes to the span of the work this call is part of, when tracing is on (a request's id, its route). */
export function annotateSpan(attributes: Attributes): void {
  telemetry()?.activeSpan()?.setAttributes(attributes);
}

/** The trace and span a log line belongs to, when tracing is on: its fields `traceId` and `spanId`. */
export function traceFields(): { traceId?: string; spanId?: string } {
  const span = telemetry()?.activeSpan();
  if (!span) return {};
  const { traceId, spanId } = span.spanContext();
  return { traceId, spanId };
}

/** Sends the spans not sent yet (a stopping process's last ones). */
export async function flushTraces(): Promise<void> {
  await telemetry()?.shutdown();
}
