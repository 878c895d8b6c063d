import { z } from "zod";
import { isCountryCode } from "./countries";
import { toE164 } from "./phone";

/** Form fields and their messages, shared by every form of the portal (spec 000 §5, spec 001 §5). */
/** Messages of spec 000 §5. */
export const CANNOT_BE_EMPTY = "Cannot be empty.";
export const INVALID_PHONE = "Invalid phone number.";

export const requiredText = z.string({ required_error: CANNOT_BE_EMPTY }).trim().min(1, CANNOT_BE_EMPTY);

/**
 * A phone number posted as a dial-code country and the number; it comes out in E.164. An empty number
 * gives 'Cannot be empty.', one that is not a valid number for the country 'Invalid phone number.'.
 */
export function phoneFields<Required extends boolean>(required: Required) {
  return z
    .object({ phone_country: z.string().default("US"), phone: z.string().trim().default("") })
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

export const optionalText = z.string().trim().default("");
export const countryCode = (message: string) =>
  z
    .string({ required_error: message })
    .trim()
    .toUpperCase()
    .refine((code) => isCountryCode(code), message);
export const requiredEmail = requiredText.pipe(z.string().email(INVALID_EMAIL));
export const optionalEmail = optionalText.pipe(z.union([z.literal(""), z.string().email(INVALID_EMAIL)]));
/** A checkbox posts "on" when ticked and nothing when not. */
export const checkbox = z
  .string()
  .optional()
  .transform((value) => value === "on");

