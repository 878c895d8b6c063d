import { describe, expect, it } from "vitest";
import { preloadScriptsAfterStylesheets } from "~/server/module-preloads.server";

const PAGE = '<head><link rel="stylesheet" href="/a.css"/></head><body><p>é</p><link rel="modulepreload" href="/b.js"/><link rel="modulepreload" href="/c.js"/><script type="module">import "/b.js"</script></body>';
const RESTORE = '<script nonce="N">for(const l of document.querySelectorAll("link[data-after-css]")){const p=document.createElement("link");p.rel="modulepreload";p.href=l.href;document.head.append(p)}</script>';
const EXPECTED =
  '<head><link rel="stylesheet" href="/a.css"/></head><body><p>é</p>' +
  `<link data-after-css="modulepreload" href="/b.js"/><link data-after-css="modulepreload" href="/c.js"/>${RESTORE}<script type="module">import "/b.js"</script></body>`;

describe("module preloads wait for the stylesheets", () => {
  it("makes the preloads inert and puts one script that preloads them after them, before Remix's scripts", () => {
    expect(preloadScriptsAfterStylesheets(PAGE, "N")).toBe(EXPECTED);
  });

  it("leaves a page without preloads as it is, and writes no nonce it does not have", () => {
    expect(preloadScriptsAfterStylesheets("<p>plain</p>", undefined)).toBe("<p>plain</p>");
    expect(preloadScriptsAfterStylesheets('<link rel="modulepreload" href="/b.js"/>', undefined)).toMatch(
      /^<link data-after-css="modulepreload" href="\/b.js"\/><script>/,
    );
  });
});
