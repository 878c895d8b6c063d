// `npm run bench` (after `npm run build`): measures the built portal, started as `npm start` starts it,
// on loopback and prints tables: bytes per page, each page painted on an emulated slow link, /home and a
// wizard step under concurrent load next to a bare node:http server, the time to a usable sign-in form,
// and pages for a big account next to the demo account; then every performance goal (docs/performance.md) beside its figure.
// The numbers also go to bench-results/latest.json. `--only growth` runs only the big-account part (a
// fresh portal, the demo customer and the big account, nothing else) and writes bench-results/growth.json;
// `--only mail-links` times only the pages that mail a link to a typed address, with and without an account
// (bench-results/mail-links.json).
// `--against <git ref>` runs only a comparison of that commit's build with this one's, page by page, and writes
// bench-results/against.json (scripts/bench/against.mjs). Timings never fail the run; a page that does not answer
// 200, failed requests under load or a form that never reacts do (exit 1), after everything has been printed.
// Columns: docs/bench.md.
import { execFileSync } from "node:child_process";
import { mkdir, writeFile } from "node:fs/promises";
import { availableParallelism, loadavg } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { comparisonTable, comparisonTitle, compareBuilds, SLOWER_BELOW } from "./bench/against.mjs";
import { BenchUsageError, benchArgs, USAGE } from "./bench/args.mjs";
import { addBigAccount, BIG_ACCOUNT } from "./bench/big-account.mjs";
import { addBigReseller, BIG_RESELLER } from "./bench/big-reseller.mjs";
import { goals, growthGoals, mailLinkGoals, postgresGoals } from "./bench/goals.mjs";
import { timePages } from "./bench/growth.mjs";
import { LOAD, loadTest, loadTestsInTurns, startBareServer } from "./bench/load.mjs";
import { timeMailLinks } from "./bench/mail-links.mjs";
import { measurePages } from "./bench/page-bytes.mjs";
import { measurePaint } from "./bench/paint.mjs";
import { browserCookies, firstVisit, signIn, startPortal, startPostgresPortals } from "./bench/portal.mjs";
import { describeWorkingTree, scratchBuild } from "./bench/scratch-build.mjs";
import { measureCardForm, measureSignIn } from "./bench/sign-in.mjs";
import { launchBrowser, LINK } from "./bench/slow-link.mjs";
import { kB, table } from "./bench/table.mjs";
import { PLAN_STEP, walkWizard, WIZARDS } from "./bench/wizard.mjs";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const RESULTS = path.join(ROOT, "bench-results", "latest.json");
const GROWTH_RESULTS = path.join(ROOT, "bench-results", "growth.json");
const AGAINST_RESULTS = path.join(ROOT, "bench-results", "against.json");
const MAIL_LINKS_RESULTS = path.join(ROOT, "bench-results", "mail-links.json");
const DEMO_PASSWORD = "GateKeeper-demo-1";
const CUSTOMER_PAGES = [
  "/home",
  "/store",
  "/hubs",
  "/licenses",
  "/account",
  "/support",
  "/trial",
  "/software/hub",
  "/setup/cloudHub",
  "/docs/manuals",
];
const ADMIN_PAGES = ["/admin/customers"];
/** The pages whose render time must not grow with the account's data. */
const GROWTH_PAGES = [
  "/home",
  "/licenses",
  "/hubs",
  "/hubs?type=cloud",
  "/account/invoices",
  "/account/team",
  "/account/activity",
  "/quotes",
  "/quotes?status=open",
];
/** A distributor's pages whose render time must not grow with its customers and the licenses bought for them. */
const RESELLER_GROWTH_PAGES = ["/customers", "/customers/renewals", "/customers/renewals?within=90"];

const stops = [];
async function stopAll() {
  await Promise.allSettled(stops.splice(0).map((stop) => stop()));
}
// An interrupted run must not leave its servers, browser or temporary database behind.
let interrupted = false;
for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"]) {
  process.once(signal, () => {
    interrupted = true;
    // Nothing awaits a signal's handler; stopAll settles every stop and the process exits either way.
    void stopAll().finally(() => process.exit(130));
  });
}

