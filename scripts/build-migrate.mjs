// `npm run build` runs this after `remix build`: the portal's start-up (app/server/boot.server.ts and what it
// imports) bundled on its own into build/migrate.js, for `npm run migrate` (scripts/migrate.mjs), which calls it
// without the jobs. The Remix build would serve as well, but a test makes this bundle in seconds, where the Remix
// build takes a minute. The portal's own modules (~/…, ~db/…) are bundled; packages stay imports, as in the
// server build, and so must be dependencies, which the Docker image keeps.
import { readFileSync } from "node:fs";
import { build } from "esbuild";

const { dependencies } = JSON.parse(readFileSync("package.json", "utf8"));

await build({
  entryPoints: { migrate: "app/server/boot.server.ts" },
  bundle: true,
  format: "esm",
  platform: "node",
  target: "node20",
  external: Object.keys(dependencies).filter((name) => name !== "i18n-iso-countries"),
  // As in the server build (remix.config.js): the country names JSON is bundled (Node imports JSON only with an
  // import attribute), the package that reads it stays an import.
  plugins: [
    {
      name: "country-names-bundled",
      setup(build) {
        build.onResolve({ filter: /^i18n-iso-countries$/ }, ({ path }) => ({ path, external: true }));
      },
    },
  ],
  // Another folder for a test that builds its own copy.
  outdir: process.argv[2] ?? "build",
  logLevel: "warning",
});
console.log(`database preparation: ${process.argv[2] ?? "build"}/migrate.js`);
