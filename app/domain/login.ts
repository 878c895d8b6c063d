import { z } from "zod";
import { boundedString, MAX_PASSWORD_LENGTH } from "./fields";

/** The sign-in form, shared by the browser (errors on blur) and the server. */
export const loginSchema = z.object({
  email: boundedString(254).trim().min(1, "Enter your email address.").email("Enter a valid email address."),
  password: boundedString(MAX_PASSWORD_LENGTH).min(1, "Enter your password."),
  redirectTo: boundedString(2000).optional(),
});
