import { eq } from "drizzle-orm";
import type { EmbeddedStore } from "~/server/providers/embedded.server";
import { armedFault, due, spendOne, withFaults, type Fault } from "~/server/providers/faults.server";
import { taxIdFaults } from "~/server/platform/database/tables.server";
import { TaxIdError } from "../errors.server";
import type { TaxIdCall, TaxIdRegister } from "../port.server";

/**
 * Fault injection for the embedded register: the tax_id_faults table (see providers/faults.server). An
 * unavailable register is a `fail` fault of kind `retryable`, which is what arming one defaults to here.
 */
export async function injectTaxIdFault(store: EmbeddedStore, call: TaxIdCall, fault: Fault): Promise<void> {
  const row = {
    call,
    ...armedFault(
      { ...fault, kind: fault.kind ?? (fault.mode === undefined || fault.mode === "fail" ? "retryable" : undefined) },
      "fail",
      {
        timeout: "The register did not answer in time.",
        refusal: "The member state's register is not available (MS_UNAVAILABLE).",
      },
    ),
  };
  await store.insert(taxIdFaults).values(row).onConflictDoUpdate({ target: taxIdFaults.call, set: row });
}

export async function clearTaxIdFaults(store: EmbeddedStore): Promise<void> {
  await store.delete(taxIdFaults);
}

export function withTaxIdFaults(register: TaxIdRegister, store: EmbeddedStore): TaxIdRegister {
  return withFaults(register, {
    arm: async (call) => {
      const [fault] = await store.select().from(taxIdFaults).where(eq(taxIdFaults.call, call));
      return due(fault, () => spendOne(store, taxIdFaults, call));
    },
    error: (message, details) => new TaxIdError(message, details),
  });
}
