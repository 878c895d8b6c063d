// `npm run build` runs this after `remix build`: every script and stylesheet in public/build gets a Brotli
// (quality 11) and a gzip (level 9) copy beside it, which the server sends as they are to a browser that accepts
// them (express-static-gzip, scripts/server.mjs). The assets are fingerprinted and never change, so they are
// compressed once, as hard as the formats allow, instead of on every request at the compression middleware's
// quick settings, which sends fewer bytes on a slow link (decision 129; the figures: docs/performance.md).
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { brotliCompressSync, constants, gzipSync } from "node:zlib";

const BUILD = "public/build";
const COMPRESSIBLE = /\.(js|css|map|json|svg)$/;

let files = 0;
let before = 0;
let after = 0;
for (const file of readdirSync(BUILD, { recursive: true, encoding: "utf8" })) {
  if (!COMPRESSIBLE.test(file)) continue;
  const full = path.join(BUILD, file);
  const source = readFileSync(full);
  const brotli = brotliCompressSync(source, {
    params: {
      [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
      [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
      [constants.BROTLI_PARAM_SIZE_HINT]: source.length,
    },
  });
  writeFileSync(`${full}.br`, brotli);
  writeFileSync(`${full}.gz`, gzipSync(source, { level: constants.Z_BEST_COMPRESSION }));
  files += 1;
  before += source.length;
  after += brotli.length;
}
console.log(
  `compressed ${files} build assets: ${(before / 1000).toFixed(0)} kB → ${(after / 1000).toFixed(0)} kB with Brotli`,
);
