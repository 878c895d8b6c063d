// `npm run migrate`: makes the database DATABASE_URL names ready and exits, for deployments that migrate before
// they start the portal. It runs what a starting portal process runs, under the same start-up lock (decision
// 201): the migrations, the demo seed with SEED_DEMO=true (into an empty database), the re-issue of license
// files signed with an older key, and in demo mode the generated secrets. It may run while instances start.
// Configuration comes from the environment, as the server's does; it needs the built app (`npm run build`).
import { existsSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";

process.env.NODE_ENV ??= "production";
const bundle = path.resolve("build/migrate.js");
if (!existsSync(bundle)) {
  console.error("The portal is not built: run `npm run build` first.");
  process.exit(1);
}
const { boot } = await import(pathToFileURL(bundle).href);
await boot({ jobs: false });
console.log("The database is ready.");
