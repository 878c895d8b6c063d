import { execFile, spawn } from "node:child_process";
import { access, mkdtemp, open, readdir, readFile, realpath, rm, symlink } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";

const execFileAsync = promisify(execFile);

/** The output of `git …` in `cwd`, trimmed; rejects with git's own message when it fails. */
async function git(cwd, args) {
  const { stdout } = await execFileAsync("git", args, { cwd, encoding: "utf8" });
  return stdout.trim();
}

/** The commit `ref` names in the repository at `root`, in full, or an error that says it names none. */
export async function resolveCommit(root, ref) {
  try {
    return await git(root, ["rev-parse", "--verify", "--quiet", "--end-of-options", `${ref}^{commit}`]);
  } catch {
    throw new Error(`--against: "${ref}" names no commit in this repository`);
  }
}

/** The short hash of HEAD in `root`, and whether its working tree has changes of its own. */
export async function describeWorkingTree(root) {
  const [commit, status] = await Promise.all([
    git(root, ["rev-parse", "--short", "HEAD"]),
    git(root, ["status", "--porcelain", "--untracked-files=no"]),
  ]);
  return { commit, changed: status !== "" };
}

/** The bytes of every file directly in `dir` by name, or an empty map without the directory. */
async function filesIn(dir) {
  const names = await readdir(dir).catch((error) => (error.code === "ENOENT" ? [] : Promise.reject(error)));
  return new Map(await Promise.all(names.sort().map(async (name) => [name, await readFile(path.join(dir, name))])));
}

async function sameFiles(dirA, dirB) {
  const [a, b] = await Promise.all([filesIn(dirA), filesIn(dirB)]);
  return a.size === b.size && [...a].every(([name, bytes]) => b.get(name)?.equals(bytes));
}

/**
 * The commit `ref` names, built beside the working tree at `root`: a detached git worktree in a temporary directory,
 * node_modules as that commit would install them, and its own `npm run build`. When its package-lock.json and its
 * patches/ are those of `root`, `npm ci` would give what `root`'s node_modules already hold (the postinstall
 * patch-package applies the same patches), so they are linked in; otherwise its own `npm ci` installs them and
 * applies its own patches. The steps' output goes to a log whose end is shown when one fails.
 *
 * build() resolves to the worktree's directory, the commit, the seconds it took and whether it installed its own
 * node_modules. remove() ends a step under way, waits for build() to give up, and deletes the worktree and the
 * temporary directory. Hold on to remove() before building: it is to be called once done, on failure and on a
 * signal alike, and a signal may come while `npm ci` runs.
 */
export function scratchBuild(root, ref, { report = console.log } = {}) {
  let dir = null;
  let step = null;
  let building = null;
  let removed = null;

  function endStep() {
    if (!step) return;
    // The step runs in a process group of its own (npm's scripts start more processes): end it all.
    try {
      process.kill(-step.child.pid, "SIGTERM");
    } catch {
      // Already gone.
    }
  }

  function remove() {
    removed ??= (async () => {
      endStep();
      await building?.catch(() => {});
      if (!dir) return;
      // The worktree may be half made; git forgets it either way once its directory is gone and it is pruned.
      await git(root, ["worktree", "remove", "--force", path.join(dir, "portal")]).catch(() => {});
      await rm(dir, { recursive: true, force: true });
      await git(root, ["worktree", "prune"]).catch(() => {});
    })();
    return removed;
  }

  async function run(command, args, { cwd, env = process.env }) {
    if (removed) throw new Error(`the build of ${ref} was stopped`);
    const started = Date.now();
    const logFile = path.join(dir, "build.log");
    const log = await open(logFile, "a");
    await log.write(`\n$ ${command} ${args.join(" ")}\n`);
    const child = spawn(command, args, { cwd, env, stdio: ["ignore", log.fd, log.fd], detached: true });
    await log.close();
    const exited = new Promise((resolve) => child.once("close", (code, signal) => resolve({ code, signal })));
    step = { child };
    // remove() may have come while the step was being started.
    if (removed) endStep();
    const { code, signal } = await exited.finally(() => (step = null));
    if (code !== 0) {
      const tail = (await readFile(logFile, "utf8")).split("\n").slice(-30).join("\n");
      throw new Error(`\`${command} ${args.join(" ")}\` for ${ref} failed (${signal ?? code}); its log ends:\n${tail}`);
    }
    return Math.round((Date.now() - started) / 1000);
  }

  async function buildOnce() {
    const started = Date.now();
    const commit = await resolveCommit(root, ref);
    dir = await mkdtemp(path.join(tmpdir(), "gk-bench-against-"));
    const tree = path.join(dir, "portal");
    report(`Building ${ref} (${commit.slice(0, 7)}) in a scratch worktree, ${tree} …`);
    await run("git", ["worktree", "add", "--detach", tree, commit], { cwd: root });
    await access(path.join(tree, "scripts/start.mjs")).catch(() => {
      throw new Error(`${ref} has no scripts/start.mjs, which the bench starts each build with`);
    });
    const [sameLock, samePatches] = await Promise.all([
      readFile(path.join(root, "package-lock.json")).then(async (lock) =>
        lock.equals(await readFile(path.join(tree, "package-lock.json"))),
      ),
      sameFiles(path.join(root, "patches"), path.join(tree, "patches")),
    ]);
    const installed = !(sameLock && samePatches);
    if (installed) {
      report(`  npm ci: its ${sameLock ? "patches/" : "package-lock.json"} differs from the working tree's`);
      // Without dev dependencies there is no build: a NODE_ENV=production of the caller's would leave them out.
      // --prefer-offline: what the npm cache holds is not asked for again.
      const env = { ...process.env, NODE_ENV: undefined };
      const seconds = await run("npm", ["ci", "--prefer-offline"], { cwd: tree, env });
      report(`  installed in ${seconds} s`);
      // An older postinstall may only warn when a patch does not apply; patch-package leaves an applied patch alone
      // and fails on one that is not, so this makes sure the build runs on the patched packages.
      if ((await filesIn(path.join(tree, "patches"))).size) {
        await run("npx", ["--no-install", "patch-package", "--error-on-fail"], { cwd: tree });
      }
    } else {
      report("  the same package-lock.json and patches/ as the working tree: its node_modules are linked in");
      await symlink(await realpath(path.join(root, "node_modules")), path.join(tree, "node_modules"), "dir");
    }
    report("  npm run build");
    report(`  built in ${await run("npm", ["run", "build"], { cwd: tree })} s`);
    const seconds = Math.round((Date.now() - started) / 1000);
    return { root: tree, commit, seconds, installed };
  }

  return {
    build() {
      building ??= buildOnce();
      return building;
    },
    remove,
  };
}
