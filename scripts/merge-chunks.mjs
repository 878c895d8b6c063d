// `npm run build` runs this right after `remix build` (decision 235): Rollup bundles the compiler's scripts again,
// from its entry and route modules, and merges the small shared chunks esbuild's code splitting leaves (a chunk for
// every set of routes that shares a module) into larger ones, as Angular's build does over its esbuild output.
// On a slow link each file is a request, and a browser asks a host for six at a time: the card drawer over
// /account was 35 files. Then the manifest the browser and the server read names the new files.
import { createHash } from "node:crypto";
import { mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { rollup } from "rollup";

const BUILD = "public/build";
const SERVER_BUILD = "build/index.js";
const METAFILE = "build/metafile.js.json";
/**
 * A shared chunk below this many bytes (minified, before compression) goes into a file the pages that load it load
 * anyway: a page may load a few kB it does not run yet, and saves a round trip for every six files.
 */
const SMALL_CHUNK_BYTES = 4_000;

const manifestFile = readdirSync(BUILD).find((name) => /^manifest-[0-9A-F]+\.js$/.test(name));
if (!manifestFile) throw new Error(`no manifest in ${BUILD}: run remix build first`);
const manifestSource = readFileSync(path.join(BUILD, manifestFile), "utf8");
const manifest = JSON.parse(manifestSource.slice(manifestSource.indexOf("{"), manifestSource.lastIndexOf("}") + 1));

const metafile = JSON.parse(readFileSync(METAFILE, "utf8"));
/** The compiler's output files, as the metafile names them (`public/build/…`), and what each imports statically. */
const staticImports = new Map(
  Object.entries(metafile.outputs)
    .filter(([file]) => file.endsWith(".js"))
    .map(([file, { imports = [] }]) => [
      file,
      imports.filter((imported) => imported.kind === "import-statement").map((imported) => imported.path),
    ]),
);
/** Files and what they import, all the way down, in the order a depth-first walk meets them. */
function withImports(files, importsOf = (file) => staticImports.get(file)) {
  const found = new Set();
  const visit = (file) => {
    if (found.has(file)) return;
    found.add(file);
    for (const imported of importsOf(file)) visit(imported);
  };
  for (const file of files) visit(file);
  return found;
}
const metafilePath = (url) => `${BUILD}/${url.slice("/build/".length)}`;
/** What every page loads: the entry and the root route, and their imports. */
const everyPage = withImports([metafilePath(manifest.entry.module), metafilePath(manifest.routes.root.module)]);
/** What scripts import when they need it (decision 105's form rules): kept apart, so that it stays on demand. */
const onDemand = new Set(
  Object.values(metafile.outputs).flatMap(({ imports = [] }) =>
    imports.filter((imported) => imported.kind === "dynamic-import").map((imported) => imported.path),
  ),
);
const isShared = (file) => file.startsWith(`${BUILD}/_shared/`) && !onDemand.has(file);
/**
 * Where each small shared chunk goes, so that no page loads a file it did not load before:
 * - one that imports only files every page loads joins the group of such chunks (a file of its own), which
 *   therefore imports only what every page loads, and nothing on every page imports it back;
 * - one that imports other files goes into one of them that imports, all the way down, all it imports: a page
 *   that loads it loads that file anyway, and that file now brings it where it was not needed (a few kB at most).
 * Other chunks stay as they are, and so does what scripts import on demand.
 */
const everyPageGroup = "small-every-page";
const into = new Map();
const smallChunks = [...staticImports.keys()].filter(
  (file) => isShared(file) && !everyPage.has(file) && statSync(file).size < SMALL_CHUNK_BYTES,
);
for (const file of smallChunks) {
  const beyond = staticImports.get(file).filter((imported) => !everyPage.has(imported));
  if (!beyond.length) {
    into.set(file, everyPageGroup);
    continue;
  }
  const needed = [...withImports(beyond)].filter((imported) => !everyPage.has(imported));
  const host = beyond.find((candidate) => {
    if (!isShared(candidate)) return false;
    const hostLoads = withImports([candidate]);
    return needed.every((imported) => hostLoads.has(imported));
  });
  if (host) into.set(file, host);
}
/** The name of the file a shared chunk ends in: where it goes, and where that goes, and so on. */
function groupOf(file) {
  let at = file;
  while (into.has(at) && into.get(at) !== everyPageGroup) at = into.get(at);
  return into.get(at) === everyPageGroup ? everyPageGroup : path.basename(at, ".js");
}

/** A built URL's file on disk, and back. */
const fileOf = (url) => path.resolve("public", `.${url}`);
const urlOf = (fileName) => `/build/${fileName}`;
/** `routes/_portal.account-HFE7B4XV.js` → `routes/_portal.account`: the entry's name, to which Rollup adds its hash. */
const entryName = (url) => url.slice("/build/".length).replace(/-[0-9A-Z]{8}\.js$/, "");

const entries = { [entryName(manifest.entry.module)]: fileOf(manifest.entry.module) };
for (const route of Object.values(manifest.routes)) entries[entryName(route.module)] = fileOf(route.module);

const oldScripts = readdirSync(BUILD, { recursive: true, encoding: "utf8" }).filter(
  (file) => file.endsWith(".js") && file !== manifestFile && !file.startsWith("_page"),
);
const bytesBefore = oldScripts.reduce((sum, file) => sum + readFileSync(path.join(BUILD, file)).length, 0);

const bundle = await rollup({
  input: entries,
  // Remix reads each route module's exports by name (default, loader-free meta, links, handle, ErrorBoundary).
  preserveEntrySignatures: "strict",
  // The compiler's scripts import each other by URL (`/build/_shared/chunk-….js`): those are files here.
  plugins: [{ name: "build-urls", resolveId: (id) => (id.startsWith("/build/") ? fileOf(id) : null) }],
  onwarn(warning) {
    throw new Error(`Rollup: ${warning.message}`);
  },
});
const { output } = await bundle.generate({
  format: "es",
  compact: true,
  entryFileNames: "[name]-[hash].js",
  chunkFileNames: "_shared/chunk-[hash].js",
  hashCharacters: "base36",
  // Each of the compiler's shared chunks is a file of its own but for the small ones placed above. (Rollup's own
  // `experimentalMinChunkSize` merges only chunks without top-level calls: minified code has them everywhere.)
  manualChunks(id) {
    const file = path.relative(process.cwd(), id);
    return isShared(file) ? groupOf(file) : undefined;
  },
});
await bundle.close();

for (const file of oldScripts) rmSync(path.join(BUILD, file));
const chunks = new Map(output.filter((item) => item.type === "chunk").map((chunk) => [chunk.fileName, chunk]));
for (const chunk of chunks.values()) {
  mkdirSync(path.dirname(path.join(BUILD, chunk.fileName)), { recursive: true });
  writeFileSync(path.join(BUILD, chunk.fileName), chunk.code);
}

/** A chunk's static imports, all the way down, in the order they are met: what the page preloads with it. */
function importsOf(fileName) {
  const found = withImports([fileName], (file) => chunks.get(file).imports);
  found.delete(fileName);
  return [...found];
}
const newFileOf = new Map(
  [...chunks.values()].filter((chunk) => chunk.isEntry).map((chunk) => [chunk.facadeModuleId, chunk.fileName]),
);
function place(part) {
  const fileName = newFileOf.get(fileOf(part.module));
  if (!fileName) throw new Error(`Rollup made no entry for ${part.module}`);
  const imports = importsOf(fileName).map(urlOf);
  return { ...part, module: urlOf(fileName), imports: imports.length ? imports : undefined };
}
const merged = { ...manifest, entry: place(manifest.entry), routes: {} };
for (const [id, route] of Object.entries(manifest.routes)) merged.routes[id] = place(route);

// A new manifest has a new version, as Remix makes it: the first 8 hex digits of its content's hash.
const version = createHash("sha256")
  .update(JSON.stringify({ ...merged, version: "", url: "" }))
  .digest("hex")
  .slice(0, 8);
merged.version = version;
merged.url = urlOf(`manifest-${version.toUpperCase()}.js`);
rmSync(path.join(BUILD, manifestFile));
writeFileSync(fileOf(merged.url), `window.__remixManifest=${JSON.stringify(merged)};`);

// The server build renders the same manifest into every page; its one literal is replaced.
const server = readFileSync(SERVER_BUILD, "utf8");
const literal = /^var assets_manifest_default = \{.*\};$/m;
if ((server.match(new RegExp(literal, "gm")) ?? []).length !== 1) {
  throw new Error(`${SERVER_BUILD} has not exactly one assets manifest`);
}
writeFileSync(
  SERVER_BUILD,
  server.replace(literal, () => `var assets_manifest_default = ${JSON.stringify(merged)};`),
);
writeFileSync("build/version.txt", version);

// esbuild's metafile (read by scripts/js-per-page.mjs) lists which sources fill each file: a new file's are those of
// the old files Rollup put in it.
const outputs = Object.fromEntries(Object.entries(metafile.outputs).filter(([file]) => !file.endsWith(".js")));
for (const chunk of chunks.values()) {
  const inputs = {};
  for (const oldFile of Object.keys(chunk.modules)) {
    const old = metafile.outputs[path.relative(process.cwd(), oldFile)];
    for (const [input, { bytesInOutput }] of Object.entries(old?.inputs ?? {})) {
      inputs[input] = { bytesInOutput: (inputs[input]?.bytesInOutput ?? 0) + bytesInOutput };
    }
  }
  outputs[path.join(BUILD, chunk.fileName)] = { inputs };
}
writeFileSync(METAFILE, JSON.stringify({ ...metafile, outputs }));

const bytesAfter = [...chunks.values()].reduce((sum, chunk) => sum + Buffer.byteLength(chunk.code), 0);
console.log(
  `merged ${into.size} small chunks: ${oldScripts.length} scripts → ${chunks.size} (${(bytesBefore / 1000).toFixed(0)} kB → ${(bytesAfter / 1000).toFixed(0)} kB)`,
);
