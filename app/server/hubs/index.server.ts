import { db } from "~/server/platform/database/db.server";
import { env } from "~/server/platform/config/env.server";
import { createHttpHubs } from "./http/adapter.server";
import type { HubCall, HubService } from "./port.server";
import { observedCalls } from "~/server/platform/provider-calls.server";
import { clearHubFaults, injectHubFault, type HubFault } from "./simulator/faults.server";
import { createHubSimulator } from "./simulator/simulator.server";
import { simulatorStartupMs } from "./simulator/startup.server";

export * from "./errors.server";
export * from "./port.server";
export type { HubFault } from "./simulator/faults.server";

let service: HubService | undefined;

/** The configured Hub service (HUB_PROVIDER): the embedded simulator unless the real service is chosen. */
export function getHubs(): HubService {
  service ??=
    env.HUB_PROVIDER === "http"
      ? observedCalls("hub-service", createHttpHubs(httpOptions()), { embedded: false })
      : observedCalls(
          "hub-simulator",
          createHubSimulator({ store: db, host: env.HUB_HOST, startupMs: simulatorStartupMs() }),
          { embedded: true },
        );
  return service;
}

function httpOptions() {
  const { HUB_SERVICE_URL: baseUrl, HUB_SERVICE_TOKEN: token, HUB_HOST: host } = env;
  // env.server refuses to start without them when HUB_PROVIDER=http; this only satisfies the types.
  if (!baseUrl || !token) throw new Error("The Hub service is not configured.");
  return { baseUrl, token, host };
}

/** Fault injection into the simulator, for tests and demos (it has no effect on the real service). */
export const hubFaults = {
  inject: (call: HubCall, fault: HubFault) => injectHubFault(db, call, fault),
  clear: () => clearHubFaults(db),
};
