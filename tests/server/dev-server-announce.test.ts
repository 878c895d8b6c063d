import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, expect, it } from "vitest";

/**
 * In development (`npm run dev`) the server announces each build to `remix dev`. An announcement that fails (remix
 * dev out of reach, or a rebuild that cannot load) is logged and the server keeps serving: left unhandled, the
 * rejection would end the process, since Node exits on an unhandled rejection.
 */
const SERVER = path.resolve(__dirname, "../../scripts/server.mjs");
const scratch: string[] = [];
afterEach(() => {
  for (const folder of scratch.splice(0)) rmSync(folder, { recursive: true, force: true });
});

/** A port nothing listens on: taken from the OS, then let go. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

it("logs a failed announcement to remix dev and keeps serving", async () => {
  const folder = mkdtempSync(path.join(tmpdir(), "gk-dev-announce-"));
  scratch.push(folder);
  // The least of a Remix build the server reads before its first request: the app's start-up is its entry's.
  mkdirSync(path.join(folder, "build"));
  writeFileSync(
    path.join(folder, "build/index.js"),
    [
      "export const future = {};",
      'export const assets = { version: "1" };',
      "export const routes = {};",
      "const operations = { inRequest: (id, handle) => handle({ requestId: id }), requestDone() {},",
      "  metricsOnPortalPort: false, metricsAllowed: () => false, metrics: async () => '', metricsContentType: 'text/plain',",
      "  beginStop() {}, finishStop: async () => {} };",
      "export const entry = { module: { boot: async () => ({ publicOrigin: undefined, operations }) } };",
    ].join("\n"),
  );
  writeFileSync(path.join(folder, "build/version.txt"), "1");
  const [port, devPort] = [await closedPort(), await closedPort()];
  const child = spawn(process.execPath, [SERVER], {
    cwd: folder,
    env: {
      ...process.env,
      NODE_ENV: "development",
      PORT: String(port),
      HOST: "127.0.0.1",
      REMIX_DEV_ORIGIN: `http://127.0.0.1:${devPort}`,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stderr = "";
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  try {
    const logged = new Promise<void>((resolve) => {
      const look = () => stderr.includes("Could not announce the build to remix dev") && resolve();
      child.stderr.on("data", look);
    });
    // Either the failure is logged or the process ends; the process must still be running a second later.
    await Promise.race([logged, exited]);
    const stillRunning = await Promise.race([
      exited.then(() => false),
      new Promise<boolean>((resolve) => setTimeout(() => resolve(true), 1_000)),
    ]);
    expect({ stillRunning, stderr }).toMatchObject({ stillRunning: true });
    expect(stderr).toContain("Could not announce the build to remix dev");
  } finally {
    child.kill("SIGKILL");
    await exited;
  }
}, 60_000);
