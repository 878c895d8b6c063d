// `npm run build` runs this after `remix build` and before compress-build.mjs: every script in public/build is
// minified again with terser (decision 136). esbuild, which the Remix compiler minifies with, works file by
// file in one pass; terser's second pass and its name mangling leave the scripts smaller still (the figures:
// docs/performance.md). The output is a pure function of esbuild's, so a file's
// fingerprinted name still names one content. License comments (`/*!`) stay.
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { minify } from "terser";

const BUILD = "public/build";

let files = 0;
let before = 0;
let after = 0;
for (const file of readdirSync(BUILD, { recursive: true, encoding: "utf8" })) {
  if (!file.endsWith(".js")) continue;
  const full = path.join(BUILD, file);
  const source = readFileSync(full, "utf8");
  // `module`: the build's scripts are ES modules, so their top-level names are private to them and can be
  // mangled; their export names are kept.
  const { code } = await minify(source, { module: true, ecma: 2020, compress: { passes: 2 }, mangle: true });
  if (code === undefined) throw new Error(`terser returned nothing for ${full}`);
  writeFileSync(full, code);
  files += 1;
  before += Buffer.byteLength(source);
  after += Buffer.byteLength(code);
}
console.log(`minified ${files} scripts: ${(before / 1000).toFixed(0)} kB → ${(after / 1000).toFixed(0)} kB`);