async function main() {
  const { help, only: part, against } = benchArgs();
  if (help) {
    console.log(USAGE);
    return [];
  }
  // Every number depends on what else the machine is doing; the load average says how busy it was.
  const run = {
    startedAt: new Date().toISOString(),
    commit: commit(),
    node: process.version,
    machine: { cpus: availableParallelism(), loadAverage: loadavg()[0] },
  };
  const what = part ? ` (only ${part})` : against ? ` (against ${against.ref})` : "";
  console.log(
    `GateKeeper Portal bench${what} · ${run.startedAt} · commit ${run.commit} · Node ${run.node} · ` +
      `${run.machine.cpus} CPUs, load average ${run.machine.loadAverage.toFixed(2)}\n`,
  );
  if (against) return againstOnly(run, against);
  const portal = await startPortal(ROOT);
  stops.push(portal.stop);
  const customer = await signIn(portal.baseUrl, "customer@example.com", DEMO_PASSWORD);
  if (part === "growth") return growthOnly(run, portal, customer);
  if (part === "postgres") return postgresOnly(run, portal, customer);
  if (part === "mail-links") return mailLinksOnly(run, portal);

  // 1. Bytes per page. /login comes first: it is the page of part 3 and its bytes make the floor.
  const admin = await signIn(portal.baseUrl, "admin@example.com", DEMO_PASSWORD);
  const shellPages = [
    { path: "/login", jar: await firstVisit(portal.baseUrl) },
    ...CUSTOMER_PAGES.map((page) => ({ path: page, jar: customer })),
    // A Hub's licenses modal over /hubs: its URL holds the Hub's id, read from the Hubs page's first link.
    { path: await linkOn(portal.baseUrl, customer, "/hubs", /href="(\/hubs\/[^"/]+\/licenses)"/), jar: customer },
    // A card form, the replace drawer of the demo customer's card: a page that takes a card (and, with Stripe, the
    // only kind that loads Stripe.js).
    {
      path: await linkOn(portal.baseUrl, customer, "/account", /href="(\/account\/cards\/[^"/]+\/replace)"/),
      jar: customer,
    },
    ...ADMIN_PAGES.map((page) => ({ path: page, jar: admin })),
  ];
  const pages = await measurePages(portal.baseUrl, shellPages);
  printPages(
    "Bytes per page: HTML, then the CSS and JS it references (gz: zlib default level, the goals' unit; sent: as the portal sends them to a browser that takes Brotli; 1 kB = 1000 B)",
    pages,
  );

  // The wizards' steps, reachable only once the steps before them are done: walk each over HTTP as the
  // customer (without ordering), then measure each step's page like the pages above.
  const wizardSteps = [];
  const wizardFailures = [];
  const jars = {
    "customer@example.com": customer,
    "distributor@example.com": await signIn(portal.baseUrl, "distributor@example.com", DEMO_PASSWORD),
  };
  for (const wizard of WIZARDS) {
    const account = wizard.account ?? "customer@example.com";
    const jar = jars[account];
    const failure = await walkWizard(portal.baseUrl, jar, wizard.steps);
    const steps = wizard.steps.map((step) => ({ path: step.path, jar }));
    const measured = await measurePages(portal.baseUrl, steps);
    printPages(`\n${wizard.name}, walked step by step as ${account} (same columns)`, measured);
    if (failure) {
      console.log(`The walk through the ${wizard.name} stopped: ${failure}`);
      wizardFailures.push(`the walk through the ${wizard.name} stopped: ${failure}`);
    }
    wizardSteps.push(...steps);
    pages.push(...measured.map((page) => ({ ...page, wizardStep: true })));
  }

  // 2. /home and the wizard's plan step under load, then a bare server answering a body of the same
  // size as /home, with the same settings.
  const home = pages.find((page) => page.path === "/home");
  const portalLoad = await loadTest(`${portal.baseUrl}/home`, { cookie: customer.header });
  const planLoad = await loadTest(`${portal.baseUrl}${PLAN_STEP}`, { cookie: customer.header });
  const bareServer = await startBareServer(home.html.raw);
  stops.push(bareServer.stop);
  const bareLoad = { bodyBytes: home.html.raw, ...(await loadTest(bareServer.url)) };
  await bareServer.stop();
  printLoad(portalLoad, planLoad, bareLoad);
  const postgresLoad = await measurePostgres(portal.baseUrl, customer);
  printPostgresLoad(postgresLoad);

  // 3. Every page painted on a slow link, then the sign-in form until usable, against their floors.
  const browser = await launchBrowser();
  stops.push(() => browser.close());
  const paint = await measurePaint(
    browser,
    portal.baseUrl,
    [...shellPages, ...wizardSteps].map((page, index) => ({ ...page, bytes: pages[index] })),
  );
  printPaint(paint);
  const signInResult = await measureSignIn(browser, `${portal.baseUrl}/login`, pages[0]);
  printUsableForm("/login", signInResult);
  const cardPage = pages.find((page) => page.path.endsWith("/replace"));
  const cardFormResult = await measureCardForm(
    browser,
    new URL(cardPage.path, portal.baseUrl).href,
    cardPage,
    browserCookies(customer, portal.baseUrl),
  );
  printUsableForm(cardPage.path, cardFormResult);

  // 4. The pages whose cost must stay flat as an account's data grows.
  const growth = await measureGrowth(portal, customer);

  // 5. The pages that mail a link to a typed address: as fast for an address with an account as for one without.
  const mailLinks = await measureMailLinks(portal);

  const summary = goals({
    pages,
    paint,
    load: { home: portalLoad, plan: planLoad, bare: bareLoad, postgres: postgresLoad },
    signIn: signInResult,
    cardForm: cardFormResult,
    growth,
    mailLinks,
  });
  printGoals(summary);

  await mkdir(path.dirname(RESULTS), { recursive: true });
  const results = {
    ...run,
    pages,
    load: {
      ...LOAD,
      portal: portalLoad,
      planStep: { url: PLAN_STEP, ...planLoad },
      bare: bareLoad,
      postgres: {
        home: postgresLoad.postgres.home,
        planStep: { url: PLAN_STEP, ...postgresLoad.postgres.plan },
        sqliteInTurns: { home: postgresLoad.sqlite.home, planStep: { url: PLAN_STEP, ...postgresLoad.sqlite.plan } },
      },
    },
    paint,
    signIn: signInResult,
    cardForm: { path: cardPage.path, ...cardFormResult },
    growth: { account: BIG_ACCOUNT, reseller: BIG_RESELLER, pages: growth },
    mailLinks,
    goals: summary,
  };
  await writeFile(RESULTS, `${JSON.stringify(results, null, 2)}\n`);
  console.log(`\nResults: ${path.relative(ROOT, RESULTS)}`);

  return [
    ...wizardFailures,
    ...pages.filter((page) => page.status !== 200).map((page) => `${page.path} answered ${page.status}, not 200`),
    ...Object.entries({
      "/home": portalLoad,
      [PLAN_STEP]: planLoad,
      "bare server": bareLoad,
      "/home on PostgreSQL": postgresLoad.postgres.home,
      [`${PLAN_STEP} on PostgreSQL`]: postgresLoad.postgres.plan,
    })
      .filter(([, result]) => result.errors + result.non2xx > 0)
      .map(([name, result]) => `${name}: ${result.errors} errors and ${result.non2xx} non-2xx answers under load`),
    ...(signInResult.modes.some((mode) => mode.reacts === false)
      ? ["the hydrated sign-in form did not validate on blur"]
      : []),
    ...(cardFormResult.modes.some((mode) => mode.reacts === false)
      ? ["the hydrated card form did not check the card number on blur"]
      : []),
  ];
}

