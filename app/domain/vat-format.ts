import { validate as at } from "stdnum/lib/esm/at/uid";
import { validate as be } from "stdnum/lib/esm/be/vat";
import { validate as bg } from "stdnum/lib/esm/bg/vat";
import { validate as ch } from "stdnum/lib/esm/ch/vat";
import { validate as cy } from "stdnum/lib/esm/cy/vat";
import { validate as cz } from "stdnum/lib/esm/cz/dic";
import { validate as de } from "stdnum/lib/esm/de/vat";
import { validate as dk } from "stdnum/lib/esm/dk/cvr";
import { validate as ee } from "stdnum/lib/esm/ee/kmkr";
import { validate as es } from "stdnum/lib/esm/es/nif";
import { validate as fi } from "stdnum/lib/esm/fi/alv";
import { validate as fr } from "stdnum/lib/esm/fr/tva";
import { validate as gb } from "stdnum/lib/esm/gb/vat";
import { validate as gr } from "stdnum/lib/esm/gr/vat";
import { validate as hr } from "stdnum/lib/esm/hr/oib";
import { validate as hu } from "stdnum/lib/esm/hu/anum";
import { validate as ie } from "stdnum/lib/esm/ie/vat";
import { validate as it } from "stdnum/lib/esm/it/iva";
import { validate as lt } from "stdnum/lib/esm/lt/pvm";
import { validate as lu } from "stdnum/lib/esm/lu/tva";
import { validate as lv } from "stdnum/lib/esm/lv/pvn";
import { validate as mt } from "stdnum/lib/esm/mt/vat";
import { validate as nl } from "stdnum/lib/esm/nl/btw";
import { validate as no } from "stdnum/lib/esm/no/mva";
import { validate as pl } from "stdnum/lib/esm/pl/nip";
import { validate as pt } from "stdnum/lib/esm/pt/nif";
import { validate as ro } from "stdnum/lib/esm/ro/cif";
import { validate as se } from "stdnum/lib/esm/se/vat";
import { validate as si } from "stdnum/lib/esm/si/ddv";
import { validate as sk } from "stdnum/lib/esm/sk/dph";
import { VAT_COUNTRIES, vatPrefixOf } from "./tax-ids";

/**
 * The format of a VAT number, per country: length, characters and check digits, by stdnum (a port of
 * python-stdnum, kept up to date with each country's rules). Only the register can say a number is issued; this
 * says it could be. Each country's validator is imported on its own, so the page's form loads these and not the
 * library's hundreds of other numbers.
 */
type Validate = typeof de;

const VALIDATORS: Record<string, Validate> = {
  AT: at,
  BE: be,
  BG: bg,
  CH: ch,
  CY: cy,
  CZ: cz,
  DE: de,
  DK: dk,
  EE: ee,
  ES: es,
  FI: fi,
  FR: fr,
  GB: gb,
  GR: gr,
  HR: hr,
  HU: hu,
  IE: ie,
  IT: it,
  LT: lt,
  LU: lu,
  LV: lv,
  MT: mt,
  NL: nl,
  NO: no,
  PL: pl,
  PT: pt,
  RO: ro,
  SE: se,
  SI: si,
  SK: sk,
};

/** The field's message, in the style of the specification's 'Invalid phone number.'. */
export const INVALID_VAT_NUMBER = "Invalid VAT number.";
export const NO_VAT_NUMBERS =
  "VAT numbers are only kept for customers in the EU, the United Kingdom, Switzerland and Norway.";

/**
 * A VAT number as typed (with or without its country's prefix, with spaces, dots or dashes) in its one written
 * form: the prefix (EL for Greece) and the number's compact form, e.g. DE136695976, CHE100155212MWST,
 * NO974760673MVA. Null when it is not a well-formed number of that country.
 */
export function normalizeVatNumber(country: string, typed: string): string | null {
  const code = country.toUpperCase();
  const validate = VALIDATORS[code];
  if (!validate || !VAT_COUNTRIES.includes(code)) return null;
  const prefix = vatPrefixOf(code);
  // Each country's validator takes the number with or without its own prefix (Greece's EL or GR), and refuses
  // another country's.
  const cleaned = typed.toUpperCase().replace(/[\s.\-/,]/g, "");
  const result = validate(cleaned);
  if (!result.isValid) return null;
  return result.compact.startsWith(prefix) ? result.compact : `${prefix}${result.compact}`;
}
