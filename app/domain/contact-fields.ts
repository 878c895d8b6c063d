import { z } from "zod";
import { isCountryCode } from "./countries";
import { boundedString, CANNOT_BE_EMPTY, MAX_TEXT_LENGTH } from "./fields";
import { toE164 } from "./phone";

/**
 * The phone and country fields: their rules need the phone number metadata and the country list, which
 * are large, so they live apart from ./fields and load only on pages with such a field.
 */
export const INVALID_PHONE = "Invalid phone number.";

/**
 * A phone number posted as a dial-code country and the number; it comes out in E.164. An empty number
 * gives 'Cannot be empty.', one that is not a valid number for the country 'Invalid phone number.'.
 */
export function phoneFields<Required extends boolean>(required: Required) {
  return z
    .object({ phone_country: boundedString(8).default("US"), phone: boundedString(40).trim().default("") })
    .superRefine((value, ctx) => {
      if (!value.phone) {
        if (required) ctx.addIssue({ code: z.ZodIssueCode.custom, path: ["phone"], message: CANNOT_BE_EMPTY });
      } else if (!toE164(value.phone_country, value.phone)) {
        ctx.addIssue({ code: z.ZodIssueCode.custom, path: ["phone"], message: INVALID_PHONE });
      }
    })
    .transform(({ phone_country, phone }) => ({ phone: phone ? (toE164(phone_country, phone) ?? "") : "" }));
}

export const countryCode = (message: string) =>
  z
    .string({ required_error: message })
    .max(MAX_TEXT_LENGTH, message)
    .trim()
    .toUpperCase()
    .refine((code) => isCountryCode(code), message);