/**
 * /home and the plan step under the same load on PostgreSQL: two instances behind one port on one database, as the
 * portal runs past one machine, each page measured in turns with the SQLite portal at `sqliteUrl` (which is idle
 * between its turns; loadTestsInTurns). Stopped before anything else runs.
 */
async function measurePostgres(sqliteUrl, sqliteCustomer) {
  const portals = await startPostgresPortals(ROOT);
  stops.push(portals.stop);
  try {
    const customer = await signIn(portals.baseUrl, "customer@example.com", DEMO_PASSWORD);
    const inTurns = (page) =>
      loadTestsInTurns([
        { url: `${sqliteUrl}${page}`, headers: { cookie: sqliteCustomer.header } },
        { url: `${portals.baseUrl}${page}`, headers: { cookie: customer.header } },
      ]);
    const [sqliteHome, postgresHome] = await inTurns("/home");
    const [sqlitePlan, postgresPlan] = await inTurns(PLAN_STEP);
    return { sqlite: { home: sqliteHome, plan: sqlitePlan }, postgres: { home: postgresHome, plan: postgresPlan } };
  } finally {
    await portals.stop();
  }
}

/**
 * `--against <ref>`: that commit built in a scratch worktree (A) and the working tree's build (B), started alike and
 * measured page by page in turns; nothing else runs. The scratch worktree goes once done, or on failure or a signal.
 */
