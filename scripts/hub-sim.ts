/**
 * The Hub service simulator as a standalone HTTP server (`npm run hub-sim`), speaking the Hub service's
 * API so the portal can run with HUB_PROVIDER=http against it. It keeps its tenants in its own SQLite
 * file (HUB_SIM_DATABASE_URL), checks HUB_SERVICE_TOKEN when set, and verifies license files with the
 * portal's key (run it with the portal's SESSION_SECRET, or beside its database in demo mode).
 */
import { databaseFile, env } from "~/server/env.server";
import { createHubSimulator } from "~/server/hubs/simulator/simulator.server";
import { startHubSimServer } from "~/server/hubs/simulator/server.server";
import { simulatorStartupMs } from "~/server/hubs/simulator/startup.server";
import { openDatabase } from "~/server/sqlite.server";

const { db } = openDatabase(databaseFile(env.HUB_SIM_DATABASE_URL));
const hubs = createHubSimulator({ store: db, host: env.HUB_HOST, startupMs: simulatorStartupMs() });
const server = await startHubSimServer({
  hubs,
  token: env.HUB_SERVICE_TOKEN,
  port: env.HUB_SIM_PORT,
  hostname: "127.0.0.1",
});
console.log(`Hub service simulator listening on ${server.url}`);

const stop = () => void server.close().then(() => process.exit(0));
process.on("SIGINT", stop);
process.on("SIGTERM", stop);
