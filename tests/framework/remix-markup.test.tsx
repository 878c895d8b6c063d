import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { createRequestHandler, type EntryContext, type ServerBuild } from "@remix-run/node";
import { Links, Outlet, RemixServer, Scripts, useLoaderData } from "@remix-run/react";
import { renderToString } from "react-dom/server";
import { describe, expect, it } from "vitest";
import remixConfig from "../../remix.config.js";
import { handOffDataBeforeRender } from "~/server/platform/delivery/page-data-handoff.server";
import { renderPage } from "~/server/platform/delivery/render-page.server";
import { stylesheetDataUrl } from "~/server/platform/delivery/stylesheet-delivery.server";
import { EarlyModulePreloads } from "~/ui/early-module-preloads";

/**
 * The portal's page delivery leans on Remix's and React's internals and on the exact markup they write
 * (docs/performance.md): the page data handed to Remix's private `renderMeta.streamCache`, the manifest read
 * through `UNSAFE_RemixContext`, and regular expressions over the module preloads and stylesheet links that
 * <Scripts> and <Links> write. Their own tests use hand-written HTML; this runs the real pipeline
 * (app/server/platform/delivery/render-page.server.tsx) on a small app through Remix's own request handler, so an upgrade of
 * Remix or React that changes any of it fails here instead of quietly making the rewrites match nothing.
 */
const CSS = "body{margin:0}";
const STYLESHEET = "/build/_assets/root-AB12.css";
const ASSETS = {
  entry: { module: "/build/entry.client-E1.js", imports: ["/build/_shared/chunk-S1.js"] },
  routes: {
    root: {
      id: "root",
      path: "",
      module: "/build/root-R1.js",
      imports: ["/build/_shared/chunk-S2.js"],
      hasLoader: true,
      hasAction: false,
      hasClientAction: false,
      hasClientLoader: false,
      hasErrorBoundary: false,
    },
    "routes/page": {
      id: "routes/page",
      parentId: "root",
      path: "page",
      module: "/build/routes/page-P1.js",
      imports: ["/build/_shared/chunk-S3.js"],
      hasLoader: true,
      hasAction: false,
      hasClientAction: false,
      hasClientLoader: false,
      hasErrorBoundary: false,
    },
  },
  url: "/build/manifest-V1.js",
  version: "V1",
};
/** The page's scripts in the order <Scripts> preloads them: the entry, its imports, then each route's imports and module. */
const PAGE_SCRIPTS = [
  "/build/entry.client-E1.js",
  "/build/_shared/chunk-S1.js",
  "/build/_shared/chunk-S2.js",
  "/build/root-R1.js",
  "/build/_shared/chunk-S3.js",
  "/build/routes/page-P1.js",
];

function Root() {
  return (
    <html lang="en">
      <head>
        <meta charSet="utf-8" />
        <EarlyModulePreloads nonce="N" />
        <Links />
      </head>
      <body>
        <Outlet />
        <Scripts nonce="N" />
      </body>
    </html>
  );
}

function Page() {
  const { name } = useLoaderData<{ name: string }>();
  return <p>Hello {name}</p>;
}

type Render = (request: Request, status: number, headers: Headers, context: EntryContext) => Promise<Response>;

function appWith(render: Render, { inline }: { inline: boolean }): ServerBuild {
  return {
    mode: "production",
    entry: { module: { default: render } },
    routes: {
      root: {
        id: "root",
        path: "",
        module: {
          default: Root,
          links: () => [{ rel: "stylesheet", href: STYLESHEET }],
          loader: () => ({ prefetchStylesheets: inline ? [STYLESHEET] : [] }),
        },
      },
      "routes/page": {
        id: "routes/page",
        parentId: "root",
        path: "page",
        module: { default: Page, loader: () => ({ name: "Zoë" }) },
      },
    },
    assets: ASSETS,
    publicPath: "/build/",
    assetsBuildDirectory: "public/build",
    // The portal's own future flags: single fetch, lazy route discovery.
    future: { ...remixConfig.future, v3_routeConfig: false, unstable_optimizeDeps: false },
    isSpaMode: false,
  } as ServerBuild;
}

const publicDirectory = mkdtempSync(path.join(tmpdir(), "gk-remix-markup-"));
mkdirSync(path.join(publicDirectory, "build", "_assets"), { recursive: true });
writeFileSync(path.join(publicDirectory, STYLESHEET), CSS);

async function page(render: Render, inline: boolean) {
  const handler = createRequestHandler(appWith(render, { inline }), "production");
  const response = await handler(new Request("http://portal.test/page"));
  expect(response.status).toBe(200);
  return response.text();
}

/** Remix's markup as it writes it, before the portal's rewrites. */
const remixOwn: Render = async (request, status, headers, context) => {
  await handOffDataBeforeRender(context);
  const html = renderToString(<RemixServer context={context} url={request.url} nonce="N" />);
  return new Response(html, { status, headers });
};
const portal: Render = (request, status, headers, context) =>
  renderPage(request, status, headers, context, "N", publicDirectory);

const hrefsOf = (html: string, pattern: RegExp) => [...html.matchAll(pattern)].map((match) => match[1]);

describe("Remix's markup, as the portal's page delivery reads and rewrites it", () => {
  it("Remix writes the module preloads and stylesheet links in the exact form the rewrites look for", async () => {
    const html = await page(remixOwn, false);
    expect(hrefsOf(html, /<link rel="modulepreload" href="([^"]+)"\/>/g)).toEqual(PAGE_SCRIPTS);
    expect(hrefsOf(html, /<link rel="stylesheet" href="(\/build\/_assets\/[\w.-]+\.css)"\/>/g)).toEqual([STYLESHEET]);
  });

  it("a page whose stylesheets are linked: every preload made inert and started after the stylesheets", async () => {
    const html = await page(portal, false);
    expect(html).not.toMatch(/<link rel="modulepreload"/);
    expect(hrefsOf(html, /<link data-after-css="modulepreload" href="([^"]+)"\/>/g)).toEqual(PAGE_SCRIPTS);
    const head = html.slice(0, html.indexOf("</head>"));
    expect(head.indexOf(`href="${STYLESHEET}"`)).toBeLessThan(head.indexOf(JSON.stringify(PAGE_SCRIPTS)));
  });

  it("a first page: its stylesheet inline, and its scripts listed from the top of <head> through UNSAFE_RemixContext", async () => {
    const html = await page(portal, true);
    expect(html).toContain(`<link rel="stylesheet" href="${stylesheetDataUrl(CSS)}" data-href="${STYLESHEET}"/>`);
    expect(html).not.toContain(`<link rel="stylesheet" href="${STYLESHEET}"/>`);
    // EarlyModulePreloads reads Remix's manifest (usePageModules): the same scripts, in <Scripts>' order.
    expect(hrefsOf(html, /<link data-early-modulepreload="" href="([^"]+)"\/>/g)).toEqual(PAGE_SCRIPTS);
  });

  it("the page's data is handed to Remix before the render: rendered whole, the browser's stream closed, nothing suspended", async () => {
    const html = await page(portal, false);
    expect(html.startsWith("<!DOCTYPE html><html")).toBe(true);
    expect(html).toContain("<p>Hello <!-- -->Zoë</p>");
    expect(html).not.toContain("<!--$!-->");
    expect(html).toContain("window.__remixContext.streamController.close();");
  });
});
