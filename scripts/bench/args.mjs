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
 * The bench's command line: `--only <part>`, or `--against <git ref>` with `--seconds <turn length>` and
 * `--pages <path,path,…>` (repeatable). `against` is null without `--against`; the other two only go with it, and
 * `--only` never does, so that a mistyped run fails at once instead of after minutes of something else.
 */
export function benchArgs(args = process.argv.slice(2)) {
  const { values } = parseArgs({
    args,
    options: {
      only: { type: "string" },
      against: { type: "string" },
      seconds: { type: "string" },
      pages: { type: "string", multiple: true },
    },
  });
  if (values.only !== undefined && !PARTS.includes(values.only)) {
    throw new Error(`--only takes one of: ${PARTS.join(", ")}; got "${values.only}"`);
  }
  if (values.against === undefined) {
    const stray = ["seconds", "pages"].filter((name) => values[name] !== undefined);
    if (stray.length) {
      const named = stray.map((name) => `--${name}`).join(" and ");
      throw new Error(`${named} only ${stray.length === 1 ? "goes" : "go"} with --against`);
    }
    return { only: values.only, against: null };
  }
  if (values.only !== undefined) throw new Error("--against runs only its comparison: it takes no --only");
  const ref = values.against.trim();
  if (!ref) throw new Error("--against needs a git ref: a commit, a branch or a tag");
  return { only: undefined, against: { ref, seconds: turnSeconds(values.seconds), pages: pageList(values.pages) } };
}

function turnSeconds(value) {
  if (value === undefined) return AGAINST_SECONDS;
  const seconds = Number(value);
  if (value.trim() === "" || !Number.isInteger(seconds) || seconds < 1) {
    throw new Error(`--seconds takes a whole number of seconds, at least 1; got "${value}"`);
  }
  return seconds;
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
