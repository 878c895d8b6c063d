import { spawnSync } from "node:child_process";
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import path from "node:path";
import type * as Router from "@remix-run/router";
import type * as StaticRouter from "react-router-dom/server";
import { describe, expect, it } from "vitest";

/**
 * The portal patches six packages (patches/, applied by patch-package on every install; docs/performance.md
 * lists what each buys). A patch that no longer applies must stop the install wherever it runs, the Docker
 * build included, and an upgrade of a patched package must be a deliberate change: these tests fail when
 * either is not so, and when a patch is not in the installed files.
 */
const ROOT = path.resolve(__dirname, "../..");
const PATCHES = path.join(ROOT, "patches");
const packageJson = JSON.parse(readFileSync(path.join(ROOT, "package.json"), "utf8")) as {
  scripts: Record<string, string>;
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
};
const lock = JSON.parse(readFileSync(path.join(ROOT, "package-lock.json"), "utf8")) as {
  packages: Record<string, { version?: string; dependencies?: Record<string, string> }>;
};

/** Each patch file: the package (`@scope+name+1.2.3.patch`), the version it was made for, and its diff. */
const patches = readdirSync(PATCHES)
  .filter((file) => file.endsWith(".patch"))
  .map((file) => {
    const [, name, version] = /^(.+)\+(\d+\.\d+\.\d+)\.patch$/.exec(file) ?? [];
    return { file, name: name.replace("+", "/"), version, diff: readFileSync(path.join(PATCHES, file), "utf8") };
  });

/** The lines a diff adds, by the file it adds them to. */
function addedLines(diff: string): Map<string, string[]> {
  const byFile = new Map<string, string[]>();
  let file = "";
  for (const line of diff.split("\n")) {
    if (line.startsWith("+++ b/")) {
      file = line.slice("+++ b/".length);
      byFile.set(file, []);
    } else if (line.startsWith("+") && line.slice(1).trim()) byFile.get(file)?.push(line.slice(1));
  }
  return byFile;
}

const EXACT = /^\d+\.\d+\.\d+$/;

describe("the patched packages", () => {
  it("are the six the documentation lists", () => {
    expect(patches.map((patch) => `${patch.name}@${patch.version}`).sort()).toEqual([
      "@remix-run/dev@2.17.5",
      "@remix-run/react@2.17.5",
      "@remix-run/router@1.23.3",
      "@remix-run/server-runtime@2.17.5",
      "react-router-dom@6.30.4",
      "remix-validated-form@5.1.7",
    ]);
  });

  it("are installed at the version each patch was made for, and the lockfile says so", () => {
    for (const patch of patches) {
      const installed = JSON.parse(readFileSync(path.join(ROOT, "node_modules", patch.name, "package.json"), "utf8"));
      expect(installed.version, patch.name).toBe(patch.version);
      expect(lock.packages[`node_modules/${patch.name}`]?.version, patch.name).toBe(patch.version);
    }
  });

  it("cannot move without a change to package.json: every package that brings one in asks for its exact version", () => {
    const declared = { ...packageJson.dependencies, ...packageJson.devDependencies };
    for (const patch of patches) {
      if (declared[patch.name]) expect(declared[patch.name], `package.json: ${patch.name}`).toMatch(EXACT);
      for (const [where, entry] of Object.entries(lock.packages)) {
        const wanted = entry.dependencies?.[patch.name];
        if (wanted) expect(wanted, `${where || "package.json"} asks for ${patch.name}`).toBe(patch.version);
      }
    }
  });

  it("pins exactly every package the portal reads private files or fields of (Mantine's class maps, node-postgres' connection for the statement pipelines) or whose markup it parses", () => {
    for (const name of [
      "pg",
      "@mantine/core",
      "@mantine/hooks",
      "@mantine/dates",
      "react",
      "react-dom",
      "@remix-run/node",
      "@remix-run/react",
      "@remix-run/dev",
    ]) {
      const declared = packageJson.dependencies[name] ?? packageJson.devDependencies[name];
      expect(declared, name).toMatch(EXACT);
    }
  });

  it("are applied: every line a patch adds is in the installed file", () => {
    for (const patch of patches) {
      for (const [file, lines] of addedLines(patch.diff)) {
        const installed = readFileSync(path.join(ROOT, file), "utf8");
        expect(
          lines.filter((line) => !installed.includes(line)),
          `${patch.file}: ${file}`,
        ).toEqual([]);
      }
    }
  });
});

