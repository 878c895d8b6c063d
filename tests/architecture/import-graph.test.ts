import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";

/**
 * The layers the code keeps, checked on its import graph (every import, type-only and dynamic ones included):
 * - db/ (schemas, migrations, their value types) imports nothing from app/;
 * - app/server is a floor and rooms on it:
 *   - platform/ holds the mechanisms that know no feature (the database and start-up, the job runner and progress
 *     page, the wizard kit and drafts, page delivery, configuration): it imports no port and no capability;
 *   - providers/ is what the ports share (error kinds, embedded-adapter helpers, faults, the embedded card vault):
 *     it imports the platform only;
 *   - a port (billing, cards, hubs, mail, tax-ids: an outside service with its adapters) imports no other port, and no
 *     capability: what uses two of them (replacing a card uses billing and cards) lives in a capability;
 *   - a capability (every other folder: accounts, orders, subscriptions, ...) holds one thing the portal does, and
 *     uses another capability only through what that one exports from its index.server.ts;
 *   - the files flat in app/server are the composition root (the start-up, the registries of job kinds and progress
 *     pages, the demo seed): they may import anything on the floor, and nothing on it imports them;
 * - no folder imports itself through others (a folder cycle: platform's folders, each port, provider and capability,
 *   the root, domain, ui and routes count as one folder each), and no module either (a cycle).
 */
const ROOT = path.resolve(__dirname, "../..");
const PORTS = ["billing", "cards", "hubs", "mail", "tax-ids"];
const FLOOR = ["platform", "providers"];
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

type Room =
  | { kind: "platform" | "providers" | "root" }
  | { kind: "port"; name: string }
  | { kind: "capability"; name: string; index: boolean };

/** Where a file of app/server stands; null outside it. */
export function roomOf(file: string): Room | null {
  if (!file.startsWith("app/server/")) return null;
  const [first, ...rest] = file.slice("app/server/".length).split("/");
  if (rest.length === 0) return { kind: "root" };
  if (first === "platform" || first === "providers") return { kind: first };
  if (PORTS.includes(first)) return { kind: "port", name: first };
  return { kind: "capability", name: first, index: rest.join("/") === "index.server.ts" };
}

const nameOf = (room: Room) => ("name" in room ? room.name : room.kind);

/** Imports that cross a layer the wrong way: `from → to` with the rule they break. */
export function layerViolations(graph: Graph): string[] {
  const found: string[] = [];
  for (const [from, targets] of graph) {
    for (const to of targets) {
      const arrow = `${from} → ${to}`;
      if (from.startsWith("db/") && to.startsWith("app/")) found.push(`db imports app: ${arrow}`);
      const [source, target] = [roomOf(from), roomOf(to)];
      if (!source || !target || nameOf(source) === nameOf(target)) continue;
      if (target.kind === "root") found.push(`${nameOf(source)} imports the composition root: ${arrow}`);
      else if (source.kind === "platform" && target.kind !== "platform") {
        found.push(`platform imports ${target.kind === "capability" ? "a capability" : target.kind}: ${arrow}`);
      } else if (source.kind === "providers" && !FLOOR.includes(target.kind)) {
        found.push(`providers import ${target.kind === "port" ? "a port" : "a capability"}: ${arrow}`);
      } else if (source.kind === "port" && target.kind === "port") found.push(`port imports port: ${arrow}`);
      else if (source.kind === "port" && target.kind === "capability")
        found.push(`port imports a capability: ${arrow}`);
      else if (source.kind === "capability" && target.kind === "capability" && !target.index) {
        found.push(`capability reaches into another's internals: ${arrow}`);
      }
    }
  }
  return found;
}

/** The folder a file counts in for folder cycles: each platform folder, port, capability; the root; domain, ui, routes. */
export function folderOf(file: string): string | null {
  const parts = file.split("/");
  if (parts[0] !== "app" || parts.length < 3) return null;
  if (parts[1] !== "server") return `app/${parts[1]}`;
  if (parts.length === 3) return "app/server";
  if (parts[2] === "platform" && parts.length > 4) return `app/server/platform/${parts[3]}`;
  return `app/server/${parts[2]}`;
}

/** The graph of folders: one arrow where some file of one imports some file of another. */
export function folderGraph(graph: Graph): Graph {
  const folders: Graph = new Map();
  for (const [from, targets] of graph) {
    const source = folderOf(from);
    if (!source) continue;
    const arrows = new Set(folders.get(source) ?? []);
    for (const to of targets) {
      const target = folderOf(to);
      if (target && target !== source) arrows.add(target);
    }
    folders.set(source, [...arrows]);
  }
  return folders;
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
    expect(graph.get("app/server/boot.server.ts")).toContain("app/server/demo-seed.server.ts");
    expect(graph.get("db/billing-schema.ts")).toContain("db/billing-values.ts");
  });

  it("keeps the layers: db/ imports nothing from app/; the platform no port or capability; a port no other port; a capability another only through its index", () => {
    expect(layerViolations(graph)).toEqual([]);
  });

  it("has no cycle, of modules or of folders", () => {
    expect(cycles(graph)).toEqual([]);
    expect(cycles(folderGraph(graph))).toEqual([]);
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

  it("would catch the platform importing a capability or a port, and a capability reaching into another's internals", () => {
    const broken: Graph = new Map([
      ["app/server/platform/jobs/runner.server.ts", ["app/server/accounts/activity.server.ts"]],
      ["app/server/platform/wizards/kit.server.ts", ["app/server/billing/index.server.ts"]],
      ["app/server/providers/faults.server.ts", ["app/server/cards/port.server.ts"]],
      ["app/server/mail/index.server.ts", ["app/server/accounts/index.server.ts"]],
      [
        "app/server/orders/placing.server.ts",
        [
          "app/server/accounts/index.server.ts",
          "app/server/accounts/activity.server.ts",
          "app/server/orders/x.server.ts",
        ],
      ],
      ["app/server/trials/trial-job.server.ts", ["app/server/job-kinds.server.ts"]],
      ["app/server/job-kinds.server.ts", ["app/server/trials/trial-job.server.ts"]],
    ]);
    expect(layerViolations(broken)).toEqual([
      "platform imports a capability: app/server/platform/jobs/runner.server.ts → app/server/accounts/activity.server.ts",
      "platform imports port: app/server/platform/wizards/kit.server.ts → app/server/billing/index.server.ts",
      "providers import a port: app/server/providers/faults.server.ts → app/server/cards/port.server.ts",
      "port imports a capability: app/server/mail/index.server.ts → app/server/accounts/index.server.ts",
      "capability reaches into another's internals: app/server/orders/placing.server.ts → app/server/accounts/activity.server.ts",
      "trials imports the composition root: app/server/trials/trial-job.server.ts → app/server/job-kinds.server.ts",
    ]);
  });

  it("would catch a cycle of folders whose files form no cycle", () => {
    const broken: Graph = new Map([
      ["app/server/platform/secrets.server.ts", ["app/server/platform/database/dialect.server.ts"]],
      ["app/server/platform/database/tables.server.ts", ["app/server/platform/secrets.server.ts"]],
      ["app/server/orders/a.server.ts", ["app/server/trials/index.server.ts"]],
      ["app/server/trials/b.server.ts", ["app/server/orders/index.server.ts"]],
      ["app/server/trials/index.server.ts", []],
      ["app/server/orders/index.server.ts", []],
    ]);
    expect(cycles(broken)).toEqual([]);
    expect(cycles(folderGraph(broken)).sort()).toEqual([
      ["app/server/orders", "app/server/trials"],
      ["app/server/platform", "app/server/platform/database"],
    ]);
  });
});
