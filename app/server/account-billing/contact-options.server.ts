import type { SelectOption } from "~/domain/billing-views";
import { COUNTRIES } from "~/domain/countries";
import { DIAL_CODES, splitPhone } from "~/domain/phone";

// The country and dial-code selects' options, sent by the loaders of pages with such a field: the lists
// (i18n-iso-countries, libphonenumber-js) stay on the server, out of every page's JavaScript (decision 105).

/** Every ISO country by English name. */
export const COUNTRY_OPTIONS: SelectOption[] = COUNTRIES.map((country) => ({
  value: country.code,
  label: country.name,
}));

/** The dial codes libphonenumber knows, US and GB first ('United States (+1)'). */
export const DIAL_CODE_OPTIONS: SelectOption[] = DIAL_CODES.map((code) => ({ value: code.country, label: code.label }));

/** A stored phone number as the phone field's two inputs: the dial-code country and the national number. */
export function phoneFormValues(stored: string) {
  const { country, national } = splitPhone(stored);
  return { phone_country: country, phone: national };
}
