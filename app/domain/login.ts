import { MAX_EMAIL_LENGTH, MAX_PASSWORD_LENGTH, tooLong } from "./text-limits";

/**
 * The sign-in form's rules, shared by the browser (errors on blur) and the server. Plain functions rather
 * than a zod schema: the sign-in page's one small script (decision 138) then carries neither zod nor
 * remix-validated-form (decision 062).
 */
export const LOGIN_FIELDS = ["email", "password"] as const;
export type LoginField = (typeof LOGIN_FIELDS)[number];
export type LoginErrors = Partial<Record<LoginField, string>>;

const MAX_REDIRECT_LENGTH = 2000;
/** zod 3's email rule, which the portal's other email fields use. */
const EMAIL = /^(?!\.)(?!.*\.\.)([A-Z0-9_'+\-.]*)[A-Z0-9_+-]@([A-Z0-9][A-Z0-9-]*\.)+[A-Z]{2,}$/i;

/** The message for one field's value, or undefined when it is fine. The email is checked trimmed. */
export function loginFieldError(field: LoginField, value: string): string | undefined {
  if (field === "email") {
    const email = value.trim();
    if (value.length > MAX_EMAIL_LENGTH) return tooLong(MAX_EMAIL_LENGTH);
    if (!email) return "Enter your email address.";
    if (!EMAIL.test(email)) return "Enter a valid email address.";
    return undefined;
  }
  if (value.length > MAX_PASSWORD_LENGTH) return tooLong(MAX_PASSWORD_LENGTH);
  return value ? undefined : "Enter your password.";
}

export type LoginForm = { email: string; password: string; redirectTo: string | null };

/** The posted sign-in form: its values, or a message per field. A redirect that is too long is dropped. */
export function parseLogin(form: {
  get(name: string): unknown;
}): { data: LoginForm } | { errors: LoginErrors; email: string } {
  const text = (name: string) => {
    const value = form.get(name);
    return typeof value === "string" ? value : "";
  };
  const email = text("email");
  const password = text("password");
  const errors: LoginErrors = {};
  for (const [field, value] of [
    ["email", email],
    ["password", password],
  ] as const) {
    const message = loginFieldError(field, value);
    if (message) errors[field] = message;
  }
  if (errors.email || errors.password) return { errors, email: email.slice(0, MAX_EMAIL_LENGTH) };
  const redirectTo = text("redirectTo");
  return {
    data: {
      email: email.trim(),
      password,
      redirectTo: redirectTo && redirectTo.length <= MAX_REDIRECT_LENGTH ? redirectTo : null,
    },
  };
}
