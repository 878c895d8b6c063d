import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";

/**
 * The layers the code keeps, checked on its import graph (every import, type-only and dynamic ones included):
 * - db/ (schemas, migrations, their value types) imports nothing from app/;
 * - a port (app/server/billing, cards, hubs, mail: each an outside service with its adapters) imports no other
 *   port: what uses two of them (replacing a card uses billing and cards) lives above them, and what they share
 *   lives in app/server/providers;
 * - no module imports itself through others (a cycle).
 */
const ROOT = path.resolve(__dirname, "../..");
const PORTS = ["billing", "cards", "hubs", "mail"];
const SOURCE = /\.(ts|tsx)$/;

type Graph = Map<string, string[]>;

function sourceFiles(directory: string): string[] {
  return readdirSync(path.join(ROOT, directory)).flatMap((name) => {
    const file = path.posix.join(directory, name);
    if (statSync(path.join(ROOT, file)).isDirectory()) return name === "migrations" ? [] : sourceFiles(file);
    return SOURCE.test(name) && !name.endsWith(".d.ts") ? [file] : [];
  });
}

/** The repository file an import names, or null for a package or a file that is not TypeScript (CSS, JSON). */
function resolve(from: string, specifier: string): string | null {
  let base: string;
  if (specifier.startsWith("~/")) base = path.posix.join("app", specifier.slice(2));
  else if (specifier.startsWith("~db/")) base = path.posix.join("db", specifier.slice(4));
  else if (specifier.startsWith(".")) base = path.posix.join(path.posix.dirname(from), specifier);
  else return null;
  for (const candidate of [`${base}.ts`, `${base}.tsx`, `${base}/index.ts`, `${base}/index.tsx`, base]) {
    if (SOURCE.test(candidate) && existsSync(path.join(ROOT, candidate))) return candidate;
  }
  return null;
}

function importGraph(directories: string[]): Graph {
  const graph: Graph = new Map();
  for (const file of directories.flatMap(sourceFiles)) {
    const { importedFiles } = ts.preProcessFile(readFileSync(path.join(ROOT, file), "utf8"), true, true);
    const targets = importedFiles.map((imported) => resolve(file, imported.fileName));
    graph.set(file, [...new Set(targets.filter((target): target is string => target !== null))]);
  }
  return graph;
}

const portOf = (file: string) => PORTS.find((port) => file.startsWith(`app/server/${port}/`)) ?? null;

/** Imports that cross a layer the wrong way: `from → to` with the rule they break. */
export function layerViolations(graph: Graph): string[] {
  const found: string[] = [];
  for (const [from, targets] of graph) {
    for (const to of targets) {
      if (from.startsWith("db/") && to.startsWith("app/")) found.push(`db imports app: ${from} → ${to}`);
      const [fromPort, toPort] = [portOf(from), portOf(to)];
      if (fromPort && toPort && fromPort !== toPort) found.push(`port imports port: ${from} → ${to}`);
    }
  }
  return found;
}

/** Every group of modules that import each other, round (Tarjan's strongly connected components). */
export function cycles(graph: Graph): string[][] {
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (node: string) => {
    index.set(node, counter);
    low.set(node, counter);
    counter += 1;
    stack.push(node);
    onStack.add(node);
    for (const next of graph.get(node) ?? []) {
      if (!index.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node)!, low.get(next)!));
      } else if (onStack.has(next)) low.set(node, Math.min(low.get(node)!, index.get(next)!));
    }
    if (low.get(node) === index.get(node)) {
      const component: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        component.push(member);
      } while (member !== node);
      if (component.length > 1 || graph.get(node)?.includes(node)) found.push(component.sort());
    }
  };
  for (const node of graph.keys()) if (!index.has(node)) visit(node);
  return found;
}

describe("the import graph of app/ and db/", () => {
  const graph = importGraph(["app", "db"]);

  it("is the whole code base (the resolver finds the imports it should)", () => {
    expect(graph.size).toBeGreaterThan(250);
    expect(graph.get("app/server/platform/database/db.server.ts")).toContain("app/server/demo-seed.server.ts");
    expect(graph.get("db/billing-schema.ts")).toContain("db/billing-values.ts");
  });

  it("has db/ import nothing from app/, and no port import another", () => {
    expect(layerViolations(graph)).toEqual([]);
  });

  it("has no cycle", () => {
    expect(cycles(graph)).toEqual([]);
  });

  it("would catch a db/ → app/ import, a port importing another port, and a cycle", () => {
    const broken: Graph = new Map([
      ["db/schema.ts", ["app/server/billing/port.server.ts"]],
      ["app/server/billing/port.server.ts", ["app/server/cards/port.server.ts"]],
      ["app/server/cards/port.server.ts", []],
      [
        "app/server/account-billing/payment-methods.server.ts",
        ["app/server/billing/port.server.ts", "app/server/cards/port.server.ts"],
      ],
      ["app/domain/a.ts", ["app/domain/b.ts"]],
      ["app/domain/b.ts", ["app/domain/c.ts"]],
      ["app/domain/c.ts", ["app/domain/a.ts"]],
    ]);
    expect(layerViolations(broken)).toEqual([
      "db imports app: db/schema.ts → app/server/billing/port.server.ts",
      "port imports port: app/server/billing/port.server.ts → app/server/cards/port.server.ts",
    ]);
    expect(cycles(broken)).toEqual([["app/domain/a.ts", "app/domain/b.ts", "app/domain/c.ts"]]);
  });
});
