import { LOAD, loadTestsInTurns } from "./load.mjs";
import { signIn } from "./portal.mjs";
import { PLAN_STEP, walkWizard, WIZARDS } from "./wizard.mjs";

/** A page whose requests per second on B fall below this share of A's is marked: a slowdown worth a look. */
export const SLOWER_BELOW = 0.95;

/** The customer `--against` signs in as on both builds, and the wizard it walks so that the plan step has a draft. */
const CUSTOMER = "customer@example.com";
const NEW_SUBSCRIPTION = WIZARDS[0];

/**
 * Readies one build for the comparison: signs in as the demo customer through the real form and, when the plan step
 * is among `pages`, walks the new-subscription wizard so that the step renders the draft. Then fetches every page once
 * and keeps those that answer 200. Resolves to the cookie jar, the pages kept, what went wrong and what is only
 * worth a note, each as a sentence: a page that A, the older build, answers with 404 did not exist yet.
 */
async function ready(name, baseUrl, password, pages) {
  const jar = await signIn(baseUrl, CUSTOMER, password);
  const problems = [];
  const notes = [];
  if (pages.includes(PLAN_STEP)) {
    const failure = await walkWizard(baseUrl, jar, NEW_SUBSCRIPTION.steps);
    if (failure) problems.push(`${name}: the walk through the ${NEW_SUBSCRIPTION.name} stopped: ${failure}`);
  }
  const answering = [];
  for (const page of pages) {
    const response = await fetch(new URL(page, baseUrl), { redirect: "manual", headers: { cookie: jar.header } });
    await response.body?.cancel();
    if (response.status === 200) answering.push(page);
    else if (response.status === 404 && name === "A") notes.push(`${page} is not in A's build (404): not measured`);
    else problems.push(`${name}: ${page} answered ${response.status}, not 200; not measured`);
  }
  return { jar, answering, problems, notes };
}

/**
 * Every page of `pages` on build A and build B (each `{ baseUrl }`, running), `rounds` times in turns A B B A of
 * `seconds` each after a warm-up of its own (loadTestsInTurns): signed in on both as the demo customer. A page that
 * does not answer 200 on both is left out. Resolves to `{ pages: [{ path, a, b, ratio, rounds }], problems, notes }`:
 * a page's figures are its median round's (medianRound) and `rounds` every round's B ÷ A in order; a problem is
 * something broken in any round (never a timing), a note a page that A's build does not have.
 */
export async function compareBuilds({ a, b, password, pages, seconds, rounds }) {
  const [readyA, readyB] = [await ready("A", a.baseUrl, password, pages), await ready("B", b.baseUrl, password, pages)];
  const problems = [...readyA.problems, ...readyB.problems];
  const notes = [...readyA.notes, ...readyB.notes];
  const answering = pages.filter((page) => readyA.answering.includes(page) && readyB.answering.includes(page));
  const measured = new Map(answering.map((page) => [page, []]));
  // Round by round over every page: a slow stretch of the machine's falls on one round of each page, not on every
  // round of one.
  for (let round = 0; round < rounds; round += 1) {
    for (const page of answering) {
      const [onA, onB] = await loadTestsInTurns(
        [
          { url: `${a.baseUrl}${page}`, headers: { cookie: readyA.jar.header } },
          { url: `${b.baseUrl}${page}`, headers: { cookie: readyB.jar.header } },
        ],
        { seconds },
      );
      measured.get(page).push({ a: onA, b: onB, ratio: onB.requestsPerSecond / onA.requestsPerSecond });
      for (const [name, result] of [
        ["A", onA],
        ["B", onB],
      ]) {
        if (result.errors + result.non2xx > 0) {
          problems.push(`${name}: ${page}: ${result.errors} errors and ${result.non2xx} non-2xx answers under load`);
        }
      }
    }
  }
  return {
    pages: answering.map((path) => {
      const pageRounds = measured.get(path);
      return { path, ...medianRound(pageRounds), rounds: pageRounds.map(({ ratio }) => ratio) };
    }),
    problems,
    notes,
  };
}

/** The round whose B ÷ A is the median of a page's rounds; of an even number, the lower of the middle two. */
export function medianRound(rounds) {
  const byRatio = [...rounds].sort((x, y) => x.ratio - y.ratio);
  return byRatio[Math.floor((byRatio.length - 1) / 2)];
}

/** autocannon keeps latencies in whole milliseconds. */
const ms = (value) => (value < 1 ? "<1" : String(Math.round(value)));

/** How far a build's two turns of one page lie apart, as a share of their mean: what the machine's drift moved. */
const spread = ({ turnsRequestsPerSecond: [first, second] }) =>
  `${Math.round((Math.abs(first - second) / ((first + second) / 2 || 1)) * 100)}%`;

/**
 * The comparison as a table: page, each build's requests per second, B ÷ A, every round's B ÷ A, p50 and p99 as
 * "A / B", the gap between each build's two turns as "A / B", failed requests as "A / B", and "slower" on the rows
 * where B ÷ A is below SLOWER_BELOW: all but the rounds from the page's median round. `pages` as compareBuilds gives
 * them.
 * @returns {{ columns: [string, "l" | "r"][], rows: string[][] }}
 */
export function comparisonTable(pages) {
  const columns = [
    ["page", "l"],
    ["A req/s", "r"],
    ["B req/s", "r"],
    ["B ÷ A", "r"],
    ["rounds B ÷ A", "r"],
    ["p50 ms A / B", "r"],
    ["p99 ms A / B", "r"],
    ["turn gap A / B", "r"],
    ["failed A / B", "r"],
    ["mark", "l"],
  ];
  const rows = pages.map(({ path, a, b, ratio, rounds }) => [
    path,
    a.requestsPerSecond.toFixed(0),
    b.requestsPerSecond.toFixed(0),
    ratio.toFixed(2),
    rounds.map((round) => round.toFixed(2)).join(" "),
    `${ms(a.latencyMs.p50)} / ${ms(b.latencyMs.p50)}`,
    `${ms(a.latencyMs.p99)} / ${ms(b.latencyMs.p99)}`,
    `${spread(a)} / ${spread(b)}`,
    `${a.errors + a.non2xx} / ${b.errors + b.non2xx}`,
    // The ratio as shown decides, so that a row showing 0.95 is never marked below 0.95.
    Number(ratio.toFixed(2)) < SLOWER_BELOW ? "slower" : "",
  ]);
  return { columns, rows };
}

/** The line above the table: what A and B are and how they were measured. */
export function comparisonTitle({ ref, commitA, commitB, changed, seconds, rounds }) {
  return (
    `A = ${ref}${ref.startsWith(commitA) ? "" : ` (${commitA})`}, B = the working tree (${commitB}` +
    `${changed ? " with uncommitted changes" : ""}): both built and started as \`npm start\` runs them, signed in as ` +
    `${CUSTOMER}, ${LOAD.connections} connections, ${rounds} ${rounds === 1 ? "round" : "rounds"} of turns A B B A ` +
    `of ${seconds} s each after ${LOAD.warmupSeconds} s of warm-up of its own (autocannon, no compression); a ` +
    `page's figures are its median round's`
  );
}