describe("what the route-matching patches do (decision 110)", () => {
  const require = createRequire(path.join(ROOT, "package.json"));

  it("@remix-run/router matches a routes array against branches ranked once, and hands out copies", () => {
    const { matchRoutes } = require("@remix-run/router") as typeof Router;
    const routes = [{ id: "a", path: "/a" }];
    const first = matchRoutes(routes, "/a");
    // The tree changed in place after its branches were ranked: the cached branches still match /a.
    routes[0].path = "/b";
    const again = matchRoutes(routes, "/a");
    expect(again?.[0]?.route.id).toBe("a");
    expect(again).not.toBe(first);
    expect(again?.[0]).not.toBe(first?.[0]);
  });

  it("react-router-dom's static router converts a routes array to data routes once", () => {
    const { createStaticRouter } = require("react-router-dom/server.js") as typeof StaticRouter;
    const routes = [{ id: "root", path: "/" }];
    const context = {
      basename: "/",
      location: { pathname: "/", search: "", hash: "", state: null, key: "default" },
      matches: [],
      loaderData: {},
      actionData: null,
      errors: null,
      statusCode: 200,
      loaderHeaders: {},
      actionHeaders: {},
      activeDeferreds: null,
    };
    expect(createStaticRouter(routes, context).routes).toBe(createStaticRouter(routes, context).routes);
  });

  it("Remix's route discovery still reads the a[data-discover] links that ~/ui/link draws (decision 131)", () => {
    const fogOfWar = readFileSync(path.join(ROOT, "node_modules/@remix-run/react/dist/fog-of-war.js"), "utf8");
    expect(fogOfWar).toContain('querySelectorAll("a[data-discover], form[data-discover]")');
  });
});

describe("what the form patch does", () => {
  it("remix-validated-form checks nothing, and throws nothing, for a field that blurs before its form's store is registered", () => {
    for (const build of ["index.esm.js", "index.cjs.js"]) {
      const source = readFileSync(path.join(ROOT, "node_modules/remix-validated-form/dist", build), "utf8");
      expect(source, build).not.toContain("Validate called before form was initialized.");
      expect(source, build).toContain(
        "smartValidate: async () => ({ data: void 0, error: void 0, submittedData: {} }),",
      );
    }
  });
});

describe("a patch that no longer applies", () => {
  /** A scratch project with react-router-dom as installed and its patch broken, as a new release would break it. */
  function scratchWithBrokenPatch() {
    const scratch = mkdtempSync(path.join(tmpdir(), "gk-patch-"));
    const target = path.join(scratch, "node_modules", "react-router-dom");
    mkdirSync(target, { recursive: true });
    mkdirSync(path.join(scratch, "patches"));
    for (const file of ["package.json", "server.js"])
      copyFileSync(path.join(ROOT, "node_modules", "react-router-dom", file), path.join(target, file));
    writeFileSync(path.join(scratch, "package.json"), JSON.stringify({ name: "scratch", version: "1.0.0" }));
    const patch = readFileSync(path.join(PATCHES, "react-router-dom+6.30.4.patch"), "utf8");
    const broken = patch.replace(
      " function createStaticRouter(routes, context, opts = {}) {",
      " function createStaticRouter(routes, context, options = {}) {",
    );
    expect(broken).not.toBe(patch);
    writeFileSync(path.join(scratch, "patches", "react-router-dom+6.30.4.patch"), broken);
    return scratch;
  }

  /** Runs a patch-package command line in the scratch project outside CI and outside a test run, as the Dockerfile's `npm ci` runs it. */
  function run(command: string, cwd: string) {
    const [program, ...args] = command.split(" ");
    expect(program).toBe("patch-package");
    return spawnSync(process.execPath, [path.join(ROOT, "node_modules/patch-package/index.js"), ...args], {
      cwd,
      env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "", NODE_ENV: "development" },
      encoding: "utf8",
    });
  }

  it("fails the install's postinstall, even where CI is not set", () => {
    const result = run(packageJson.scripts.postinstall, scratchWithBrokenPatch());
    expect(result.status).toBe(1);
    expect(result.stdout + result.stderr).toContain("react-router-dom");
  });

  it("would only warn under a bare patch-package outside CI (why the postinstall asks for --error-on-fail)", () => {
    expect(run("patch-package", scratchWithBrokenPatch()).status).toBe(0);
  });
});

describe("the install scripts", () => {
  it("are each decided by name (allowScripts: true runs it, false skips it), so an npm that runs no unlisted script still builds the portal", () => {
    const withScripts = Object.entries(lock.packages as Record<string, { hasInstallScript?: boolean }>)
      .filter(([where, entry]) => where && entry.hasInstallScript)
      .map(([where]) => where.slice(where.lastIndexOf("node_modules/") + "node_modules/".length));
    const allowed = (packageJson as { allowScripts?: Record<string, boolean> }).allowScripts ?? {};
    expect([...new Set(withScripts)].filter((name) => typeof allowed[name] !== "boolean")).toEqual([]);
    // What compiles the portal's own pieces must run: the SQLite driver's binding and the build's bundler.
    expect(allowed).toMatchObject({ "better-sqlite3": true, esbuild: true });
  });
});
