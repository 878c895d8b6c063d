import countries from "i18n-iso-countries";
import english from "i18n-iso-countries/langs/en.json";

// Registered here, not left to the runtime's Intl data: Node's and the browser's ICU name some regions
// differently, and the server's HTML must match what the browser renders.
countries.registerLocale(english);

export interface Country {
  /** ISO 3166-1 alpha-2, upper case. */
  code: string;
  name: string;
}

/** Every ISO country by English name, from i18n-iso-countries (maintained with the ISO list). */
export const COUNTRIES: Country[] = Object.entries(countries.getNames("en", { select: "official" }))
  .map(([code, name]) => ({ code, name }))
  .sort((a, b) => a.name.localeCompare(b.name, "en"));

export function isCountryCode(value: string): boolean {
  return countries.isValid(value.toUpperCase());
}

/** A country's English name, or the code itself when it is not an ISO code. */
export const countryName = (code: string): string =>
  countries.getName(code.toUpperCase(), "en", { select: "official" }) ?? code;
