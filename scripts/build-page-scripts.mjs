// `npm run build` runs this after `remix build`: the scripts of the pages that load no React (decision 138),
// each bundled with what it imports from app/ into public/build/_page/<name>-<hash>.js, and their URLs in
// build/page-scripts.json for the server (app/server/platform/delivery/page-scripts.server.ts). minify-build.mjs and
// compress-build.mjs then treat them as every other build script.
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { build } from "esbuild";

const PAGE_SCRIPTS = { "sign-in": "app/ui/page-scripts/sign-in.ts" };

const { metafile } = await build({
  entryPoints: PAGE_SCRIPTS,
  bundle: true,
  format: "esm",
  platform: "browser",
  target: "es2020",
  minify: true,
  outdir: "public/build/_page",
  entryNames: "[name]-[hash]",
  metafile: true,
  logLevel: "warning",
});

const hrefs = {};
for (const [output, { entryPoint }] of Object.entries(metafile.outputs)) {
  const name = Object.keys(PAGE_SCRIPTS).find((key) => PAGE_SCRIPTS[key] === entryPoint);
  if (name) hrefs[name] = `/${path.relative("public", output).split(path.sep).join("/")}`;
}
for (const name of Object.keys(PAGE_SCRIPTS))
  if (!hrefs[name]) throw new Error(`no output for the page script ${name}`);
mkdirSync("build", { recursive: true });
writeFileSync("build/page-scripts.json", `${JSON.stringify(hrefs, null, 2)}\n`);
console.log(
  `page scripts: ${Object.entries(hrefs)
    .map(([name, href]) => `${name} → ${href}`)
    .join(", ")}`,
);
