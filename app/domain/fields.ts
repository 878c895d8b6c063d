import { z } from "zod";
import { isCountryCode } from "./countries";
import { toE164 } from "./phone";

/** Form fields and their messages, shared by every form of the portal (spec 000 §5, spec 001 §5). */

/**
 * Every text field has a ceiling (issue 9 §5): names, addresses and codes fit easily; a megabyte of text
 * in a name field is refused with a message next to the field instead of being stored or sent on.
 */
export const MAX_TEXT_LENGTH = 200;
/** Passwords may be long passphrases, but scrypt should not hash a megabyte. */
export const MAX_PASSWORD_LENGTH = 256;

export const tooLong = (max: number) => `Too long: at most ${max} characters.`;

/** A string of at most `max` characters, with the message saying so. */
export const boundedString = (max = MAX_TEXT_LENGTH, requiredMessage?: string) =>
  z.string({ required_error: requiredMessage }).max(max, tooLong(max));

/** Messages of spec 000 §5. */
export const CANNOT_BE_EMPTY = "Cannot be empty.";
export const INVALID_PHONE = "Invalid phone number.";

export const requiredText = boundedString(MAX_TEXT_LENGTH, CANNOT_BE_EMPTY).trim().min(1, CANNOT_BE_EMPTY);

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


export const SELECT_YOUR_COUNTRY = "Please select your country.";
/** Spec 001 §5's email message; spec 000 names no message for a malformed email. */
export const INVALID_EMAIL = "Invalid Email";

export const optionalText = boundedString().trim().default("");
export const countryCode = (message: string) =>
  z
    .string({ required_error: message })
    .max(MAX_TEXT_LENGTH, message)
    .trim()
    .toUpperCase()
    .refine((code) => isCountryCode(code), message);
export const requiredEmail = requiredText.pipe(z.string().email(INVALID_EMAIL));
export const optionalEmail = optionalText.pipe(z.union([z.literal(""), z.string().email(INVALID_EMAIL)]));
/** A checkbox posts "on" when ticked and nothing when not. */
export const checkbox = boundedString(8)
  .optional()
  .transform((value) => value === "on");

