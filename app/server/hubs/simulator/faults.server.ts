import { eq } from "drizzle-orm";
import type { EmbeddedStore } from "~/server/providers/embedded.server";
import { armedFault, due, withFaults, type BaseFaultMode, type Fault } from "~/server/providers/faults.server";
import { hubFaults } from "~/server/database/tables.server";
import { HubError } from "../errors.server";
import type { HubCall, HubService, Tenant } from "../port.server";

/**
 * Fault injection for the simulator: the hub_faults table (see providers/faults.server). Besides failing,
 * hanging and losing the answer, a call can answer "not ready": create tenant makes the Hub but reports it
 * neither ready nor running, sync tenant answers not ready, Hub state not started; any other call fails
 * as retryable.
 */
export type HubFaultMode = BaseFaultMode | "not_ready";
export type HubFault = Fault<HubFaultMode>;

export const HUB_TIMEOUT_MESSAGE = "The Hub service did not answer in time.";

export function injectHubFault(store: EmbeddedStore, call: HubCall, fault: HubFault): void {
  const notReady = fault.mode === "not_ready";
  const messages = {
    timeout: HUB_TIMEOUT_MESSAGE,
    refusal: notReady ? "The Hub is not ready yet." : "The Hub service refused the request.",
  };
  const row = {
    call,
    ...armedFault<HubFaultMode>(
      { ...fault, kind: fault.kind ?? (notReady ? "retryable" : undefined) },
      "fail",
      messages,
    ),
  };
  store.insert(hubFaults).values(row).onConflictDoUpdate({ target: hubFaults.call, set: row }).run();
}

export function clearHubFaults(store: EmbeddedStore): void {
  store.delete(hubFaults).run();
}

/** The service with every call passing the fault check. */
export function withHubFaults(hubs: HubService, store: EmbeddedStore): HubService {
  return withFaults<HubService, HubFaultMode>(hubs, {
    arm: (call) => {
      const fault = store.select().from(hubFaults).where(eq(hubFaults.call, call)).get();
      return due(fault, (remaining) =>
        store.update(hubFaults).set({ remaining }).where(eq(hubFaults.call, call)).run(),
      );
    },
    error: (message, details) => new HubError(message, details),
    other: async (fault, call, run) => {
      if (call === "syncTenant") return { ready: false };
      if (call === "startHub") return { running: false };
      if (call === "createTenant") return { ...((await run()) as Tenant), ready: false, running: false };
      throw new HubError(fault.message, { kind: fault.kind, providerMessage: fault.message, code: "not_ready" });
    },
  });
}
