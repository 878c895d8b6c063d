/**
 * Liveness, for the Docker HEALTHCHECK and an orchestrator's liveness probe: answered by the process alone (its
 * event loop turns), never by the database, so that a slow database takes instances out of the rotation
 * (/readyz) rather than having healthy ones restarted.
 */
export function loader() {
  return new Response("ok", { headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" } });
}
