import { z } from "zod";

/** The sign-in form, shared by the browser (errors on blur) and the server. */
export const loginSchema = z.object({
  email: z.string().trim().min(1, "Enter your email address.").email("Enter a valid email address."),
  password: z.string().min(1, "Enter your password."),
  redirectTo: z.string().optional(),
});
