import { z } from "zod";
import { countryCode } from "./contact-fields";
import { boundedString, MAX_PASSWORD_LENGTH, requiredEmail, requiredText, SELECT_YOUR_COUNTRY } from "./fields";
import { unmetPasswordRequirements } from "./password-requirements";
import { ROLES } from "./roles";
import { MAX_EMAIL_LENGTH } from "./text-limits";

/**
 * The forms of accounts: sign-up, a new password (reset, or accepting an invitation as a new person), and an
 * invitation. The password follows the profile's rules (./password-requirements), with the same messages.
 */
const email = requiredEmail.pipe(z.string().max(MAX_EMAIL_LENGTH).toLowerCase());

export const PASSWORD_UNMET = "Doesn't match requirements.";
export const PASSWORDS_DIFFER = "Doesn't match new password.";

const password = boundedString(MAX_PASSWORD_LENGTH).default("");

/** A new password and its confirmation, both checked together so every message shows at once. */
const newPassword = z.object({ new_password: password, confirm_password: password }).superRefine((value, ctx) => {
  const fail = (field: string, message: string) =>
    ctx.addIssue({ code: z.ZodIssueCode.custom, path: [field], message });
  if (unmetPasswordRequirements(value.new_password).length > 0) fail("new_password", PASSWORD_UNMET);
  if (value.confirm_password !== value.new_password) fail("confirm_password", PASSWORDS_DIFFER);
});

export const newPasswordSchema = newPassword;

/** /signup: the person, their company (the organization it makes), and where it is. */
export const signUpSchema = z
  .object({
    firstName: requiredText,
    lastName: requiredText,
    company: requiredText,
    email,
    country: countryCode(SELECT_YOUR_COUNTRY),
  })
  .and(newPassword);

export type SignUpInput = z.infer<typeof signUpSchema>;

/** Accepting an invitation as someone without an account: a name and a password (the address is the invitation's). */
export const newMemberSchema = z.object({ firstName: requiredText, lastName: requiredText }).and(newPassword);

export type NewMemberInput = z.infer<typeof newMemberSchema>;

export const CHOOSE_A_ROLE = "Choose a role.";

const role = z.enum(ROLES, { errorMap: () => ({ message: CHOOSE_A_ROLE }) });

/** /account/team's invitation: whom, and as what. */
export const invitationSchema = z.object({ email, role });

/** A member's new role. */
export const roleChangeSchema = z.object({ role });
