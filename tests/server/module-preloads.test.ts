import { Readable } from "node:stream";
import { text } from "node:stream/consumers";
import { describe, expect, it } from "vitest";
import { preloadScriptsAfterStylesheets } from "~/server/module-preloads.server";

const through = (chunks: string[], nonce?: string) => text(Readable.from(chunks.map((chunk) => Buffer.from(chunk))).pipe(preloadScriptsAfterStylesheets(nonce)));

const PAGE = '<head><link rel="stylesheet" href="/a.css"/></head><body><p>é</p><link rel="modulepreload" href="/b.js"/><link rel="modulepreload" href="/c.js"/><script type="module">import "/b.js"</script></body>';
const RESTORE = '<script nonce="N">for(const l of document.querySelectorAll("link[data-after-css]")){const p=document.createElement("link");p.rel="modulepreload";p.href=l.href;document.head.append(p)}</script>';
const EXPECTED =
  '<head><link rel="stylesheet" href="/a.css"/></head><body><p>é</p>' +
  `<link data-after-css="modulepreload" href="/b.js"/><link data-after-css="modulepreload" href="/c.js"/>${RESTORE}<script type="module">import "/b.js"</script></body>`;

describe("module preloads wait for the stylesheets", () => {
  it("makes the preloads inert and puts one script that preloads them after them, before Remix's scripts", async () => {
    expect(await through([PAGE], "N")).toBe(EXPECTED);
  });

  it("finds a preload split between chunks, and a character split between its bytes", async () => {
    const bytes = Buffer.from(PAGE);
    for (let at = 1; at < bytes.length; at += 1) {
      const chunks = [bytes.subarray(0, at), bytes.subarray(at)];
      const result = await text(Readable.from(chunks).pipe(preloadScriptsAfterStylesheets("N")));
      expect(result, `split at ${at}`).toBe(EXPECTED);
    }
  });

  it("leaves a page without preloads as it is, and writes no nonce it does not have", async () => {
    expect(await through(["<p>plain</p>"])).toBe("<p>plain</p>");
    expect(await through(['<link rel="modulepreload" href="/b.js"/>'])).toMatch(/^<link data-after-css="modulepreload" href="\/b.js"\/><script>/);
  });
});
