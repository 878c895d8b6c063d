import { describe, expect, it } from "vitest";
import { deferModulePreloads } from "~/server/platform/delivery/module-preloads.server";

/** A page that links its stylesheet files (the browser has them): its scripts wait for them. */
const LINKED = { stylesheetsInline: false };

const PAGE =
  '<html><head><link rel="stylesheet" href="/a.css"/></head><body><p>é</p>' +
  '<link rel="modulepreload" href="/b.js"/><link rel="modulepreload" href="/c.js"/><script type="module">import "/b.js"</script></body></html>';
const PRELOAD = (nonce: string) =>
  `<script${nonce}>for(const h of ["/b.js","/c.js"]){const p=document.createElement("link");p.rel="modulepreload";p.href=h;document.head.append(p)}</script>`;

describe("module preloads wait for the stylesheets", () => {
  it("makes the preloads inert and puts one script that preloads them at the end of <head>, after the stylesheets", () => {
    expect(deferModulePreloads(PAGE, "N", LINKED)).toBe(
      `<html><head><link rel="stylesheet" href="/a.css"/>${PRELOAD(' nonce="N"')}</head><body><p>é</p>` +
        '<link data-after-css="modulepreload" href="/b.js"/><link data-after-css="modulepreload" href="/c.js"/><script type="module">import "/b.js"</script></body></html>',
    );
  });

  it("writes no nonce it does not have", () => {
    expect(deferModulePreloads(PAGE, undefined, LINKED)).toContain(`${PRELOAD("")}</head>`);
  });

  it("leaves a page without preloads, or without a <head>, as it is", () => {
    expect(deferModulePreloads("<html><head></head><body><p>plain</p></body></html>", "N", LINKED)).toBe(
      "<html><head></head><body><p>plain</p></body></html>",
    );
    expect(deferModulePreloads('<link rel="modulepreload" href="/b.js"/>', "N", LINKED)).toBe(
      '<link rel="modulepreload" href="/b.js"/>',
    );
  });

  it("leaves the page's content before the preloads as it is, even text that reads like one (React escapes it)", () => {
    const typed = "<p>&lt;link rel=&quot;modulepreload&quot; href=&quot;/x.js&quot;/&gt;</p>";
    const page = PAGE.replace("<p>é</p>", typed);
    const deferred = deferModulePreloads(page, "N", LINKED);
    expect(deferred).toContain(`<body>${typed}<link data-after-css="modulepreload" href="/b.js"/>`);
    expect(deferred).toContain(`${PRELOAD(' nonce="N"')}</head>`);
  });

  it("cannot be made to close its script by a URL", () => {
    const page = '<head></head><link rel="modulepreload" href="/x</script>.js"/>';
    expect(deferModulePreloads(page, undefined, LINKED)).toContain('["/x\\u003c/script>.js"]');
  });

  it("keeps a splat route's file name, whose `$` means nothing to it", () => {
    const page = '<head></head><link rel="modulepreload" href="/build/routes/$-T3X6RMG6.js"/>';
    expect(deferModulePreloads(page, undefined, LINKED)).toBe(
      `<head>${PRELOAD("").replace('["/b.js","/c.js"]', '["/build/routes/$-T3X6RMG6.js"]')}</head>` +
        '<link data-after-css="modulepreload" href="/build/routes/$-T3X6RMG6.js"/>',
    );
  });

  it("adds no script to a page whose stylesheets are inline: the root starts its preloads at the top of <head>", () => {
    expect(deferModulePreloads(PAGE, "N", { stylesheetsInline: true })).toBe(
      '<html><head><link rel="stylesheet" href="/a.css"/></head><body><p>é</p>' +
        '<link data-after-css="modulepreload" href="/b.js"/><link data-after-css="modulepreload" href="/c.js"/><script type="module">import "/b.js"</script></body></html>',
    );
  });
});