async function againstOnly(run, { ref, seconds, rounds, pages }) {
  const scratch = scratchBuild(ROOT, ref);
  const portals = [];
  // The servers first: one of them runs from the scratch worktree.
  stops.push(async () => {
    await Promise.allSettled(portals.map((portal) => portal.stop()));
    await scratch.remove();
  });
  const built = await scratch.build();
  const a = await startPortal(built.root);
  portals.push(a);
  const b = await startPortal(ROOT);
  portals.push(b);
  const workingTree = await describeWorkingTree(ROOT);
  const comparison = await compareBuilds({ a, b, password: DEMO_PASSWORD, pages, seconds, rounds });
  const title = comparisonTitle({
    ref,
    commitA: built.commit.slice(0, 7),
    commitB: workingTree.commit,
    changed: workingTree.changed,
    seconds,
    rounds,
  });
  console.log(`\n${title}`);
  const { columns, rows } = comparisonTable(comparison.pages);
  console.log(table(columns, rows));
  console.log(
    `B ÷ A is B's requests per second over A's in the page's median round (the row's other figures are that round's ` +
      `too); "slower" marks a row below ${SLOWER_BELOW}. The turn gap is how far a build's two turns lie apart, and ` +
      "the rounds how far the rounds do: B ÷ A differing from 1 by less than those may be the machine, not the build.",
  );
  for (const note of comparison.notes) console.log(note);
  const loadAverageAfter = loadavg()[0];
  console.log(`Load average after the run: ${loadAverageAfter.toFixed(2)}`);

  await mkdir(path.dirname(AGAINST_RESULTS), { recursive: true });
  const results = {
    ...run,
    loadAverageAfter,
    a: { ref, commit: built.commit, buildSeconds: built.seconds, ownNodeModules: built.installed },
    b: workingTree,
    load: { connections: LOAD.connections, warmupSeconds: LOAD.warmupSeconds, seconds, rounds, turns: "A B B A" },
    pages: comparison.pages,
    notes: comparison.notes,
  };
  await writeFile(AGAINST_RESULTS, `${JSON.stringify(results, null, 2)}\n`);
  console.log(`Results: ${path.relative(ROOT, AGAINST_RESULTS)}`);
  return comparison.problems;
}

/** `--only postgres`: the load rows on both engines, nothing else. */
async function postgresOnly(run, portal, customer) {
  const { sqlite, postgres } = await measurePostgres(portal.baseUrl, customer);
  printPostgresLoad({ sqlite, postgres });
  const summary = postgresGoals(sqlite, postgres);
  printGoals(summary);
  return [
    ...Object.entries({ "/home on PostgreSQL": postgres.home, [`${PLAN_STEP} on PostgreSQL`]: postgres.plan })
      .filter(([, result]) => result.errors + result.non2xx > 0)
      .map(([name, result]) => `${name}: ${result.errors} errors and ${result.non2xx} non-2xx answers under load`),
  ];
}

