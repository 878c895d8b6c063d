import { z } from "zod";
import { isCountryCode } from "./countries";
import { optionalEmail, optionalText } from "./fields";
import { optionalPlainName, plainName } from "./names";
import type { CustomerRecord } from "./customers";

/**
 * The end customer's record as its distributor types it (/customers/new and its edit form): only the company's
 * name is required; it and the technical contact's name are plain names, as every name the portal keeps. An
 * address is kept when any part of it is given; a country must be one of the list.
 */
export const UNKNOWN_COUNTRY = "Please choose a country from the list.";

export const customerFormSchema = z
  .object({
    name: plainName,
    country: optionalText
      .transform((code) => code.toUpperCase())
      .refine((code) => code === "" || isCountryCode(code), UNKNOWN_COUNTRY),
    line1: optionalText,
    line2: optionalText,
    city: optionalText,
    state: optionalText,
    zip: optionalText,
    contactName: optionalPlainName,
    contactEmail: optionalEmail,
  })
  .transform(({ line1, line2, city, state, zip, ...rest }): CustomerRecord => {
    const given = [line1, line2, city, state, zip].some((part) => part !== "");
    return { ...rest, address: given ? { line1, line2, city, state, zip } : null };
  });

export type CustomerFormInput = z.input<typeof customerFormSchema>;
