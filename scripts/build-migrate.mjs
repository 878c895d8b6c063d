// `npm run build` runs this after `remix build`: the database preparation (app/server/platform/database/db.server.ts and what it
// imports) bundled on its own into build/migrate.js, for `npm run migrate` (scripts/migrate.mjs). Not the Remix build:
// importing that starts the job runner and the provider sync (app/entry.server.tsx), which a
// migration must not. The portal's own modules (~/…, ~db/…) are bundled; packages stay imports, as in the
// server build, and so must be dependencies, which the Docker image keeps.
import { readFileSync } from "node:fs";
import { build } from "esbuild";

const { dependencies } = JSON.parse(readFileSync("package.json", "utf8"));

await build({
  entryPoints: { migrate: "app/server/platform/database/db.server.ts" },
  bundle: true,
  format: "esm",
  platform: "node",
  target: "node20",
  external: Object.keys(dependencies),
  // Another folder for a test that builds its own copy.
  outdir: process.argv[2] ?? "build",
  logLevel: "warning",
});
console.log(`database preparation: ${process.argv[2] ?? "build"}/migrate.js`);
