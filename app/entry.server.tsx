import type { AppLoadContext, EntryContext, HandleDataRequestFunction } from "@remix-run/node";
import { JOB_KINDS } from "~/server/jobs/kinds.server";
import { startJobRunner } from "~/server/jobs/runner.server";
import { renderPage } from "~/server/render-page.server";

// The server process runs the durable jobs (orders, ...) and resumes the ones a restart interrupted.
startJobRunner(JOB_KINDS);

/** Every page is rendered whole, as one string, with the page's nonce (app/server/render-page.server.tsx). */
export default function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  remixContext: EntryContext,
  loadContext: AppLoadContext,
) {
  return renderPage(request, responseStatusCode, responseHeaders, remixContext, loadContext.cspNonce);
}

/**
 * Pages and their data are per visitor (the CSRF token, the signed-in user's data): no cache may keep them.
 * The security headers are set by scripts/server.mjs on every response, this one included.
 */
export const handleDataRequest: HandleDataRequestFunction = (response) => {
  response.headers.set("Cache-Control", "no-store");
  return response;
};
