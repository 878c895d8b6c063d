import { execFileSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import remixConfig from "../../remix.config.js";

/**
 * The server build (ES modules) leaves the packages the app imports to Node, but for those remix.config.js bundles:
 * each must then resolve under Node's ES module rules, which take no directory (`pkg/sub` without an exports map)
 * and no file without its extension. One that does not stops the built portal at start-up.
 */

function sourceFiles(directory: string): string[] {
  return readdirSync(directory, { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(directory, entry.name);
    if (entry.isDirectory()) return sourceFiles(file);
    return /\.tsx?$/.test(entry.name) ? [file] : [];
  });
}

/** The prefixes of tsconfig's path aliases (`@mantine-parts/`), which the build resolves itself. */
const aliases = Object.keys(
  (JSON.parse(readFileSync("tsconfig.json", "utf8")) as { compilerOptions: { paths: Record<string, string[]> } })
    .compilerOptions.paths,
).map((alias) => alias.replace(/\*$/, ""));

/** The packages the app imports at run time (type-only imports leave nothing in the build). */
function packageImports(): string[] {
  const found = new Set<string>();
  for (const file of sourceFiles("app")) {
    for (const [, typeOnly, specifier] of readFileSync(file, "utf8").matchAll(
      /^import (type )?[^;]*? from "([^".~][^"]*)";/gms,
    )) {
      const aliased = aliases.some((alias) => specifier.startsWith(alias));
      if (!typeOnly && !aliased && !specifier.startsWith("node:")) found.add(specifier);
    }
  }
  return [...found].sort();
}

const bundled = (specifier: string) =>
  (remixConfig.serverDependenciesToBundle as RegExp[]).some((pattern) => pattern.test(specifier));

describe("the server build's imports", () => {
  it("resolve under Node's ES module rules, or are bundled", () => {
    const left = packageImports().filter((specifier) => !bundled(specifier));
    expect(left.length).toBeGreaterThan(10);
    // A module in the project's root resolves as the built server (build/index.js) does.
    // import.meta.resolve names a directory or a file without its extension all the same: importing it then fails.
    const script = `import { statSync } from "node:fs";
const failed = [];
for (const specifier of ${JSON.stringify(left)}) {
  try {
    const url = new URL(import.meta.resolve(specifier));
    if (url.protocol === "file:" && !statSync(url, { throwIfNoEntry: false })?.isFile()) failed.push(specifier + ": not a file");
  } catch (error) { failed.push(specifier + ": " + error.code); }
}
console.log(JSON.stringify(failed));`;
    const output = execFileSync(process.execPath, ["--input-type=module", "-e", script], { encoding: "utf8" });
    expect(JSON.parse(output)).toEqual([]);
  });
});
