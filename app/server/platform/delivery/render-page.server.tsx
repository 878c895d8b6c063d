import type { EntryContext } from "@remix-run/node";
import { RemixServer } from "@remix-run/react";
import { renderToString } from "react-dom/server";
import { NonceContext } from "~/ui/nonce";
import { deferModulePreloads } from "./module-preloads.server";
import { handOffDataBeforeRender } from "./page-data-handoff.server";
import { inlineStylesheets, pageInlinesStylesheets } from "./stylesheet-delivery.server";

/**
 * Every page is rendered whole, as one string (decisions 110 and 133): no loader defers data, so there is
 * nothing to stream. The page's data for the browser is read before the render, so nothing in the tree
 * suspends, and React's string renderer skips the stream renderer's encoding of every piece of the page into
 * byte buffers. An error in the render rejects, and Remix renders the route's error boundary instead.
 * Then Remix's module preloads wait for the stylesheets (decision 063), and a first page carries its
 * stylesheets inline (decision 130). tests/framework/remix-markup.test.tsx runs this on Remix's own markup.
 */
export async function renderPage(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  remixContext: EntryContext,
  nonce: string | undefined,
  publicDirectory?: string,
): Promise<Response> {
  await handOffDataBeforeRender(remixContext);
  const rendered = renderToString(
    <NonceContext.Provider value={nonce}>
      <RemixServer context={remixContext} url={request.url} nonce={nonce} />
    </NonceContext.Provider>,
  );
  const stylesheetsInline = pageInlinesStylesheets(remixContext);
  // React's string renderer leaves out the doctype that its stream renderer writes before <html>.
  const html = deferModulePreloads(`<!DOCTYPE html>${rendered}`, nonce, { stylesheetsInline });
  const page = stylesheetsInline ? inlineStylesheets(html, publicDirectory) : html;
  // Bytes, not the string: a string body is copied once more (made well-formed) before it is encoded.
  const body = Buffer.from(page, "utf8");
  responseHeaders.set("Content-Type", "text/html; charset=utf-8");
  responseHeaders.set("Cache-Control", "no-store");
  // A whole page has a length: the server sends it in one write, not as chunks (decision 140).
  responseHeaders.set("Content-Length", String(body.byteLength));
  return new Response(body, { headers: responseHeaders, status: responseStatusCode });
}