function printPostgresLoad({ sqlite, postgres }) {
  console.log(
    `\nThe same on PostgreSQL: two instances (one process each) on one database behind a round-robin balancer on one port, ` +
      `measured in turns with the SQLite portal (one instance, ${availableParallelism()} processes; A B B A, ` +
      `${LOAD.seconds} s each, so the machine's drift falls on both)`,
  );
  const columns = ["page", "engine", "req/s", "p50 ms", "p99 ms", "p99 ÷ p50", "req/s ÷ SQLite's", "failed"];
  const rows = [
    ["/home", sqlite.home, postgres.home],
    [PLAN_STEP, sqlite.plan, postgres.plan],
  ].flatMap(([page, onSqlite, onPostgres]) =>
    [
      ["SQLite", onSqlite],
      ["PostgreSQL", onPostgres],
    ].map(([engine, result]) => [
      page,
      engine,
      result.requestsPerSecond.toFixed(0),
      ms(result.latencyMs.p50),
      ms(result.latencyMs.p99),
      (result.latencyMs.p99 / Math.max(result.latencyMs.p50, 1)).toFixed(1),
      (result.requestsPerSecond / onSqlite.requestsPerSecond).toFixed(2),
      String(result.errors + result.non2xx),
    ]),
  );
  console.log(
    table(
      columns.map((header, i) => [header, i < 2 ? "l" : "r"]),
      rows,
    ),
  );
}

/**
 * The pages whose cost must stay flat as an account's data grows: the demo customer next to an account
 * with thousands of licenses, Hubs and invoices.
 */
async function measureGrowth(portal, customer) {
  addBigAccount(portal.databaseFile, "customer@example.com");
  const big = await signIn(portal.baseUrl, BIG_ACCOUNT.email, DEMO_PASSWORD);
  const growth = await timePages(portal.baseUrl, GROWTH_PAGES, { demo: customer, big });
  printGrowth(
    growth,
    `the demo customer and ${BIG_ACCOUNT.email} taking turns ` +
      `(${BIG_ACCOUNT.licenses} licenses, ${BIG_ACCOUNT.hubs} Hubs, ${BIG_ACCOUNT.invoices} invoices, ` +
      `${BIG_ACCOUNT.members} members, ${BIG_ACCOUNT.invitations} invitations, ${BIG_ACCOUNT.activity} activity entries, ` +
      `${BIG_ACCOUNT.quotes} quotes)`,
  );
  addBigReseller(portal.databaseFile, "distributor@example.com");
  const distributor = await signIn(portal.baseUrl, "distributor@example.com", DEMO_PASSWORD);
  const bigReseller = await signIn(portal.baseUrl, BIG_RESELLER.email, DEMO_PASSWORD);
  const resellerGrowth = await timePages(portal.baseUrl, RESELLER_GROWTH_PAGES, {
    demo: distributor,
    big: bigReseller,
  });
  printGrowth(
    resellerGrowth,
    `the demo distributor and ${BIG_RESELLER.email} taking turns ` +
      `(${BIG_RESELLER.customers} end customers, ${BIG_RESELLER.licenses} licenses bought for them, each renewing)`,
  );
  return [...growth, ...resellerGrowth];
}

/** `--only growth`: part 4 and its goals, with the machine's load average before and after. */
async function growthOnly(run, portal, customer) {
  const growth = await measureGrowth(portal, customer);
  const summary = growthGoals(growth);
  printGoals(summary);
  const loadAverageAfter = loadavg()[0];
  console.log(`\nLoad average after the run: ${loadAverageAfter.toFixed(2)}`);
  await mkdir(path.dirname(GROWTH_RESULTS), { recursive: true });
  const results = {
    ...run,
    loadAverageAfter,
    growth: { account: BIG_ACCOUNT, reseller: BIG_RESELLER, pages: growth },
    goals: summary,
  };
  await writeFile(GROWTH_RESULTS, `${JSON.stringify(results, null, 2)}\n`);
  console.log(`Results: ${path.relative(ROOT, GROWTH_RESULTS)}`);
  return [];
}

/** The pages that mail a link to a typed address, timed for an address with an account and one without. */
async function measureMailLinks(portal) {
  const mailLinks = await timeMailLinks(portal, "customer@example.com");
  printMailLinks(mailLinks);
  return mailLinks;
}

