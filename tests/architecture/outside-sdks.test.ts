import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { onFirstUse } from "~/server/platform/on-first-use.server";

/**
 * The SDKs of outside services are imported where the portal first calls the service (onFirstUse,
 * app/server/platform/on-first-use.server.ts), never at the top of a module: loading them was a third of every
 * start's CPU, in portals on the embedded adapters too. Types may be imported anywhere.
 */
const ROOT = path.resolve(__dirname, "../..");
const SDKS = ["stripe", "chargebee", "nodemailer", "pdfkit"];
const STATIC_VALUE_IMPORT = new RegExp(`^import (?!type )[^;]*? from "(${SDKS.join("|")})";`, "gm");

function sourceFiles(directory: string): string[] {
  return readdirSync(directory).flatMap((name) => {
    const file = path.join(directory, name);
    if (statSync(file).isDirectory()) return sourceFiles(file);
    return /\.tsx?$/.test(name) ? [file] : [];
  });
}

/** The SDKs a module's source imports as values at its top. */
const staticImports = (source: string) => [...source.matchAll(STATIC_VALUE_IMPORT)].map((match) => match[1]);

describe("the outside services' SDKs", () => {
  it("are imported on first use only, in every module of the portal", () => {
    const offenders = sourceFiles(path.join(ROOT, "app")).flatMap((file) =>
      staticImports(readFileSync(file, "utf8")).map((sdk) => `${path.relative(ROOT, file)}: ${sdk}`),
    );
    expect(offenders).toEqual([]);
  });

  it("would catch a value import, default or named, and let a type import through", () => {
    expect(staticImports('import Stripe from "stripe";\nimport { x,\n  y } from "pdfkit";')).toEqual([
      "stripe",
      "pdfkit",
    ]);
    expect(staticImports('import type Chargebee from "chargebee";\nimport type { A } from "chargebee";')).toEqual([]);
  });
});

/** An SDK's loader whose import fails until `sdk.arrives` is set, counting its imports. */
function importThatFailsAtFirst() {
  const sdk = { imports: 0, arrives: false };
  const load = onFirstUse(async () => {
    sdk.imports += 1;
    if (!sdk.arrives) throw new Error("the chunk did not arrive");
    return "sdk";
  });
  return { sdk, load };
}

describe("onFirstUse", () => {
  it("imports once however many callers ask, and again after an import that failed", async () => {
    const { sdk, load } = importThatFailsAtFirst();
    await expect(load()).rejects.toThrow("the chunk did not arrive");
    sdk.arrives = true;
    expect(await Promise.all([load(), load(), load()])).toEqual(["sdk", "sdk", "sdk"]);
    expect(await load()).toBe("sdk");
    expect(sdk.imports).toBe(2);
  });

  it("preloads in the background: the first use finds the import made, and a preload that failed leaves it to that use", async () => {
    const { sdk, load } = importThatFailsAtFirst();
    load.preload();
    await new Promise((resolve) => setImmediate(resolve));
    expect(sdk.imports).toBe(1);
    sdk.arrives = true;
    load.preload();
    expect(await load()).toBe("sdk");
    expect(sdk.imports).toBe(2);
  });
});
