import { z } from "zod";
import { MAX_TEXT_LENGTH, tooLong } from "./text-limits";

/** Form fields and their messages, shared by every form of the portal. */

export { MAX_PASSWORD_LENGTH, MAX_TEXT_LENGTH, tooLong } from "./text-limits";

/** A string of at most `max` characters, with the message saying so. */
export const boundedString = (max = MAX_TEXT_LENGTH, requiredMessage?: string) =>
  z.string({ required_error: requiredMessage }).max(max, tooLong(max));

/** What a required field says when it is left empty. */
export const CANNOT_BE_EMPTY = "Cannot be empty.";

export const requiredText = boundedString(MAX_TEXT_LENGTH, CANNOT_BE_EMPTY).trim().min(1, CANNOT_BE_EMPTY);

export const SELECT_YOUR_COUNTRY = "Please select your country.";
/** The Hub forms' email message; the portal's other forms say the same, so that every form words it alike. */
export const INVALID_EMAIL = "Invalid Email";

export const optionalText = boundedString().trim().default("");
export const requiredEmail = requiredText.pipe(z.string().email(INVALID_EMAIL));
export const optionalEmail = optionalText.pipe(z.union([z.literal(""), z.string().email(INVALID_EMAIL)]));
/** A checkbox posts "on" when ticked and nothing when not. */
export const checkbox = boundedString(8)
  .optional()
  .transform((value) => value === "on");

/**
 * A whole number as a form posts it: empty means 0; anything else must be a whole number within the
 * bounds, else `message`. (A number input without JavaScript posts whatever was typed.)
 */
export function wholeNumberField(message: string, { min, max }: { min: number; max: number }) {
  return z
    .string()
    .trim()
    .default("")
    .transform((value, ctx) => {
      if (value === "") return 0;
      const number = Number(value);
      if (!Number.isInteger(number) || number < min || number > max) {
        ctx.addIssue({ code: z.ZodIssueCode.custom, message });
        return z.NEVER;
      }
      return number;
    });
}
