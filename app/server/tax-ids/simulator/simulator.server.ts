import { isEuCountry } from "~/domain/tax-ids";
import { wholeSeconds, type EmbeddedStore } from "~/server/providers/embedded.server";
import { registerUnavailable } from "../errors.server";
import type { TaxIdCheck, TaxIdNumber, TaxIdRegister } from "../port.server";
import { withTaxIdFaults } from "./faults.server";

/**
 * The embedded register: what VIES answers, for documented test numbers (each a well-formed German number, so it
 * passes the form's format check), in the spirit of VIES's own test service (100 valid, 200 invalid, 300
 * unavailable):
 * - DE100000008: valid, and the register discloses a name and an address;
 * - DE200000005: invalid (no such number is issued);
 * - DE300000002: the register is unavailable, every time;
 * - any other number of an EU member state: valid, without name or address (as many member states answer).
 * Numbers of the United Kingdom, Switzerland and Norway are not in VIES: not covered. An unavailable register
 * that comes back (the first check fails, the next one answers) is a fault armed in tax_id_faults.
 */
export const SIMULATOR_NUMBERS = {
  validWithDetails: "DE100000008",
  invalid: "DE200000005",
  unavailable: "DE300000002",
} as const;

/** What the register discloses of the documented valid number. */
export const SIMULATED_TRADER = { name: "Musterhaus GmbH", address: "Musterstraße 1\n10115 Berlin" } as const;

class SimulatedRegister implements TaxIdRegister {
  readonly name = "simulator";

  constructor(private readonly now: () => Date) {}

  async check({ country, vatNumber }: TaxIdNumber): Promise<TaxIdCheck> {
    if (!isEuCountry(country)) return { result: "not_covered" };
    const checkedAt = wholeSeconds(this.now());
    switch (vatNumber) {
      case SIMULATOR_NUMBERS.unavailable:
        throw registerUnavailable("The member state's register is not available (MS_UNAVAILABLE).", "MS_UNAVAILABLE");
      case SIMULATOR_NUMBERS.invalid:
        return { result: "invalid", checkedAt };
      case SIMULATOR_NUMBERS.validWithDetails:
        return { result: "valid", checkedAt, ...SIMULATED_TRADER, consultationNumber: null };
      default:
        return { result: "valid", checkedAt, name: null, address: null, consultationNumber: null };
    }
  }
}

/** The embedded register, with fault injection in front of its call; `now` is real time unless a test pins it. */
export function createTaxIdSimulator({
  store,
  now = () => new Date(),
}: {
  store: EmbeddedStore;
  now?: () => Date;
}): TaxIdRegister {
  return withTaxIdFaults(new SimulatedRegister(now), store);
}
