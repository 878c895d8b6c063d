import { readiness } from "~/server/operations/index.server";

/**
 * Readiness, for load balancers and an orchestrator's readiness probe: 200 while this instance should get
 * requests (its database answers and is migrated, it is not stopping), else 503; the body says each check's state.
 */
export async function loader() {
  const { ready, checks } = await readiness();
  return new Response(JSON.stringify({ status: ready ? "ready" : "not ready", ...checks }), {
    status: ready ? 200 : 503,
    headers: { "Content-Type": "application/json; charset=utf-8", "Cache-Control": "no-store" },
  });
}
