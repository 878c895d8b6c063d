import { Writable } from "node:stream";
import type { AppLoadContext, EntryContext, HandleDataRequestFunction } from "@remix-run/node";
import { RemixServer } from "@remix-run/react";
import { renderToPipeableStream } from "react-dom/server";
import { JOB_KINDS } from "~/server/jobs/kinds.server";
import { startJobRunner } from "~/server/jobs/runner.server";
import { preloadScriptsAfterStylesheets } from "~/server/module-preloads.server";
import { inlineStylesheets, pageInlinesStylesheets } from "~/server/stylesheet-delivery.server";
import { NonceContext } from "~/ui/nonce";

// The server process runs the durable jobs (orders, ...) and resumes the ones a restart interrupted.
startJobRunner(JOB_KINDS);

const ABORT_DELAY = 5_000;

/**
 * Every page is rendered whole, then sent in one piece (decision 110): no loader defers data, so streaming
 * the shell first would send the same bytes at nearly the same moment, through a chain of Node and web
 * streams that cost more CPU per page than the render of the shell itself.
 */
export default function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  remixContext: EntryContext,
  loadContext: AppLoadContext,
) {
  const nonce = loadContext.cspNonce;
  return new Promise<Response>((resolve, reject) => {
    let shellRendered = false;
    const chunks: Buffer[] = [];
    const page = new Writable({
      // React aborts a render whose destination closes. This buffer only closes once the page is whole, and
      // that abort then ended it a second time: an ERR_STREAM_ALREADY_FINISHED error, stack and all, per page.
      emitClose: false,
      write(chunk: Buffer, _encoding, done) {
        chunks.push(chunk);
        done();
      },
      final(done) {
        clearTimeout(abortTimer);
        responseHeaders.set("Content-Type", "text/html; charset=utf-8");
        responseHeaders.set("Cache-Control", "no-store");
        const html = preloadScriptsAfterStylesheets(Buffer.concat(chunks).toString("utf8"), nonce);
        const delivered = pageInlinesStylesheets(remixContext) ? inlineStylesheets(html) : html;
        resolve(new Response(delivered, { headers: responseHeaders, status: responseStatusCode }));
        done();
      },
    });
    const { pipe, abort } = renderToPipeableStream(
      <NonceContext.Provider value={nonce}>
        <RemixServer context={remixContext} url={request.url} abortDelay={ABORT_DELAY} nonce={nonce} />
      </NonceContext.Provider>,
      {
        nonce,
        onShellReady() {
          shellRendered = true;
        },
        onAllReady() {
          pipe(page);
        },
        onShellError(error: unknown) {
          reject(error);
        },
        onError(error: unknown) {
          responseStatusCode = 500;
          // Errors after the shell are already reported by Remix's boundary; log the ones before it.
          if (shellRendered) console.error(error);
        },
      },
    );
    // Cleared in final once the page is whole (React starts rendering on a later turn, so final always comes
    // after this line): a pending timer kept each finished render and its page in memory for ABORT_DELAY,
    // thousands of them under load. unref: it must not keep the process alive after SIGTERM.
    const abortTimer = setTimeout(abort, ABORT_DELAY).unref();
  });
}

/**
 * Pages and their data are per visitor (the CSRF token, the signed-in user's data): no cache may keep them.
 * The security headers are set by scripts/server.mjs on every response, this one included.
 */
export const handleDataRequest: HandleDataRequestFunction = (response) => {
  response.headers.set("Cache-Control", "no-store");
  return response;
};
