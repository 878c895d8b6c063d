import { z } from "zod";
import { countryCode } from "./contact-fields";
import { boundedString, MAX_PASSWORD_LENGTH, requiredEmail, SELECT_YOUR_COUNTRY } from "./fields";
import { plainName } from "./names";
import { unmetPasswordRequirements } from "./password-requirements";
import { ROLES } from "./access-policy";
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
    firstName: plainName,
    lastName: plainName,
    company: plainName,
    email,
    country: countryCode(SELECT_YOUR_COUNTRY),
  })
  .and(newPassword);

export type SignUpInput = z.infer<typeof signUpSchema>;

/** Accepting an invitation as someone without an account: a name and a password (the address is the invitation's). */
export const newMemberSchema = z.object({ firstName: plainName, lastName: plainName }).and(newPassword);

export const CHOOSE_A_ROLE = "Choose a role.";

const role = z.enum(ROLES, { errorMap: () => ({ message: CHOOSE_A_ROLE }) });

/** /account/team's invitation: whom, and as what. */
export const invitationSchema = z.object({ email, role });

/** A member's new role. */
export const roleChangeSchema = z.object({ role });

/** The fields a posted form sent, as text (files and repeated fields are not part of these forms). */
export const formFields = (form: FormData): Record<string, string> =>
  Object.fromEntries(
    [...form.entries()].flatMap(([name, value]) => (typeof value === "string" ? [[name, value]] : [])),
  );

/**
 * A posted form checked with its schema: the data, or the first message of each field with what was typed (never
 * the passwords) and the password requirements still unmet, so the page shows every message and loses nothing.
 */
export type ParsedAccountForm<Data> =
  | { ok: true; data: Data }
  | { ok: false; errors: Record<string, string>; typed: Record<string, string>; unmet: string[] | null };

export function parseAccountForm<Schema extends z.ZodTypeAny>(
  schema: Schema,
  form: FormData,
): ParsedAccountForm<z.infer<Schema>> {
  const fields = formFields(form);
  const parsed = schema.safeParse(fields);
  if (parsed.success) return { ok: true, data: parsed.data as z.infer<Schema> };
  const errors: Record<string, string> = {};
  for (const issue of parsed.error.issues) {
    const field = String(issue.path[0] ?? "");
    errors[field] ??= issue.message;
  }
  const { new_password = "", confirm_password: _confirm, csrf: _csrf, ...typed } = fields;
  void _confirm;
  void _csrf;
  return { ok: false, errors, typed, unmet: "new_password" in fields ? unmetPasswordRequirements(new_password) : null };
}
