import { db } from "~/server/platform/database/db.server";
import { env } from "~/server/platform/config/env.server";
import { observedCalls } from "~/server/platform/provider-calls.server";
import type { Fault } from "~/server/providers/faults.server";
import type { TaxIdCall, TaxIdRegister } from "./port.server";
import { clearTaxIdFaults, injectTaxIdFault } from "./simulator/faults.server";
import { createTaxIdSimulator } from "./simulator/simulator.server";
import { createViesRegister } from "./vies/adapter.server";

export * from "./errors.server";
export * from "./port.server";
export { SIMULATOR_NUMBERS } from "./simulator/simulator.server";

let register: TaxIdRegister | undefined;

/** The configured register (TAX_ID_PROVIDER): the embedded simulator unless the EU's VIES is chosen. */
export function getTaxIds(): TaxIdRegister {
  register ??=
    env.TAX_ID_PROVIDER === "vies"
      ? observedCalls("vies", createViesRegister({ baseUrl: env.VIES_URL }), { embedded: false })
      : observedCalls("tax-id-simulator", createTaxIdSimulator({ store: db }), { embedded: true });
  return register;
}

/** Fault injection into the simulator, for tests and demos (it has no effect on VIES). */
export const taxIdFaults = {
  inject: (call: TaxIdCall, fault: Fault) => injectTaxIdFault(db, call, fault),
  clear: () => clearTaxIdFaults(db),
};
