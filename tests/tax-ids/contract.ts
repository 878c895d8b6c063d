import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { db } from "~/server/platform/database/db.server";
import type { TaxIdRegister } from "~/server/tax-ids/port.server";
import { clearTaxIdFaults, injectTaxIdFault } from "~/server/tax-ids/simulator/faults.server";
import { createTaxIdSimulator, SIMULATED_TRADER, SIMULATOR_NUMBERS } from "~/server/tax-ids/simulator/simulator.server";

/**
 * The tax-id port's behaviour contract, run against every adapter: the same numbers give the same answers, and an
 * unavailable register fails the same way (retryable). Each adapter's file wraps the simulator the suite makes.
 */
export interface ContractSubject {
  register: TaxIdRegister;
  close?: () => Promise<void>;
}

const NOW = new Date("2027-01-15T10:00:00Z");

export function taxIdContract(adapter: string, start: (simulator: TaxIdRegister) => Promise<ContractSubject>) {
  describe(`tax-id contract: ${adapter}`, () => {
    let subject: ContractSubject;
    let register: TaxIdRegister;

    beforeAll(async () => {
      subject = await start(createTaxIdSimulator({ store: db, now: () => NOW }));
      register = subject.register;
    });
    afterAll(async () => {
      await subject.close?.();
    });
    beforeEach(() => clearTaxIdFaults(db));

    it("finds a documented number valid, with the name and address the register discloses", async () => {
      expect(await register.check({ country: "DE", vatNumber: SIMULATOR_NUMBERS.validWithDetails })).toEqual({
        result: "valid",
        checkedAt: NOW,
        ...SIMULATED_TRADER,
        consultationNumber: null,
      });
    });

    it("finds another well-formed number valid, disclosing nothing", async () => {
      expect(await register.check({ country: "DE", vatNumber: "DE136695976" })).toEqual({
        result: "valid",
        checkedAt: NOW,
        name: null,
        address: null,
        consultationNumber: null,
      });
      expect(await register.check({ country: "GR", vatNumber: "EL094259216" })).toMatchObject({ result: "valid" });
    });

    it("finds the documented invalid number invalid", async () => {
      expect(await register.check({ country: "DE", vatNumber: SIMULATOR_NUMBERS.invalid })).toEqual({
        result: "invalid",
        checkedAt: NOW,
      });
    });

    it("fails as retryable while the register is unavailable, and answers once it is back", async () => {
      await expect(register.check({ country: "DE", vatNumber: SIMULATOR_NUMBERS.unavailable })).rejects.toMatchObject({
        kind: "retryable",
      });
      await injectTaxIdFault(db, "check", { times: "once" });
      await expect(register.check({ country: "DE", vatNumber: "DE136695976" })).rejects.toMatchObject({
        kind: "retryable",
      });
      expect(await register.check({ country: "DE", vatNumber: "DE136695976" })).toMatchObject({ result: "valid" });
    });

    it("covers no country outside the EU", async () => {
      expect(await register.check({ country: "GB", vatNumber: "GB980780684" })).toEqual({ result: "not_covered" });
      expect(await register.check({ country: "CH", vatNumber: "CHE100155212MWST" })).toEqual({ result: "not_covered" });
      expect(await register.check({ country: "NO", vatNumber: "NO974760673MVA" })).toEqual({ result: "not_covered" });
    });
  });
}
