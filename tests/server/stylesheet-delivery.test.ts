import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import {
  EVERY_STYLESHEET,
  inlineStylesheets,
  stylesheetDataUrl,
  stylesheetsToFetch,
} from "~/server/platform/delivery/stylesheet-delivery.server";

// Everything a data: URL inside an HTML attribute could trip over: %, #, quotes, &, <, >, tabs, newlines, non-ASCII.
const TRICKY_CSS = `.a{width:100%;color:#fff;content:"\\"a&b<c>"}\n\t.b::after{content:'→ é'}`;

function publicDirectoryWith(files: Record<string, string>): string {
  const directory = mkdtempSync(path.join(tmpdir(), "gk-public-"));
  mkdirSync(path.join(directory, "build", "_assets"), { recursive: true });
  for (const [name, text] of Object.entries(files)) writeFileSync(path.join(directory, "build", "_assets", name), text);
  return directory;
}

describe("a page's stylesheets inline", () => {
  it("carries the CSS in a data: URL that the URL parser gives back byte for byte", async () => {
    const url = stylesheetDataUrl(TRICKY_CSS);
    expect(url).not.toMatch(/[#"&<>\t\n]/);
    const response = await fetch(url);
    expect(response.headers.get("content-type")).toBe("text/css;charset=utf-8");
    expect(await response.text()).toBe(TRICKY_CSS);
  });

  it("inlines the build's stylesheet links, naming each file, and leaves every other link as it is", () => {
    const publicDirectory = publicDirectoryWith({ "root-AB12.css": TRICKY_CSS });
    const html =
      '<head><link rel="icon" href="/favicon.svg"/><link rel="stylesheet" href="/build/_assets/root-AB12.css"/>' +
      '<link rel="stylesheet" href="/elsewhere.css"/><link data-after-css="modulepreload" href="/build/root-X.js"/></head>';
    expect(inlineStylesheets(html, publicDirectory)).toBe(
      `<head><link rel="icon" href="/favicon.svg"/><link rel="stylesheet" href="${stylesheetDataUrl(TRICKY_CSS)}" data-href="/build/_assets/root-AB12.css"/>` +
        '<link rel="stylesheet" href="/elsewhere.css"/><link data-after-css="modulepreload" href="/build/root-X.js"/></head>',
    );
  });

  it("keeps the plain link of a file it cannot read", () => {
    const html = '<link rel="stylesheet" href="/build/_assets/missing-ZZ99.css"/>';
    expect(inlineStylesheets(html, publicDirectoryWith({}))).toBe(html);
  });
});

describe("which browsers get them inline", () => {
  it("inlines them for a browser without the stylesheets cookie and gives it the cookie, then not again", async () => {
    const first = await stylesheetsToFetch(new Request("http://portal.test/login"));
    expect(first.hrefs).toBe(EVERY_STYLESHEET);
    expect(first.setCookie).toMatch(/^gk_styles=[^;]+; Max-Age=31536000; Path=\/; HttpOnly; SameSite=Lax$/);

    const request = new Request("http://portal.test/home", {
      headers: { Cookie: first.setCookie?.split(";")[0] ?? "" },
    });
    expect(await stylesheetsToFetch(request)).toEqual({ hrefs: [], setCookie: null });
  });

  it("inlines them again for a cookie from another build's stylesheets", async () => {
    const request = new Request("http://portal.test/home", { headers: { Cookie: "gk_styles=ImFub3RoZXIi" } });
    expect((await stylesheetsToFetch(request)).setCookie).toMatch(/^gk_styles=/);
  });
});
