import { kB } from "./table.mjs";

/** /home's requests per second on the build the performance goals were set against (their table's "now"). */
const HOME_RPS_BEFORE = 117;

/**
 * The performance goals' table (docs/performance.md): each measure of this run beside its goal. `now` and `goal` are text for the table;
 * `met` says whether the figure reaches the goal.
 */
export function goals({ pages, paint, load, signIn, cardForm, growth, mailLinks }) {
  const worst = (rows, value) => rows.reduce((a, b) => (value(b) > value(a) ? b : a));
  const paintOn = worst(paint, (row) => row.on.ratio);
  const paintOff = worst(paint, (row) => row.off.ratio);
  const bestOff = worst(paint, (row) => -row.off.ratio);
  const signInOn = signIn.modes.find((mode) => mode.javaScript);
  const cardFormOn = cardForm.modes.find((mode) => mode.javaScript);
  const cardFormRatio = cardFormOn.usableMs / cardFormOn.floor.ms;
  const css = worst(pages, (page) => page.css.gzip);
  const login = pages.find((page) => page.path === "/login");
  const steps = pages.filter((page) => page.wizardStep);
  const step = worst(steps, (page) => page.js.gzip);
  const share = (load.home.requestsPerSecond / load.bare.requestsPerSecond) * 100;
  return [
    {
      measure: "page painted on 400 kbps / 400 ms, JS on, ÷ floor of its HTML+CSS (worst page)",
      now: `${paintOn.on.ratio.toFixed(2)} (${paintOn.path})`,
      goal: "≤ 1.3 on every page and wizard step",
      met: paintOn.on.ratio <= 1.3,
    },
    {
      measure: "the same, JS off",
      now: `${bestOff.off.ratio.toFixed(2)}–${paintOff.off.ratio.toFixed(2)} (worst ${paintOff.path})`,
      goal: "keep (0.94–0.98 before)",
      met: paintOff.off.ratio <= 1.05,
    },
    {
      measure: "sign-in form usable with JS on that link",
      now: `${(signInOn.usableMs / 1000).toFixed(1)} s`,
      goal: "≤ 2.5 s",
      met: signInOn.usableMs <= 2500,
    },
    {
      measure: "card form usable with JS on that link ÷ floor of its HTML and scripts",
      now: `${cardFormRatio.toFixed(2)} (${(cardFormOn.usableMs / 1000).toFixed(1)} s)`,
      goal: "≤ 1.3",
      met: cardFormRatio <= 1.3,
    },
    {
      measure: "CSS per page, gzip (largest)",
      now: `${kB(css.css.gzip)} (${css.path})`,
      goal: "≤ 12 kB",
      met: css.css.gzip <= 12_000,
    },
    { measure: "JS on /login, gzip", now: kB(login.js.gzip), goal: "≤ 100 kB", met: login.js.gzip <= 100_000 },
    {
      measure: "JS per wizard step, gzip (largest)",
      now: `${kB(step.js.gzip)} (${step.path})`,
      goal: "≤ 130 kB",
      met: step.js.gzip <= 130_000,
    },
    {
      measure: "/home at 50 connections: req/s (share of bare node:http)",
      now: `${load.home.requestsPerSecond.toFixed(0)} (${share.toFixed(1)}%)`,
      goal: `≥ ${5 * HOME_RPS_BEFORE} (5 × ${HOME_RPS_BEFORE})`,
      met: load.home.requestsPerSecond >= 5 * HOME_RPS_BEFORE,
    },
    ...[
      ["/home", load.home],
      ["plan step", load.plan],
    ].map(([name, result]) => ({
      measure: `p99 latency at 50 connections, ${name}`,
      now: `${Math.round(result.latencyMs.p99)} ms`,
      goal: "≤ 100 ms",
      met: result.latencyMs.p99 <= 100,
    })),
    ...growthGoals(growth),
    ...postgresGoals(load.postgres.sqlite, load.postgres.postgres),
    ...mailLinkGoals(mailLinks),
  ];
}

/**
 * The goal that a page mailing a link to a typed address tells nothing by its timing: the median answer for an
 * address that has an account within 1 ms of one that has none (also what `--only mail-links` prints).
 */
export function mailLinkGoals(mailLinks) {
  return mailLinks.map(({ page, knownMs, unknownMs, differenceMs }) => ({
    measure: `${page}: median answer, address with an account − without`,
    now: `${differenceMs.toFixed(2)} ms (${knownMs.toFixed(2)} − ${unknownMs.toFixed(2)})`,
    goal: "≤ 1 ms either way",
    met: Math.abs(differenceMs) <= 1,
  }));
}

/**
 * The goals of PostgreSQL's rows (two instances behind one port), as ratios, since absolute times differ
 * between machines: at least 60% of SQLite's requests per second, and a p99 within 3× its own p50.
 */
export function postgresGoals(sqlite, postgres) {
  return [
    ["/home", sqlite.home, postgres.home],
    ["plan step", sqlite.plan, postgres.plan],
  ].flatMap(([name, onSqlite, onPostgres]) => {
    const share = onPostgres.requestsPerSecond / onSqlite.requestsPerSecond;
    const spread = onPostgres.latencyMs.p99 / Math.max(onPostgres.latencyMs.p50, 1);
    return [
      {
        measure: `${name} on PostgreSQL, two instances: req/s ÷ SQLite's`,
        now: `${share.toFixed(2)} (${onPostgres.requestsPerSecond.toFixed(0)} ÷ ${onSqlite.requestsPerSecond.toFixed(0)})`,
        goal: "≥ 0.60",
        met: share >= 0.6,
      },
      {
        measure: `${name} on PostgreSQL: p99 ÷ p50`,
        now: `${spread.toFixed(1)} (${Math.round(onPostgres.latencyMs.p99)} ÷ ${Math.round(onPostgres.latencyMs.p50)} ms)`,
        goal: "≤ 3",
        met: spread <= 3,
      },
    ];
  });
}

/** The goal that pages do not grow with the account alone: each page's big ÷ demo beside its goal (also what `--only growth` prints). */
export function growthGoals(growth) {
  return growth.map(({ path, demo, big }) => ({
    measure: `${path} for the big account ÷ the demo account`,
    now: `${(big.medianMs / demo.medianMs).toFixed(2)} (${big.medianMs.toFixed(1)} ÷ ${demo.medianMs.toFixed(1)} ms)`,
    goal: "≤ 1.2",
    met: big.medianMs / demo.medianMs <= 1.2,
  }));
}
