import { PassThrough } from "node:stream";
import type { AppLoadContext, EntryContext, HandleDataRequestFunction } from "@remix-run/node";
import { createReadableStreamFromReadable } from "@remix-run/node";
import { RemixServer } from "@remix-run/react";
import { isbot } from "isbot";
import { renderToPipeableStream } from "react-dom/server";
import { JOB_KINDS } from "~/server/jobs/kinds.server";
import { startJobRunner } from "~/server/jobs/runner.server";
import { preloadScriptsAfterStylesheets } from "~/server/module-preloads.server";
import { NonceContext } from "~/ui/nonce";

// The server process runs the durable jobs (orders, ...) and resumes the ones a restart interrupted.
startJobRunner(JOB_KINDS);

const ABORT_DELAY = 5_000;

export default function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  remixContext: EntryContext,
  loadContext: AppLoadContext,
) {
  const nonce = loadContext.cspNonce;
  // Bots and the no-JavaScript reader both get the whole document at once; browsers stream.
  const readyEvent = isbot(request.headers.get("user-agent") ?? "") ? "onAllReady" : "onShellReady";
  return new Promise<Response>((resolve, reject) => {
    let shellRendered = false;
    const { pipe, abort } = renderToPipeableStream(
      <NonceContext.Provider value={nonce}>
        <RemixServer context={remixContext} url={request.url} abortDelay={ABORT_DELAY} nonce={nonce} />
      </NonceContext.Provider>,
      {
        nonce,
        [readyEvent]() {
          shellRendered = true;
          const body = new PassThrough();
          responseHeaders.set("Content-Type", "text/html; charset=utf-8");
          responseHeaders.set("Cache-Control", "no-store");
          resolve(
            new Response(createReadableStreamFromReadable(body), {
              headers: responseHeaders,
              status: responseStatusCode,
            }),
          );
          pipe(preloadScriptsAfterStylesheets(nonce)).pipe(body);
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
    // unref: a finished response must not keep the process alive for ABORT_DELAY after SIGTERM.
    setTimeout(abort, ABORT_DELAY).unref();
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
