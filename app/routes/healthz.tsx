import { databaseAnswers } from "~/server/platform/database/db.server";

/** For the Docker HEALTHCHECK and load balancers: 200 while the database answers. */
export async function loader() {
  const ok = await databaseAnswers();
  return new Response(ok ? "ok" : "database unavailable", {
    status: ok ? 200 : 503,
    headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" },
  });
}
