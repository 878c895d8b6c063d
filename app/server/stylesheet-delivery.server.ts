import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import path from "node:path";
import { createCookie } from "@remix-run/node";
import forms from "~/styles/forms.css";
import mantineList from "~/styles/mantine-list.css";
import portal from "~/styles/portal.css";
import root from "~/styles/root.css";

/**
 * How a page's stylesheets reach the browser (decision 130). A browser that does not have them yet gets
 * them inside the HTML, so the page paints one round trip sooner (400 ms on a slow link), then fetches
 * every stylesheet file for later pages; one that has them gets plain links to the cached files.
 */

/** Every stylesheet of the build, the layers of decision 102. `tests/server` checks none is missing. */
export const EVERY_STYLESHEET: readonly string[] = [root, portal, mantineList, forms];

/** Names this build's stylesheets: a new build with other CSS has new file names, so a new version. */
const STYLESHEETS_VERSION = createHash("sha256").update(EVERY_STYLESHEET.join("\n")).digest("base64url").slice(0, 12);

/**
 * "This browser has been given this build's stylesheet files." Not a secret and not signed: a forged or
 * stale value only means plain links, which work either way. It lives as long as the files are cached.
 */
const stylesheetsCookie = createCookie("gk_styles", {
  path: "/",
  sameSite: "lax",
  httpOnly: true,
  maxAge: 60 * 60 * 24 * 365,
});

export async function browserHasStylesheets(request: Request): Promise<boolean> {
  return (await stylesheetsCookie.parse(request.headers.get("Cookie"))) === STYLESHEETS_VERSION;
}

/** A build stylesheet link as Remix's <Links> writes it. */
const STYLESHEET_LINK = /<link rel="stylesheet" href="(\/build\/_assets\/[\w.-]+\.css)"\/>/g;

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
 * HTML. Everything else stays as it is, so the page compresses as well as the file would (≈ 0.5 % larger).
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
export function inlineStylesheets(html: string, publicDirectory: string): string {
  return html.replace(STYLESHEET_LINK, (link, href: string) => {
    const css = stylesheetText(href, publicDirectory);
    if (css === null) return link;
    return `<link rel="stylesheet" href="${stylesheetDataUrl(css)}" data-href="${href}"/>`;
  });
}

/**
 * The page as this browser should get it: its stylesheets inlined, with the cookie that says the files are
 * on their way, unless the browser already has them.
 */
export async function deliverStylesheets(request: Request, html: string, headers: Headers): Promise<string> {
  if (await browserHasStylesheets(request)) return html;
  headers.append("Set-Cookie", await stylesheetsCookie.serialize(STYLESHEETS_VERSION));
  return inlineStylesheets(html, path.join(process.cwd(), "public"));
}
