import { createHttpHubs } from "~/server/hubs/http/adapter.server";
import { startHubSimServer } from "~/server/hubs/simulator/server.server";
import { HOST, hubContract } from "./contract";

/**
 * The HTTP adapter against the simulator's standalone server (what `npm run hub-sim` runs) over loopback.
 * No retries here, so a fault armed once shows as it does in process; the adapter's own tests cover retries.
 */
hubContract("http adapter", async (simulator) => {
  const server = await startHubSimServer({ hubs: simulator, token: "contract-token" });
  const hubs = createHttpHubs({
    baseUrl: server.url,
    token: "contract-token",
    host: HOST,
    timeoutMs: 4_000,
    retries: 0,
  });
  return { hubs, close: () => server.close() };
});
