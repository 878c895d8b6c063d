import { z } from "zod";

/** Form fields and their messages, shared by every form of the portal (spec 000 §5, spec 001 §5). */
/** Messages of spec 000 §5. */
export const CANNOT_BE_EMPTY = "Cannot be empty.";

export const requiredText = z.string({ required_error: CANNOT_BE_EMPTY }).trim().min(1, CANNOT_BE_EMPTY);

export const SELECT_YOUR_COUNTRY = "Please select your country.";
/** Spec 001 §5's email message; spec 000 names no message for a malformed email. */
export const INVALID_EMAIL = "Invalid Email";

export const optionalText = z.string().trim().default("");
export const requiredEmail = requiredText.pipe(z.string().email(INVALID_EMAIL));
export const optionalEmail = optionalText.pipe(z.union([z.literal(""), z.string().email(INVALID_EMAIL)]));
/** A checkbox posts "on" when ticked and nothing when not. */
export const checkbox = z
  .string()
  .optional()
  .transform((value) => value === "on");

