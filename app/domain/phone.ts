import {
  getCountries,
  getCountryCallingCode,
  parsePhoneNumberFromString,
  type CountryCode,
} from "libphonenumber-js/min";
import { COUNTRIES } from "./countries";

/** Listed first in the dial-code select. */
const PREFERRED: CountryCode[] = ["US", "GB"];

export interface DialCode {
  country: CountryCode;
  label: string;
}

const countryName = new Map(COUNTRIES.map((country) => [country.code, country.name]));
const dialCode = (country: CountryCode): DialCode => ({
  country,
  label: `${countryName.get(country) ?? country} (+${getCountryCallingCode(country)})`,
});

/** The dial codes libphonenumber knows, US and GB first, then by country name. */
export const DIAL_CODES: DialCode[] = [
  ...PREFERRED.map(dialCode),
  ...getCountries()
    .filter((country) => !PREFERRED.includes(country))
    .map(dialCode)
    .sort((a, b) => a.label.localeCompare(b.label, "en")),
];

const knownCountries = new Set<string>(getCountries());
export const isDialCountry = (value: string): value is CountryCode => knownCountries.has(value);

/**
 * The number in E.164 (+14155550134) when it is a valid number for the chosen country (or carries its
 * own +code), otherwise null.
 */
export function toE164(country: string, number: string): string | null {
  const parsed = parsePhoneNumberFromString(number, isDialCountry(country) ? country : undefined);
  return parsed?.isValid() ? parsed.number : null;
}

/** Splits a stored number back into the select's country and the national number, for editing. */
export function splitPhone(
  stored: string,
  fallbackCountry: CountryCode = "US",
): { country: CountryCode; national: string } {
  const parsed = stored ? parsePhoneNumberFromString(stored) : undefined;
  if (!parsed) return { country: fallbackCountry, national: stored };
  return { country: parsed.country ?? fallbackCountry, national: parsed.formatNational() };
}