/** `--only mail-links`: part 5 and its goal, with the machine's load average before and after. */
async function mailLinksOnly(run, portal) {
  const mailLinks = await measureMailLinks(portal);
  printGoals(mailLinkGoals(mailLinks));
  const loadAverageAfter = loadavg()[0];
  console.log(`\nLoad average after the run: ${loadAverageAfter.toFixed(2)}`);
  await mkdir(path.dirname(MAIL_LINKS_RESULTS), { recursive: true });
  await writeFile(MAIL_LINKS_RESULTS, `${JSON.stringify({ ...run, loadAverageAfter, mailLinks }, null, 2)}\n`);
  console.log(`Results: ${path.relative(ROOT, MAIL_LINKS_RESULTS)}`);
  return [];
}

function printMailLinks(mailLinks) {
  console.log(
    `\nThe pages that mail a link to a typed address, posted as a browser without JavaScript does: median ms over ` +
      `${mailLinks[0]?.requests} pairs, an address with an account and one without in random order, each request ` +
      "from its own loopback address",
  );
  const columns = ["page", "with an account ms", "without ms", "difference ms"];
  const rows = mailLinks.map(({ page, knownMs, unknownMs, differenceMs }) => [
    page,
    knownMs.toFixed(2),
    unknownMs.toFixed(2),
    differenceMs.toFixed(2),
  ]);
  console.log(
    table(
      columns.map((header, i) => [header, i === 0 ? "l" : "r"]),
      rows,
    ),
  );
}

/** The first link on `page`, as the jar's person sees it, whose address `pattern` captures: a page of the demo's own. */
async function linkOn(baseUrl, jar, page, pattern) {
  const html = await (await fetch(new URL(page, baseUrl), { headers: { cookie: jar.header } })).text();
  const path = pattern.exec(html)?.[1];
  if (!path) throw new Error(`${page} shows the demo customer no link like ${pattern}`);
  return path;
}

function printPages(title, pages) {
  console.log(title);
  const columns = [
    "page",
    "status",
    "HTML raw",
    "HTML gz",
    "CSS raw",
    "CSS gz",
    "JS raw",
    "JS gz",
    "total gz",
    "total sent",
    "files",
    "HTML sent, CSS inline",
  ];
  const rows = pages.map(({ path: page, status, html, css, js }) => [
    page,
    String(status),
    kB(html.raw),
    kB(html.gzip),
    kB(css.raw),
    kB(css.gzip),
    kB(js.raw),
    kB(js.gzip),
    kB(html.gzip + css.gzip + js.gzip),
    kB(html.sent + css.sent + js.sent),
    `${css.files} css + ${js.files} js`,
    kB(html.firstVisitSent),
  ]);
  console.log(
    table(
      columns.map((header, i) => [header, i === 0 ? "l" : "r"]),
      rows,
    ),
  );
  const external = [...new Set(pages.flatMap((page) => page.external))];
  if (external.length) console.log(`Not counted (outside /build/): ${external.join(", ")}`);
}

function printLoad(portalLoad, planLoad, bareLoad) {
  console.log(
    `\nGET signed in: ${LOAD.connections} connections for ${LOAD.seconds} s on loopback ` +
      `after ${LOAD.warmupSeconds} s of warm-up (autocannon, no compression)`,
  );
  const columns = ["server", "req/s", "p50 ms", "p99 ms", "requests", "timeouts", "failed", "bytes/response"];
  const rows = [
    ["portal /home (npm start)", portalLoad],
    [`portal ${PLAN_STEP}`, planLoad],
    [`bare node:http, ${bareLoad.bodyBytes} B body`, bareLoad],
  ].map(([name, result]) => [
    name,
    result.requestsPerSecond.toFixed(0),
    ms(result.latencyMs.p50),
    ms(result.latencyMs.p99),
    String(result.requests),
    String(result.timeouts),
    String(result.errors + result.non2xx),
    String(result.bytesPerResponse),
  ]);
  console.log(
    table(
      columns.map((header, i) => [header, i === 0 ? "l" : "r"]),
      rows,
    ),
  );
}

