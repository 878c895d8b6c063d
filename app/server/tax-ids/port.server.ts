/**
 * The tax-id port: asks the tax authority's register whether a VAT number is issued (the EU's VIES for the member
 * states), in the portal's terms. A check changes nothing anywhere, so it needs no idempotency key and is always
 * safe to repeat.
 *
 * The register's answer is `valid` (with the name and address it holds, when it discloses them) or `invalid`; a
 * country no register of the adapter covers is `not_covered`. A register that cannot answer now (down, busy,
 * timing out) fails with a TaxIdError of kind `retryable`: the number is then "not yet checked" and asked again
 * later. A request the register refuses as malformed fails with kind `final`, code `invalid_input`.
 */

export interface TaxIdNumber {
  /** ISO 3166-1 alpha-2 of the customer's country (GR for Greece, whose numbers are written EL). */
  country: string;
  /** The number in its one written form, with its prefix (app/domain/vat-format.ts `normalizeVatNumber`). */
  vatNumber: string;
}

export type TaxIdCheck =
  | {
      result: "valid";
      checkedAt: Date;
      /** What the register holds, when it discloses it (VIES writes "---" for what it does not). */
      name: string | null;
      address: string | null;
      /** The register's reference for this check (VIES's consultation number), when it gives one. */
      consultationNumber: string | null;
    }
  | { result: "invalid"; checkedAt: Date }
  | { result: "not_covered" };

export interface TaxIdRegister {
  readonly name: "simulator" | "vies";
  check(number: TaxIdNumber): Promise<TaxIdCheck>;
}

/** The names of the register's calls, e.g. for fault injection. */
export type TaxIdCall = Exclude<keyof TaxIdRegister, "name">;
