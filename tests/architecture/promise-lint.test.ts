import { readFileSync } from "node:fs";
import path from "node:path";
import { ESLint } from "eslint";
import { expect, it } from "vitest";

/**
 * The lint's promise rules catch what the data layer depends on: a query builder nobody awaits (drizzle's
 * builders only implement Promise, so only `checkThenables` makes them count) and an async function where a
 * void callback or a React handler is expected. A promise in an `if` is TypeScript's own error (TS2801). The
 * fixtures are linted with the project's own configuration, on a small tsconfig of their own that loads in
 * seconds.
 */
const ROOT = path.resolve(__dirname, "../..");
const FIXTURES = "tests/fixtures/unawaited-promises";
const PROMISE_RULES = ["@typescript-eslint/no-floating-promises", "@typescript-eslint/no-misused-promises"];

/** The lines each fixture marks: the line after a "Reported:" comment. */
function markedLines(file: string): number[] {
  const lines = readFileSync(file, "utf8").split("\n");
  return lines.flatMap((line, index) => (/^\s*\/\/ Reported:/.test(line) ? [index + 2] : []));
}

it("reports every un-awaited query on either engine and every async function given where a void one is expected, and nothing else", async () => {
  // The fixtures are left out of `npm run lint` (they are wrong on purpose); this lints them alone.
  const eslint = new ESLint({ cwd: ROOT, ignore: false });
  const results = await eslint.lintFiles([FIXTURES]);
  expect(results.map((result) => path.relative(ROOT, result.filePath)).sort()).toEqual([
    `${FIXTURES}/handler.tsx`,
    `${FIXTURES}/queries.ts`,
  ]);
  for (const result of results) {
    const reported = result.messages.map((message) => ({ line: message.line, rule: message.ruleId }));
    expect(
      reported.every((message) => PROMISE_RULES.includes(message.rule ?? "")),
      result.filePath,
    ).toBe(true);
    expect(
      reported.map((message) => message.line),
      result.filePath,
    ).toEqual(markedLines(result.filePath));
  }
}, 120_000);
