import { eq } from "drizzle-orm";
import type { EmbeddedStore } from "~/server/providers/embedded.server";
import {
  armedFault,
  due,
  spendOne,
  withFaults,
  type BaseFaultMode,
  type Fault,
} from "~/server/providers/faults.server";
import { hubFaults } from "~/server/platform/database/tables.server";
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

export async function injectHubFault(store: EmbeddedStore, call: HubCall, fault: HubFault): Promise<void> {
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
  await store.insert(hubFaults).values(row).onConflictDoUpdate({ target: hubFaults.call, set: row });
}

export async function clearHubFaults(store: EmbeddedStore): Promise<void> {
  await store.delete(hubFaults);
}

/** The service with every call passing the fault check. */
export function withHubFaults(hubs: HubService, store: EmbeddedStore): HubService {
  return withFaults<HubService, HubFaultMode>(hubs, {
    arm: async (call) => {
      const [fault] = await store.select().from(hubFaults).where(eq(hubFaults.call, call));
      return due(fault, () => spendOne(store, hubFaults, call));
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
