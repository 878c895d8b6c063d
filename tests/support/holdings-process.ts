// A portal process started on a database (DATABASE_URL), for tests/server/backups.test.ts: it starts as the portal
// does and prints, as one JSON line, what the portal holds there: its accounts, licenses and invoices.
// Usage: DATABASE_URL=… SEED_DEMO=true LOG_LEVEL=silent node --import tsx tests/support/holdings-process.ts
import { boot } from "~/server/boot.server";
import { holdings } from "./holdings";

await boot({ jobs: false });
console.log(JSON.stringify(await holdings()));
process.exit(0);
