import { migrateDatabase, openDatabase } from "~/server/platform/database/portal-database.server";
import { startChargebeeFake } from "../tests/fakes/chargebee";

/**
 * Chargebee's fake in a process of its own (`node --import tsx e2e/chargebee-fake-process.ts <SQLite file>`), for
 * an e2e test: the fake imports the price list as JSON, which Playwright's loader cannot. It serves from an
 * embedded billing engine on the SQLite file given (migrated here), prints `{"port":…}` once it listens, and on
 * SIGTERM prints `{"refusals":[…]}` (the requests it refused as Chargebee would) and exits.
 */
const file = process.argv[2];
if (!file) throw new Error("Usage: chargebee-fake-process.ts <SQLite file>");
const connection = openDatabase(`file:${file}`);
await migrateDatabase(connection);
const fake = await startChargebeeFake({ store: connection.db, now: () => new Date() });
process.stdout.write(`${JSON.stringify({ port: fake.port })}\n`);
process.once("SIGTERM", () => {
  void fake
    .close()
    .then(() => connection.close())
    .then(() => {
      process.stdout.write(`${JSON.stringify({ refusals: fake.refusals })}\n`);
      process.exit(0);
    });
});
