/**
 * VAT numbers of the customers the portal bills: which countries have them, how they are written, what their
 * check with the tax authority's register said, and when an invoice carries the EU's reverse-charge note. Pure
 * and free of the format library, so pages and the invoice renderer read it without loading the check itself
 * (./vat-format).
 */

import type { TAX_ID_STATUSES } from "~db/schema";

/** The EU's member states (ISO 3166-1 alpha-2), whose VAT numbers the EU's register (VIES) answers for. */
export const EU_COUNTRIES = [
  "AT",
  "BE",
  "BG",
  "CY",
  "CZ",
  "DE",
  "DK",
  "EE",
  "ES",
  "FI",
  "FR",
  "GR",
  "HR",
  "HU",
  "IE",
  "IT",
  "LT",
  "LU",
  "LV",
  "MT",
  "NL",
  "PL",
  "PT",
  "RO",
  "SE",
  "SI",
  "SK",
] as const;

/** Countries whose customers may give a VAT number: the EU, the United Kingdom, Switzerland and Norway. */
export const VAT_COUNTRIES: readonly string[] = [...EU_COUNTRIES, "GB", "CH", "NO"];

export const hasVatNumbers = (country: string | null | undefined) =>
  Boolean(country) && VAT_COUNTRIES.includes(country!.toUpperCase());

export const isEuCountry = (country: string | null | undefined) =>
  Boolean(country) && (EU_COUNTRIES as readonly string[]).includes(country!.toUpperCase());

/**
 * The letters a country's VAT numbers begin with: the ISO code, but Greece writes EL and Switzerland CHE (its
 * UID number with the VAT register's suffix).
 */
export function vatPrefixOf(country: string): string {
  const code = country.toUpperCase();
  return code === "GR" ? "EL" : code === "CH" ? "CHE" : code;
}

/** The country a VAT number is of, from its prefix (EL is Greece); null when no country in scope writes it. */
export function countryOfVatNumber(vatNumber: string): string | null {
  const upper = vatNumber.toUpperCase();
  if (upper.startsWith("CHE")) return "CH";
  const prefix = upper.slice(0, 2);
  const country = prefix === "EL" ? "GR" : prefix;
  return VAT_COUNTRIES.includes(country) ? country : null;
}

/**
 * What checking a VAT number with its tax authority's register came to: `valid` and `invalid` are the register's
 * answers; `pending` means the register could not be asked yet (it was unavailable) and is asked again later;
 * `not_covered` means no register the portal can ask covers the country (the format was checked).
 */
export type TaxIdStatus = (typeof TAX_ID_STATUSES)[number];

export const TAX_ID_STATUS_WORDS: Record<TaxIdStatus, string> = {
  valid: "valid",
  invalid: "invalid",
  pending: "not yet checked",
  not_covered: "format checked; no register to check it with",
};

/** The note an invoice carries when the customer, not the seller, accounts for the VAT (Art. 196 of the VAT Directive). */
export const REVERSE_CHARGE_NOTE = "Reverse charge: VAT to be accounted for by the recipient";

/**
 * Whether an invoice carries the reverse-charge note: the buyer is a business in an EU member state with a VAT
 * number the register found valid, in another member state than the one the seller is registered for VAT in.
 */
export function reverseChargeApplies(
  buyer: { vatNumber: string | null; vatNumberValid: boolean },
  sellerVatNumber: string | null,
): boolean {
  if (!buyer.vatNumber || !buyer.vatNumberValid || !sellerVatNumber) return false;
  const buyerCountry = countryOfVatNumber(buyer.vatNumber);
  const sellerCountry = countryOfVatNumber(sellerVatNumber);
  return isEuCountry(buyerCountry) && isEuCountry(sellerCountry) && buyerCountry !== sellerCountry;
}
