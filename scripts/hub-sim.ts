/**
 * The Hub service simulator as a standalone HTTP server (`npm run hub-sim`), speaking the Hub service's
 * API so the portal can run with HUB_PROVIDER=http against it. It keeps its tenants in its own database
 * (HUB_SIM_DATABASE_URL, on the portal's engine), checks HUB_SERVICE_TOKEN when set, and verifies license files
 * with the portal's key (run it with the portal's SESSION_SECRET, or beside its database in demo mode).
 */
import { ConfigError, env } from "~/server/platform/config/env.server";
import { migrateDatabase, openDatabase } from "~/server/platform/database/portal-database.server";
import { withStartupLock } from "~/server/platform/database/startup-lock.server";
import { engine } from "~/server/platform/database/tables.server";
import { databaseChoice } from "~/server/platform/config/database-url.server";
import { createHubSimulator } from "~/server/hubs/simulator/simulator.server";
import { startHubSimServer } from "~/server/hubs/simulator/server.server";
import { simulatorStartupMs } from "~/server/hubs/simulator/startup.server";

const choice = databaseChoice(env.HUB_SIM_DATABASE_URL);
// The simulator writes through the portal's tables and locks, which are those of DATABASE_URL's engine.
if (choice?.engine !== engine) {
  throw new ConfigError(`HUB_SIM_DATABASE_URL must name a database on the portal's engine (${engine}).`);
}
const database = openDatabase(env.HUB_SIM_DATABASE_URL);
await withStartupLock(choice, () => migrateDatabase(database));
const hubs = createHubSimulator({ store: database.db, host: env.HUB_HOST, startupMs: simulatorStartupMs() });
const server = await startHubSimServer({
  hubs,
  token: env.HUB_SERVICE_TOKEN,
  port: env.HUB_SIM_PORT,
  hostname: "127.0.0.1",
});
console.log(`Hub service simulator listening on ${server.url}`);

const stop = () =>
  void server
    .close()
    .then(() => database.close())
    .then(() => process.exit(0));
process.on("SIGINT", stop);
process.on("SIGTERM", stop);
