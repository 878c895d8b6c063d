import type { AppLoadContext, EntryContext, HandleDataRequestFunction, HandleErrorFunction } from "@remix-run/node";
import { isRouteErrorResponse } from "@remix-run/react";
import { renderPage } from "~/server/platform/delivery/render-page.server";
import { errorFields, logger } from "~/server/platform/log/log.server";

// The portal's start-up, which the HTTP server calls before it listens (the build's entry module is how a plain
// Node script reaches the app's code); `npm run migrate` calls it without the jobs.
export { boot } from "~/server/boot.server";

/** Every page is rendered whole, as one string, with the page's nonce (app/server/platform/delivery/render-page.server.tsx). */
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

const LEGACY_DATA_REQUEST_WARNING = "Warning: Single fetch-enabled apps should not be making ?_data requests";

/**
 * What Remix logs. A 4xx it answers itself (a POST to a page or file that takes none, a route that does not
 * exist) is the visitor's mistake and already a line of the access log, and so is a legacy `?_data=` request
 * (Remix warns of each, with a stack): logging them again, over several lines each, only let anonymous
 * requests fill stderr. Errors of the server are logged whole.
 */
export const handleError: HandleErrorFunction = (error, { request }) => {
  if (request.signal.aborted) return;
  if (isRouteErrorResponse(error) && error.status < 500) return;
  if (error instanceof Error && error.message.startsWith(LEGACY_DATA_REQUEST_WARNING)) return;
  logger.error({ event: "request-failed", ...errorFields(error) });
};
