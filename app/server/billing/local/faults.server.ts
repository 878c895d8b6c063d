import { eq, sql } from "drizzle-orm";
import type { EmbeddedStore } from "~/server/providers/embedded.server";
import { armedFault, due, spendOne, withFaults as withHooks, type Fault } from "~/server/providers/faults.server";
import { billingFaults } from "~/server/platform/database/tables.server";
import { BillingError } from "../errors.server";
import type { BillingCall } from "../port.server";

/** Fault injection for the embedded engine: the billing_faults table (see providers/faults.server). */
export type { Fault };

export const TIMEOUT_MESSAGE = "The billing provider did not answer in time.";

export async function injectBillingFault(store: EmbeddedStore, call: BillingCall, fault: Fault): Promise<void> {
  const row = {
    call,
    ...armedFault(fault, "fail", { timeout: TIMEOUT_MESSAGE, refusal: "The billing provider refused the request." }),
  };
  await store.insert(billingFaults).values(row).onConflictDoUpdate({ target: billingFaults.call, set: row });
}

export async function clearBillingFaults(store: EmbeddedStore): Promise<void> {
  await store.delete(billingFaults);
}

/**
 * Calls no fault is armed for: reading the engine's clock, which stands for time itself (Chargebee's time is not
 * a call the portal makes) and which every page judging a license's dates asks, in one read.
 */
const UNFAULTED = new Set(["clockNow"]);

/** The provider with every call but UNFAULTED passing the fault check. */
export function withFaults<T extends object>(provider: T, store: EmbeddedStore): T {
  // Every call of the engine looks for its fault: one prepared statement, not a query built each time.
  const faultOf = store
    .select()
    .from(billingFaults)
    .where(eq(billingFaults.call, sql.placeholder("call")))
    .prepare("billing_fault_of_call");
  return withHooks(provider, {
    arm: async (call) => {
      if (UNFAULTED.has(call)) return null;
      const [fault] = await faultOf.execute({ call });
      return due(fault, () => spendOne(store, billingFaults, call));
    },
    error: (message, details) => new BillingError(message, details),
  });
}
