import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

/**
 * The Docker image's runtime stage copies what the server needs by name, and CI cannot run a container: a
 * module the server loads at run time but the image leaves out (scripts/remix-adapter.mjs once was) stops the
 * container at start. This follows the server's own imports from its entry points and checks each against
 * what the runtime stage copies, and that every package they import survives `npm prune --omit=dev`.
 */
const ROOT = path.resolve(__dirname, "../..");
const read = (file: string) => readFileSync(path.join(ROOT, file), "utf8");

/** The sources the Dockerfile's last stage copies from the build stage, relative to /app. */
export function runtimeCopies(dockerfile: string): string[] {
  const stages = dockerfile.split(/^FROM /m);
  const runtime = stages[stages.length - 1];
  return [...runtime.matchAll(/^COPY\s+--from=build\s+(.+)$/gm)].flatMap((match) => {
    const words = match[1].trim().split(/\s+/);
    return words.slice(0, -1).map((source) => path.posix.relative("/app", source));
  });
}

/** Whether a file (relative to the repository) is inside one of the copied paths. */
export const isCopied = (copies: string[], file: string) =>
  copies.some((copy) => file === copy || file.startsWith(`${copy}/`));

/** What a script loads: relative modules (static or dynamic imports, and the cluster worker's entry) and packages. */
export function loadsOf(source: string): { files: string[]; packages: string[] } {
  const specifiers = [
    ...source.matchAll(/^\s*(?:import|export)\s[^;]*?\sfrom\s+["']([^"']+)["']/gm),
    ...source.matchAll(/^\s*import\s+["']([^"']+)["']/gm),
    ...source.matchAll(/\bimport\(\s*["']([^"']+)["']\s*\)/g),
  ].map((match) => match[1]);
  // A script started by path rather than imported (the cluster's worker entry): path.join(ROOT, "scripts/x.mjs").
  const started = [...source.matchAll(/path\.join\(ROOT,\s*["']([^"']+\.m?js)["']\)/g)].map((match) => `/${match[1]}`);
  return {
    files: [...specifiers.filter((specifier) => specifier.startsWith(".")), ...started],
    packages: specifiers
      .filter((specifier) => !specifier.startsWith(".") && !specifier.startsWith("node:"))
      .map((specifier) =>
        specifier
          .split("/")
          .slice(0, specifier.startsWith("@") ? 2 : 1)
          .join("/"),
      ),
  };
}

/** Every script reachable from the entry points, and every package those scripts import. */
export function serverRuntime(entries: string[], readFile: (file: string) => string) {
  const files = new Set<string>();
  const packages = new Set<string>();
  const queue = [...entries];
  while (queue.length > 0) {
    const file = queue.shift()!;
    if (files.has(file)) continue;
    files.add(file);
    const loads = loadsOf(readFile(file));
    loads.packages.forEach((name) => packages.add(name));
    for (const target of loads.files) {
      queue.push(target.startsWith("/") ? target.slice(1) : path.posix.join(path.posix.dirname(file), target));
    }
  }
  return { files: [...files], packages: [...packages] };
}

/** Files the server reads from its working directory at run time, besides the modules it imports. */
const READ_AT_RUN_TIME = ["build/index.js", "build/migrate.js", "build/page-scripts.json", "public", "db/migrations"];

describe("the Docker image's runtime stage", () => {
  const dockerfile = read("Dockerfile");
  const copies = runtimeCopies(dockerfile);
  const command = /^CMD \["node", "([^"]+)"\]/m.exec(dockerfile)?.[1];
  const runtime = serverRuntime([command ?? "scripts/start.mjs"], read);

  it("starts the server from a script it copies", () => {
    expect(command).toBe("scripts/start.mjs");
    expect(runtime.files).toEqual(
      expect.arrayContaining(["scripts/start.mjs", "scripts/server.mjs", "scripts/remix-adapter.mjs"]),
    );
  });

  it("copies every script the server loads at run time", () => {
    expect(runtime.files.filter((file) => !existsSync(path.join(ROOT, file)))).toEqual([]);
    expect(runtime.files.filter((file) => !isCopied(copies, file))).toEqual([]);
  });

  it("copies only sources that exist (a COPY of a missing file fails the image's build)", () => {
    // build/ and node_modules/ are made in the build stage; everything else comes from the repository.
    const fromRepository = copies.filter((copy) => !/^(build|node_modules)(\/|$)/.test(copy));
    expect(fromRepository.filter((copy) => !existsSync(path.join(ROOT, copy)))).toEqual([]);
  });

  it("copies what the server reads from its working directory", () => {
    expect(READ_AT_RUN_TIME.filter((file) => !isCopied(copies, file))).toEqual([]);
    // Each of those paths is one the server code names.
    const server =
      read("scripts/server.mjs") +
      read("app/server/platform/database/sqlite.server.ts") +
      read("app/server/platform/delivery/page-scripts.server.ts");
    expect(server).toContain('"db", "migrations"');
    expect(server).toContain('"build", "page-scripts.json"');
  });

  it("can run `npm run migrate` (the database prepared without serving) from what it copies", () => {
    const { scripts } = JSON.parse(read("package.json")) as { scripts: Record<string, string> };
    expect(scripts.migrate).toBe("node scripts/migrate.mjs");
    const migrate = serverRuntime(["scripts/migrate.mjs"], read);
    expect(migrate.files.filter((file) => !isCopied(copies, file))).toEqual([]);
    const { dependencies } = JSON.parse(read("package.json")) as { dependencies: Record<string, string> };
    expect(migrate.packages.filter((name) => !(name in dependencies))).toEqual([]);
    expect(read("scripts/migrate.mjs")).toContain('"build/migrate.js"');
    // The bundle leaves packages as imports only when they are dependencies, which the pruned image keeps.
    expect(read("scripts/build-migrate.mjs")).toContain("external: Object.keys(dependencies)");
  });

  it("keeps every package the scripts import after dev dependencies are pruned", () => {
    const { dependencies } = JSON.parse(read("package.json")) as { dependencies: Record<string, string> };
    expect(runtime.packages.filter((name) => !(name in dependencies))).toEqual([]);
  });

  it("would catch a script that is imported but not copied", () => {
    const scripts: Record<string, string> = {
      "scripts/start.mjs": 'const ROOT = "/"; export const ENTRY = path.join(ROOT, "scripts/server.mjs");',
      "scripts/server.mjs":
        'import { a } from "./adapter.mjs";\nimport express from "express";\nconst b = await import("./late.mjs");',
      "scripts/adapter.mjs": 'import proxyaddr from "proxy-addr";',
      "scripts/late.mjs": "",
    };
    const found = serverRuntime(["scripts/start.mjs"], (file) => scripts[file]);
    expect(found.files.sort()).toEqual(Object.keys(scripts).sort());
    expect(found.packages.sort()).toEqual(["express", "proxy-addr"]);
    const copied = runtimeCopies(
      "FROM x AS build\nFROM y\nCOPY --from=build /app/scripts/start.mjs /app/scripts/server.mjs ./scripts/\n",
    );
    expect(found.files.filter((file) => !isCopied(copied, file))).toEqual(["scripts/adapter.mjs", "scripts/late.mjs"]);
  });
});
