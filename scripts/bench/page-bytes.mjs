import { request } from "node:http";
import { gzipSync } from "node:zlib";
import { startTags } from "./html.mjs";
import { STYLESHEETS_COOKIE } from "./portal.mjs";

/**
 * What a page makes a browser download: its HTML, the stylesheets it links and the scripts it loads or
 * modulepreloads from the app's own /build/. `gzip` uses zlib's default level, the unit the performance goals are
 * written in; `sent` is the body as the portal sends it to a browser that accepts Brotli (pages compressed by
 * the middleware, build assets as the build compressed them: decision 129), which is what the slow link carries.
 * Each page is fetched with its jar, which holds the stylesheets cookie: the HTML links its stylesheet files.
 * `html.firstVisitSent` is the HTML as sent to a browser without that cookie, its stylesheets inline
 * (decision 130).
 */
export async function measurePages(baseUrl, pages) {
  const assets = new Map();
  const assetSize = (href) => {
    if (!assets.has(href)) assets.set(href, fetchSizes(new URL(href, baseUrl)));
    return assets.get(href);
  };

  const results = [];
  for (const { path, jar } of pages) {
    const response = await fetch(new URL(path, baseUrl), {
      redirect: "manual",
      headers: jar ? { cookie: jar.header } : {},
    });
    const html = Buffer.from(await response.arrayBuffer());
    const refs = assetRefs(html.toString("utf8"));
    const sum = async (hrefs) => {
      const sizes = await Promise.all(hrefs.map(assetSize));
      return { files: hrefs.length, raw: total(sizes, "raw"), gzip: total(sizes, "gzip"), sent: total(sizes, "sent") };
    };
    results.push({
      path,
      status: response.status,
      html: {
        raw: html.length,
        gzip: gzipSync(html).length,
        sent: await sentBytes(new URL(path, baseUrl), jar),
        firstVisitSent: await sentBytes(new URL(path, baseUrl), jar?.without(STYLESHEETS_COOKIE)),
      },
      css: await sum(refs.css),
      js: await sum(refs.js),
      external: refs.external,
    });
  }
  return results;
}

function assetRefs(html) {
  const css = new Set();
  const js = new Set();
  const external = new Set();
  const add = (set, href) => (href.startsWith("/build/") ? set : external).add(href);
  for (const link of startTags(html, "link")) {
    const rel = (link.rel ?? "").split(/\s+/);
    // An inlined stylesheet (decision 130) names its file in data-href.
    if (rel.includes("stylesheet")) add(css, link["data-href"] ?? link.href);
    // The portal marks its module preloads to start after the stylesheets (app/server/platform/delivery/module-preloads.server.ts).
    if (rel.includes("modulepreload") || link["data-after-css"] === "modulepreload") add(js, link.href);
  }
  for (const script of startTags(html, "script")) if (script.src) add(js, script.src);
  return { css: [...css], js: [...js], external: [...external] };
}

async function fetchSizes(url) {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`${url.pathname} answered ${response.status}`);
  const body = Buffer.from(await response.arrayBuffer());
  return { raw: body.length, gzip: gzipSync(body).length, sent: await sentBytes(url) };
}

/** The length of the body as sent (still encoded) to a browser that accepts Brotli and gzip. */
function sentBytes(url, jar) {
  return new Promise((resolve, reject) => {
    const headers = { "accept-encoding": "br, gzip", ...(jar ? { cookie: jar.header } : {}) };
    request(url, { headers }, (response) => {
      let length = 0;
      response.on("data", (chunk) => (length += chunk.length));
      response.once("end", () => resolve(length));
      response.once("error", reject);
    })
      .once("error", reject)
      .end();
  });
}

const total = (sizes, key) => sizes.reduce((sum, size) => sum + size[key], 0);
