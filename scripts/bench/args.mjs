import { parseArgs } from "node:util";
import { PLAN_STEP } from "./wizard.mjs";

/** The parts `--only` can pick; without it every part runs. */
export const PARTS = ["growth", "postgres", "mail-links"];

/** The signed-in pages `--against` measures on both builds, unless `--pages` names some. */
export const AGAINST_PAGES = [
  "/home",
  "/licenses",
  PLAN_STEP,
  "/hubs",
  "/account",
  "/account/invoices",
  "/account/team",
];

/** A turn's length in `--against`: four turns a page, and both builds steady to a few percent at this length. */
export const AGAINST_SECONDS = 8;

/**
 * How many times `--against` measures every page, in turns each time: a page's B ÷ A is its median round's. On a
 * shared 2-core machine one round of the same build against itself gave a page 0.87 as often as not; a slow minute
 * falls on one round of a page, not on its median.
 */
export const AGAINST_ROUNDS = 3;

/** What `--help` prints, and what follows a mistyped command line's message. */
export const USAGE = `Usage: npm run bench [-- <options>]

  (no options)              every part, then the performance goals beside this run's figures
  --only <part>             one part: ${PARTS.join(", ")}
  --against <git ref>       this working tree's build (B) beside the ref's (A), page by page, nothing else
    --seconds <n>           a turn's length (default ${AGAINST_SECONDS})
    --rounds <n>            how many times every page is measured (default ${AGAINST_ROUNDS})
    --pages <path,path,…>   the pages (default ${AGAINST_PAGES.join(", ")})
  --help                    this text

docs/bench.md says what each part measures.`;

/** A command line the bench cannot run: its message is printed with the usage, without a stack. */
export class BenchUsageError extends Error {}

/**
 * The bench's command line: `--only <part>`, or `--against <git ref>` with `--seconds <turn length>`,
 * `--rounds <how many>` and `--pages <path,path,…>` (repeatable). `against` is null without `--against`; the
 * others only go with it, and
 * `--only` never does, so that a mistyped run fails at once instead of after minutes of something else.
 */
export function benchArgs(args = process.argv.slice(2)) {
  try {
    return readArgs(args);
  } catch (error) {
    // parseArgs' own errors (an unknown option, a missing value) read as plainly as the checks below.
    throw error instanceof Error ? new BenchUsageError(error.message) : error;
  }
}

function readArgs(args) {
  const { values } = parseArgs({
    args,
    options: {
      only: { type: "string" },
      against: { type: "string" },
      seconds: { type: "string" },
      rounds: { type: "string" },
      pages: { type: "string", multiple: true },
      help: { type: "boolean" },
    },
  });
  if (values.help) return { help: true, only: undefined, against: null };
  if (values.only !== undefined && !PARTS.includes(values.only)) {
    throw new Error(`--only takes one of: ${PARTS.join(", ")}; got "${values.only}"`);
  }
  if (values.against === undefined) {
    const stray = ["seconds", "rounds", "pages"].filter((name) => values[name] !== undefined);
    if (stray.length) {
      const named = stray.map((name) => `--${name}`).join(" and ");
      throw new Error(`${named} only ${stray.length === 1 ? "goes" : "go"} with --against`);
    }
    return { only: values.only, against: null };
  }
  if (values.only !== undefined) throw new Error("--against runs only its comparison: it takes no --only");
  const ref = values.against.trim();
  if (!ref) throw new Error("--against needs a git ref: a commit, a branch or a tag");
  return {
    only: undefined,
    against: {
      ref,
      seconds: wholeNumber("--seconds", "seconds", values.seconds, AGAINST_SECONDS),
      rounds: wholeNumber("--rounds", "rounds", values.rounds, AGAINST_ROUNDS),
      pages: pageList(values.pages),
    },
  };
}

/** An option's whole number, at least 1, or its default when the option is not given. */
function wholeNumber(option, unit, value, byDefault) {
  if (value === undefined) return byDefault;
  const number = Number(value);
  if (value.trim() === "" || !Number.isInteger(number) || number < 1) {
    throw new Error(`${option} takes a whole number of ${unit}, at least 1; got "${value}"`);
  }
  return number;
}

function pageList(values) {
  if (values === undefined) return AGAINST_PAGES;
  const pages = [...new Set(values.flatMap((value) => value.split(",")).map((page) => page.trim()))].filter(Boolean);
  const bad = pages.filter((page) => !page.startsWith("/"));
  if (!pages.length || bad.length) {
    throw new Error(`--pages takes paths starting with "/", separated by commas; got "${values.join(",")}"`);
  }
  return pages;
}
