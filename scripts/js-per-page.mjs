// `node scripts/js-per-page.mjs routes/_portal.home [routes/_portal.licenses ...]` (after `npm run build`): the
// JavaScript a page loads (entry, root and every matched route's module and imports, from the build's manifest),
// its gzip size, and which packages and app modules fill it (from esbuild's metafile). Decisions 062 and 235
// explain the chunking. The sign-in page loads none of this, only its own script (decision 138, build/page-scripts.json).
import { readdirSync, readFileSync } from "node:fs";
import { gzipSync } from "node:zlib";

const metafile = JSON.parse(readFileSync("build/metafile.js.json", "utf8"));
const manifestFile = readdirSync("public/build").find((name) => /^manifest-.*\.js$/.test(name));
const manifestSource = readFileSync(`public/build/${manifestFile}`, "utf8");
// The build minifies the manifest too (`!1` for false): it is read as the script it is, not as JSON.
const manifest = new Function(
  `return ${manifestSource.slice(manifestSource.indexOf("{"), manifestSource.lastIndexOf("}") + 1)}`,
)();
const TOP = 20;

/** A package's name, or the app module's path. */
const owner = (input) => input.replace(/^node_modules\/((@[^/]+\/)?[^/]+).*/, "$1");

for (const routeId of process.argv.slice(2)) {
  if (!manifest.routes[routeId]) {
    console.log(`${routeId}: no such route (ids look like routes/_portal.home)`);
    continue;
  }
  const chain = [];
  for (let route = manifest.routes[routeId]; route; route = manifest.routes[route.parentId]) chain.unshift(route);
  const files = new Set([manifest.entry.module, ...manifest.entry.imports]);
  for (const route of chain) for (const file of [route.module, ...(route.imports ?? [])]) files.add(file);

  let gzip = 0;
  const bytesByOwner = new Map();
  for (const file of files) {
    gzip += gzipSync(readFileSync(`public${file}`)).length;
    for (const [input, { bytesInOutput }] of Object.entries(metafile.outputs[`public${file}`]?.inputs ?? {})) {
      bytesByOwner.set(owner(input), (bytesByOwner.get(owner(input)) ?? 0) + bytesInOutput);
    }
  }
  console.log(
    `${routeId}: ${files.size} files, ${(gzip / 1000).toFixed(1)} kB gzip; largest parts (minified, before gzip):`,
  );
  for (const [name, bytes] of [...bytesByOwner].sort((a, b) => b[1] - a[1]).slice(0, TOP)) {
    console.log(`  ${(bytes / 1000).toFixed(1).padStart(6)} kB  ${name}`);
  }
}
