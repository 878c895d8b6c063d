// Traces, when asked for: with OTEL_EXPORTER_OTLP_ENDPOINT set, OpenTelemetry's Node SDK traces incoming requests
// (HTTP), Remix's loaders and actions, PostgreSQL's statements (pg), outgoing fetch (undici) and, through the
// tracer it leaves on globalThis (app/server/platform/log/traces.server.ts), job steps, SQLite statements and provider
// calls; each request's span carries its request id, and log lines their trace and span ids. The usual OTEL_*
// variables apply (OTEL_SERVICE_NAME, OTEL_EXPORTER_OTLP_HEADERS, OTEL_TRACES_SAMPLER, ...).
// Loaded before the server with `node --import ./scripts/telemetry.mjs` (npm run serve; npm start passes it to its
// workers when the variable is set), so that the instrumentations see the modules load. Without the variable it
// imports nothing: nothing of OpenTelemetry is loaded.
if (process.env.OTEL_EXPORTER_OTLP_ENDPOINT) {
  const { register } = await import("node:module");
  // The server and the Remix build are ES modules: their imports are instrumented through these loader hooks.
  register("@opentelemetry/instrumentation/hook.mjs", import.meta.url);
  const [{ trace }, { NodeSDK }, { HttpInstrumentation }, { UndiciInstrumentation }, { PgInstrumentation }, remix] =
    await Promise.all([
      import("@opentelemetry/api"),
      import("@opentelemetry/sdk-node"),
      import("@opentelemetry/instrumentation-http"),
      import("@opentelemetry/instrumentation-undici"),
      import("@opentelemetry/instrumentation-pg"),
      import("opentelemetry-instrumentation-remix"),
    ]);
  // Probes and scrapes are not traced: they would be most of the spans and say nothing.
  const PROBES = new Set(["/healthz", "/readyz", "/metrics"]);
  const sdk = new NodeSDK({
    serviceName: process.env.OTEL_SERVICE_NAME ?? "gatekeeper-portal",
    instrumentations: [
      new HttpInstrumentation({ ignoreIncomingRequestHook: (req) => PROBES.has((req.url ?? "").split("?")[0]) }),
      new UndiciInstrumentation(),
      new PgInstrumentation(),
      new remix.RemixInstrumentation(),
    ],
  });
  sdk.start();
  globalThis.__portalTelemetry = {
    tracer: trace.getTracer("gatekeeper-portal"),
    activeSpan: () => trace.getActiveSpan(),
    shutdown: () => sdk.shutdown(),
  };
}
