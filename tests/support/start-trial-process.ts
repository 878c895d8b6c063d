// One portal instance starting a trial, for tests/postgres/trial-race.test.ts: it opens the database DATABASE_URL
// names as the portal does (its start-up, without the jobs), prints "ready", waits for a line on stdin, then makes the organization's trial license
// through the trial service (as the trial job's step does) and prints "licensed <id>" or "used up".
// Usage: DATABASE_URL=postgres://… node --import tsx tests/support/start-trial-process.ts <organization id> <trial id>
import { boot } from "~/server/boot.server";
import { connection } from "~/server/platform/database/connection.server";
import { findOrganization } from "~/server/accounts/organizations.server";
import { createTrialLicense, TrialUsedUpError } from "~/server/trials/trials.server";

const [organizationId = "", trialId = ""] = process.argv.slice(2);
await boot({ jobs: false });
const organization = await findOrganization(organizationId);
if (!organization) throw new Error(`No organization ${organizationId}.`);

console.log("ready");
await new Promise((resolve) => process.stdin.once("data", resolve));
process.stdin.destroy();
try {
  const license = await createTrialLicense({
    id: trialId,
    organization,
    hubType: "onpremise",
    nodes: 5,
    startDate: new Date().toISOString().slice(0, 10),
    duration: 15,
  });
  console.log(`licensed ${license.id}`);
} catch (error) {
  if (!(error instanceof TrialUsedUpError)) throw error;
  console.log("used up");
} finally {
  await connection.close();
}
