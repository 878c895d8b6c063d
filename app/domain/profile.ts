import { z } from "zod";
import { phoneFields } from "./contact-fields";
import { boundedString, CANNOT_BE_EMPTY, MAX_PASSWORD_LENGTH } from "./fields";
import { plainName } from "./names";
import { unmetPasswordRequirements } from "./password-requirements";

export { PASSWORD_REQUIREMENTS, unmetPasswordRequirements } from "./password-requirements";

/** The profile and password forms of /account. */
export const profileSchema = z
  .object({
    firstName: plainName,
    lastName: plainName,
    company: plainName,
  })
  .and(phoneFields(true));

export type ProfileInput = z.infer<typeof profileSchema>;

/** All three rules are checked together, so every message shows at once. */
export const passwordChangeSchema = z
  .object({
    old_password: boundedString(MAX_PASSWORD_LENGTH).default(""),
    new_password: boundedString(MAX_PASSWORD_LENGTH).default(""),
    confirm_password: boundedString(MAX_PASSWORD_LENGTH).default(""),
  })
  .superRefine((value, ctx) => {
    const fail = (field: string, message: string) =>
      ctx.addIssue({ code: z.ZodIssueCode.custom, path: [field], message });
    if (!value.old_password) fail("old_password", CANNOT_BE_EMPTY);
    if (unmetPasswordRequirements(value.new_password).length > 0) fail("new_password", "Doesn't match requirements.");
    if (value.confirm_password !== value.new_password) fail("confirm_password", "Doesn't match new password.");
  });
