// One portal instance making quotes, for tests/postgres/quote-numbers.test.ts: it opens the database DATABASE_URL
// names as the portal does (its start-up, without the jobs), prints "ready", waits for a line on stdin, then makes
// <count> quotes at once for the organization of <email>'s first membership, as 'Save as quote' makes them (the
// billing port's estimate, the number, the quote's row, its history and the log, in one transaction), and prints
// "numbers <JSON list of the quotes' numbers>".
// Usage: DATABASE_URL=postgres://… node --import tsx tests/support/make-quotes-process.ts <email> <count>
import { subscriptionDraftSchema } from "~/domain/new-subscription";
import { boot } from "~/server/boot.server";
import { connection } from "~/server/platform/database/connection.server";
import { makeQuote } from "~/server/quotes/index.server";
import { memberByEmail } from "./members";

const [email = "", count = "1"] = process.argv.slice(2);
await boot({ jobs: false });
const member = await memberByEmail(email);
const draft = subscriptionDraftSchema.parse({ tier: "core", users: 5, organization: member.organization.name });

console.log("ready");
await new Promise((resolve) => process.stdin.once("data", resolve));
process.stdin.destroy();
try {
  const quotes = await Promise.all(
    Array.from({ length: Number(count) }, () =>
      makeQuote(member, { customer: { kind: "none" }, draft, validDays: 30, customerMayAccept: false }),
    ),
  );
  console.log(`numbers ${JSON.stringify(quotes.map((quote) => quote.number))}`);
} finally {
  await connection.close();
}
