// One portal process starting on a database, for tests/server/startup-lock.test.ts: it prepares the database
// DATABASE_URL names as the portal does when it starts (generated secrets, migrations, the demo seed, license
// files), prints which license signing key and session secret it ended up with, and exits.
// Usage: DATABASE_URL=file:… SEED_DEMO=true node --import tsx tests/support/prepare-database-process.ts
import { createHash } from "node:crypto";
import { boot } from "~/server/boot.server";
import { keyIdOf } from "~/server/hubs/license-files.server";
import { licenseSigningKey, secretFor } from "~/server/platform/secrets.server";

await boot({ jobs: false });
const sessionSecret = createHash("sha256").update(secretFor("session")).digest("hex");
console.log(`signing key ${keyIdOf(licenseSigningKey().publicKey)}, session secret ${sessionSecret}`);