function printPaint(paint) {
  console.log(
    `\nEvery page cold on an emulated ${LINK.kbps} kbps / ${LINK.latencyMs} ms link, signed in: first paint in ms ` +
      "since navigation start, against the floor of the page's HTML + CSS bytes",
  );
  const columns = ["page", "floor", "JS on", "× floor", "JS off", "× floor "];
  const rows = paint.map(({ path: page, floor, on, off }) => [
    page,
    String(floor.ms),
    String(on.paintedMs),
    on.ratio.toFixed(2),
    String(off.paintedMs),
    off.ratio.toFixed(2),
  ]);
  console.log(
    table(
      columns.map((header, i) => [header, i === 0 ? "l" : "r"]),
      rows,
    ),
  );
}

function printGrowth(growth, accounts) {
  console.log(`\nOne request at a time: median ms over ${growth[0]?.demo.requests} requests each, ${accounts}`);
  const columns = ["page", "demo ms", "big ms", "big ÷ demo"];
  const rows = growth.map(({ path: page, demo, big }) => [
    page,
    demo.medianMs.toFixed(1),
    big.medianMs.toFixed(1),
    (big.medianMs / demo.medianMs).toFixed(2),
  ]);
  console.log(
    table(
      columns.map((header, i) => [header, i === 0 ? "l" : "r"]),
      rows,
    ),
  );
}

function printGoals(summary) {
  console.log("\nThe performance goals (docs/performance.md), measured in this run");
  const columns = ["measure", "now", "goal", "met"];
  const rows = summary.map(({ measure, now, goal, met }) => [measure, now, goal, met ? "yes" : "NO"]);
  console.log(
    table(
      columns.map((header) => [header, "l"]),
      rows,
    ),
  );
}

function printUsableForm(path, { chromium, runsPerMode, modes }) {
  console.log(
    `\n${path} cold on an emulated ${LINK.kbps} kbps / ${LINK.latencyMs} ms link (Chromium ${chromium}); ` +
      `median of ${runsPerMode} runs, ms since navigation start`,
  );
  const columns = [
    "JavaScript",
    "usable",
    "runs",
    "visible",
    "floor",
    "× floor",
    "round trips",
    "floor bytes",
    "wire bytes",
    "requests",
    "reacts",
  ];
  const rows = modes.map((mode) => [
    mode.javaScript ? "on" : "off",
    String(mode.usableMs),
    mode.runs.map((run) => run.usableMs).join(" / "),
    String(mode.visibleMs),
    String(mode.floor.ms),
    (mode.usableMs / mode.floor.ms).toFixed(2),
    String(mode.floor.roundTrips),
    kB(mode.floor.bytes),
    kB(mode.wire.bytes),
    String(mode.wire.requests),
    { true: "yes", false: "NO", null: "n/a" }[mode.reacts],
  ]);
  const align = (header) => (header === "JavaScript" || header === "reacts" ? "l" : "r");
  console.log(
    table(
      columns.map((header) => [header, align(header)]),
      rows,
    ),
  );
  console.log("floor = max(RTT + all bytes / bandwidth, 2 × RTT + subresource bytes / bandwidth); see docs/bench.md");
}

/** autocannon keeps latencies in whole milliseconds. */
const ms = (value) => (value < 1 ? "<1" : String(Math.round(value)));

function commit() {
  try {
    return execFileSync("git", ["rev-parse", "--short", "HEAD"], {
      cwd: ROOT,
      encoding: "utf8",
      stdio: ["ignore", "pipe", "ignore"],
    }).trim();
  } catch {
    return "unknown";
  }
}

try {
  const problems = await main();
  for (const problem of problems) console.error(`bench: ${problem}`);
  process.exitCode = problems.length ? 1 : 0;
} catch (error) {
  if (error instanceof BenchUsageError) {
    console.error(`bench: ${error.message}\n\n${USAGE}`);
    process.exitCode = 2;
  } else {
    // Once interrupted, whatever was under way fails as its server or browser goes: not worth a trace.
    if (!interrupted) console.error(error);
    process.exitCode = 1;
  }
} finally {
  await stopAll();
}
