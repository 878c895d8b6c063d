import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import path from "node:path";
import type { EntryContext } from "@remix-run/node";
import forms from "~/styles/forms.css";
import mantineList from "~/styles/mantine-list.css";
import portal from "~/styles/portal.css";
import root from "~/styles/root.css";
import { browserSettingCookie } from "~/server/platform/cookies.server";

/**
 * How a page's stylesheets reach the browser (decision 130). A browser that does not have them yet gets
 * them inside the HTML, so the page paints one round trip sooner (docs/performance.md), then fetches
 * every stylesheet file for later pages; one that has them gets plain links to the cached files.
 */

/** Every stylesheet of the build, the layers of decision 102. `e2e/stylesheets.spec.ts` checks none is missing. */
export const EVERY_STYLESHEET: readonly string[] = [root, portal, mantineList, forms];

/** Names this build's stylesheets: a new build with other CSS has new file names, so a new version. */
const STYLESHEETS_VERSION = createHash("sha256").update(EVERY_STYLESHEET.join("\n")).digest("base64url").slice(0, 12);

/** "This browser has been given this build's stylesheet files": a forged or stale value only means plain links. */
const stylesheetsCookie = browserSettingCookie("gk_styles");

/**
 * The root loader's one decision per page: for a browser without the stylesheets, the files to fetch after
 * the page (which then carries them inline) and the cookie that says it has them; for one with them, none.
 */
export async function stylesheetsToFetch(
  request: Request,
): Promise<{ hrefs: readonly string[]; setCookie: string | null }> {
  if ((await stylesheetsCookie.parse(request.headers.get("Cookie"))) === STYLESHEETS_VERSION) {
    return { hrefs: [], setCookie: null };
  }
  return { hrefs: EVERY_STYLESHEET, setCookie: await stylesheetsCookie.serialize(STYLESHEETS_VERSION) };
}

/** Whether the root loader chose to send this page's stylesheets inline (its `prefetchStylesheets`). */
export function pageInlinesStylesheets(remixContext: EntryContext): boolean {
  const rootData = remixContext.staticHandlerContext.loaderData.root as
    { prefetchStylesheets?: readonly string[] } | undefined;
  return Boolean(rootData?.prefetchStylesheets?.length);
}

/** A build stylesheet link as Remix's <Links> writes it. */
const STYLESHEET_LINK = /<link rel="stylesheet" href="(\/build\/_assets\/[\w.-]+\.css)"\/>/g;

/** Where the server serves /build/ from (scripts/server.mjs). */
const PUBLIC_DIRECTORY = path.join(process.cwd(), "public");

/** Read once per file: build assets never change while the process runs (a new build is a new file). */
const contents = new Map<string, string | null>();

function stylesheetText(href: string, publicDirectory: string): string | null {
  let text = contents.get(href);
  if (text === undefined) {
    try {
      text = readFileSync(path.join(publicDirectory, href), "utf8");
    } catch {
      text = null;
    }
    contents.set(href, text);
  }
  return text;
}

/**
 * The characters a CSS text must not carry raw in a `data:` URL inside a double-quoted HTML attribute: `%`
 * and `#` mean something to the URL parser, which also drops tabs and newlines; `"`, `&`, `<` and `>` to
 * HTML. Everything else stays as it is, so the page compresses about as well as the file would.
 */
const UNSAFE_IN_DATA_URL = /[%#"&<>\t\n\r]/g;
const percentEncoded = (character: string) => `%${character.charCodeAt(0).toString(16).toUpperCase().padStart(2, "0")}`;

export function stylesheetDataUrl(css: string): string {
  return `data:text/css;charset=utf-8,${css.replace(UNSAFE_IN_DATA_URL, percentEncoded)}`;
}

/**
 * The page's build stylesheet links with each file's text in the link itself, as a `data:` URL. The element
 * stays the same <link> that React hydrates (it does not compare attributes in production), and Remix
 * keeps it while its route is on screen. `data-href` names the file, for people and for the bench. A file
 * that cannot be read keeps its plain link.
 */
export function inlineStylesheets(html: string, publicDirectory = PUBLIC_DIRECTORY): string {
  return html.replace(STYLESHEET_LINK, (link, href: string) => {
    const css = stylesheetText(href, publicDirectory);
    if (css === null) return link;
    return `<link rel="stylesheet" href="${stylesheetDataUrl(css)}" data-href="${href}"/>`;
  });
}
