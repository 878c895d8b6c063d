import type { AppLoadContext, EntryContext, HandleDataRequestFunction, HandleErrorFunction } from "@remix-run/node";
import { isRouteErrorResponse, RemixServer } from "@remix-run/react";
import { renderToString } from "react-dom/server";
import { JOB_KINDS } from "~/server/jobs/kinds.server";
import { startJobRunner } from "~/server/jobs/runner.server";
import { deferModulePreloads } from "~/server/module-preloads.server";
import { handOffDataBeforeRender } from "~/server/page-data-handoff.server";
import { inlineStylesheets, pageInlinesStylesheets } from "~/server/stylesheet-delivery.server";
import { NonceContext } from "~/ui/nonce";

// The server process runs the durable jobs (orders, ...) and resumes the ones a restart interrupted.
startJobRunner(JOB_KINDS);

/**
 * Every page is rendered whole, as one string (decisions 110 and 133): no loader defers data, so there is
 * nothing to stream. The page's data for the browser is read before the render, so nothing in the tree
 * suspends, and React's string renderer skips the stream renderer's encoding of every piece of the page into
 * byte buffers. An error in the render rejects, and Remix renders the route's error boundary instead.
 */
export default async function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  remixContext: EntryContext,
  loadContext: AppLoadContext,
) {
  const nonce = loadContext.cspNonce;
  await handOffDataBeforeRender(remixContext);
  const rendered = renderToString(
    <NonceContext.Provider value={nonce}>
      <RemixServer context={remixContext} url={request.url} nonce={nonce} />
    </NonceContext.Provider>,
  );
  const stylesheetsInline = pageInlinesStylesheets(remixContext);
  // React's string renderer leaves out the doctype that its stream renderer writes before <html>.
  const html = deferModulePreloads(`<!DOCTYPE html>${rendered}`, nonce, { stylesheetsInline });
  const page = stylesheetsInline ? inlineStylesheets(html) : html;
  // Bytes, not the string: a string body is copied once more (made well-formed) before it is encoded.
  const body = Buffer.from(page, "utf8");
  responseHeaders.set("Content-Type", "text/html; charset=utf-8");
  responseHeaders.set("Cache-Control", "no-store");
  // A whole page has a length: the server sends it in one write, not as chunks (decision 140).
  responseHeaders.set("Content-Length", String(body.byteLength));
  return new Response(body, { headers: responseHeaders, status: responseStatusCode });
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
  console.error(error);
};
