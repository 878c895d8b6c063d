import { spawn } from "node:child_process";
import { once } from "node:events";
import { createServer } from "node:net";
import { ConfigError, parseEnv } from "~/server/platform/config/env.server";
import { db } from "~/server/platform/database/db.server";
import { createHttpHubs } from "~/server/hubs/http/adapter.server";
import { clearHubFaults, injectHubFault } from "~/server/hubs/simulator/faults.server";
import { startHubSimServer, type RunningHubSim } from "~/server/hubs/simulator/server.server";
import { createHubSimulator } from "~/server/hubs/simulator/simulator.server";

/** What only the HTTP adapter does: retries for repeatable calls, no retry for the others, token and network failures. */
describe("Hub service HTTP adapter", () => {
  const simulator = createHubSimulator({ store: db, host: "hub.adapter.test" });
  let server: RunningHubSim;
  const adapter = (options: { token?: string; baseUrl?: string } = {}) =>
    createHttpHubs({
      baseUrl: server.url,
      token: "adapter-token",
      host: "hub.adapter.test",
      timeoutMs: 10_000,
      backoffMs: 1,
      ...options,
    });

  beforeAll(async () => {
    server = await startHubSimServer({ hubs: simulator, token: "adapter-token" });
  });
  afterAll(async () => {
    await server.close();
  });
  beforeEach(() => clearHubFaults(db));

  it("retries a repeatable call after a retryable or unknown failure, up to its limit", async () => {
    await injectHubFault(db, "checkDomain", { kind: "retryable", times: 2 });
    expect(await adapter().checkDomain("adapter-one")).toBe("available");
    await injectHubFault(db, "checkDomain", { kind: "unknown", times: 3 });
    await expect(adapter().checkDomain("adapter-one")).rejects.toMatchObject({ kind: "unknown" });
  });

  it("does not retry a final refusal", async () => {
    await injectHubFault(db, "registerTenant", { times: 1, message: "No." });
    await expect(adapter().registerTenant("hub_x")).rejects.toMatchObject({ kind: "final", providerMessage: "No." });
  });

  it("tries create tenant once, and a repeat with the same key returns the same tenant", async () => {
    await injectHubFault(db, "createTenant", { kind: "retryable" });
    const request = {
      customerId: "cus-a",
      subdomain: "adapter-two",
      region: "US",
      idempotencyKey: "key-adapter-two",
    } as const;
    await expect(adapter().createTenant(request)).rejects.toMatchObject({ kind: "retryable", code: "injected_fault" });
    const first = await adapter().createTenant(request);
    expect((await adapter().createTenant(request)).hubId).toBe(first.hubId);
  });

  it("treats a refused token as final, without showing the service's message", async () => {
    await expect(adapter({ token: "wrong" }).checkDomain("adapter-three")).rejects.toMatchObject({
      kind: "final",
      code: "unauthorized",
      providerMessage: undefined,
    });
  });

  it("calls a service that cannot be reached retryable: nothing happened", async () => {
    const closed = await freePort();
    await expect(
      adapter({ baseUrl: `http://127.0.0.1:${closed}` }).createTenant({
        customerId: "cus-a",
        subdomain: "adapter-four",
        region: "US",
        idempotencyKey: "key-adapter-four",
      }),
    ).rejects.toMatchObject({ kind: "retryable", code: "network" });
  });
});

describe("Hub service configuration", () => {
  it("uses the simulator by default and the HTTP service only with its URL and token", () => {
    expect(parseEnv({})).toMatchObject({ HUB_PROVIDER: "local", HUB_HOST: "hub.gatekeeper.example" });
    const http = { HUB_PROVIDER: "http", HUB_SERVICE_URL: "https://hubs.example.com", HUB_SERVICE_TOKEN: "t" };
    expect(parseEnv(http)).toMatchObject(http);
    expect(() => parseEnv({ ...http, HUB_SERVICE_TOKEN: "" })).toThrowError(
      new ConfigError("HUB_SERVICE_TOKEN is required when HUB_PROVIDER=http"),
    );
    expect(() => parseEnv({ ...http, HUB_SERVICE_URL: "hubs" })).toThrowError(
      /^HUB_SERVICE_URL must be the Hub service's URL/,
    );
    expect(() => parseEnv({ HUB_PROVIDER: "cloud" })).toThrowError(
      new ConfigError("HUB_PROVIDER must be local or http"),
    );
    expect(() => parseEnv({ HUB_HOST: "https://hub.example" })).toThrowError(/^HUB_HOST must be a host name/);
  });
});

describe("npm run hub-sim", () => {
  it("serves the Hub service API that the HTTP adapter speaks", async () => {
    const port = await freePort();
    // What `npm run hub-sim` runs, in this process's own child (npx or npm would leave it orphaned on kill).
    const child = spawn(process.execPath, ["--import", "tsx", "scripts/hub-sim.ts"], {
      env: {
        ...process.env,
        HUB_SIM_PORT: String(port),
        HUB_SERVICE_TOKEN: "sim-token",
        // The portal's test database serves as the simulator's own: it is on the portal's engine, and migrated.
        HUB_SIM_DATABASE_URL: process.env.DATABASE_URL,
      },
      stdio: ["ignore", "pipe", "pipe"],
    });
    try {
      let output = "";
      child.stdout.setEncoding("utf8").on("data", (chunk: string) => (output += chunk));
      await vi.waitFor(() => expect(output).toContain(`listening on http://127.0.0.1:${port}`), {
        timeout: 30_000,
        interval: 100,
      });
      const hubs = createHttpHubs({
        baseUrl: `http://127.0.0.1:${port}`,
        token: "sim-token",
        host: "hub.gatekeeper.example",
      });
      expect(await hubs.checkDomain("standalone")).toBe("available");
    } finally {
      child.kill("SIGTERM");
      await once(child, "exit");
    }
  }, 60_000);
});

/** A port nothing listens on. */
async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
  const { port } = probe.address() as { port: number };
  await new Promise((resolve) => probe.close(resolve));
  return port;
}
