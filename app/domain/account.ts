import { z } from "zod";
import { toE164 } from "./phone";

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

export const profileSchema = z
  .object({
    firstName: requiredText,
    lastName: requiredText,
    company: requiredText,
  })
  .and(phoneFields(true));

export type ProfileInput = z.infer<typeof profileSchema>;

/** The new password's requirements, shown as a checklist with the unmet ones marked. */
export const PASSWORD_REQUIREMENTS = [
  { id: "length", label: "At least 10 characters", test: (password: string) => password.trim().length >= 10 },
  { id: "digit", label: "A number", test: (password: string) => /\d/.test(password) },
  { id: "lowercase", label: "A lowercase letter", test: (password: string) => /[a-z]/.test(password) },
  { id: "uppercase", label: "An uppercase letter", test: (password: string) => /[A-Z]/.test(password) },
  { id: "symbol", label: "A symbol", test: (password: string) => /[^A-Za-z0-9\s]/.test(password) },
] as const;

export const unmetPasswordRequirements = (password: string) =>
  PASSWORD_REQUIREMENTS.filter((requirement) => !requirement.test(password)).map((requirement) => requirement.id);

/** All three rules are checked together, so every message shows at once. */
export const passwordChangeSchema = z
  .object({
    old_password: z.string().default(""),
    new_password: z.string().default(""),
    confirm_password: z.string().default(""),
  })
  .superRefine((value, ctx) => {
    const fail = (field: string, message: string) => ctx.addIssue({ code: z.ZodIssueCode.custom, path: [field], message });
    if (!value.old_password) fail("old_password", CANNOT_BE_EMPTY);
    if (unmetPasswordRequirements(value.new_password).length > 0) fail("new_password", "Doesn't match requirements.");
    if (value.confirm_password !== value.new_password) fail("confirm_password", "Doesn't match new password.");
  });
