import path from "node:path";
import { ESLint } from "eslint";
import { expect, it } from "vitest";

/**
 * One clock rule: billing-dated code (subscriptions, orders, trials, cloud Hubs, license status, renewals) names
 * the clock it reads, the portal's (portalNow, which the time machine moves) or real time (realNow); a bare
 * `new Date()` or `Date.now()` there is a lint error, and elsewhere it is not. Linted as text under the paths it
 * would have, without type information (the rule needs none).
 */
const ROOT = path.resolve(__dirname, "../..");
const SOURCE = [
  "export const today = () => new Date();",
  "export const stamp = () => Date.now();",
  "export const parsed = () => new Date(0);",
  "",
].join("\n");

async function clockFindings(file: string) {
  const eslint = new ESLint({
    cwd: ROOT,
    overrideConfig: {
      languageOptions: { parserOptions: { projectService: false } },
      rules: { "@typescript-eslint/no-floating-promises": "off", "@typescript-eslint/no-misused-promises": "off" },
    },
  });
  const [result] = await eslint.lintText(SOURCE, { filePath: path.join(ROOT, file) });
  return result.messages.filter((message) => message.ruleId === "no-restricted-syntax").map((message) => message.line);
}

it("refuses new Date() and Date.now() in billing-dated code, and only there", async () => {
  for (const file of [
    "app/server/subscriptions/renewals-example.server.ts",
    "app/server/orders/example.server.ts",
    "app/server/trials/example.server.ts",
    "app/server/cloud-hubs/example.server.ts",
    "app/domain/license-status.ts",
    "app/domain/renewal-reminders.ts",
  ]) {
    expect(await clockFindings(file), file).toEqual([1, 2]);
  }
  expect(await clockFindings("app/server/platform/jobs/example.server.ts")).toEqual([]);
}, 60_000);
