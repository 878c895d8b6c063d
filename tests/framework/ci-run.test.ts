import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

/**
 * CI installs without install scripts and runs what they would have run itself, so that the native addon compiles
 * beside the checks (.ci/run says why); then it runs npm test's steps one by one. These fail when package.json
 * and .ci/run drift apart.
 */
const ROOT = path.resolve(__dirname, "../..");
const ci = readFileSync(path.join(ROOT, ".ci/run"), "utf8");
const packageJson = JSON.parse(readFileSync(path.join(ROOT, "package.json"), "utf8")) as {
  scripts: Record<string, string>;
  allowScripts: Record<string, boolean>;
};

/** The npm commands .ci/run runs, in order, each as written. */
const npmCommands = ci
  .split("\n")
  .map((line) => line.trim())
  .filter((line) => line.startsWith("npm "))
  .map((line) => line.split(" >")[0]);

describe(".ci/run", () => {
  it("runs npm test's steps, in npm test's order", () => {
    const steps = packageJson.scripts.test.split(" && ");
    expect(steps.every((step) => step.startsWith("npm run "))).toBe(true);
    expect(npmCommands.filter((command) => steps.includes(command))).toEqual(steps);
  });

  it("runs every install script the install left out: each package allowed one, and the portal's own postinstall", () => {
    expect(npmCommands[0]).toMatch(/^npm ci .*--ignore-scripts/);
    const allowed = Object.entries(packageJson.allowScripts)
      .filter(([, allow]) => allow)
      .map(([name]) => `npm rebuild ${name}`);
    expect(allowed.length).toBeGreaterThan(0);
    for (const rebuild of allowed) expect(npmCommands).toContain(rebuild);
    expect(npmCommands).toContain("npm run postinstall");
  });
});
