import { readUserForm } from "~/server/accounts/auth.server";
import { redirect, type ActionFunctionArgs } from "@remix-run/node";
import { safeRedirect } from "~/domain/redirects";
import { resendVerificationLink } from "~/server/accounts/email-verification.server";
import { redirectWithToast } from "~/server/accounts/session.server";
import { waitMessage } from "~/server/platform/throttle.server";

/** 'Send the link again' (the portal's notice, a 403 that waits for it): throttled per person. */
export async function action({ request }: ActionFunctionArgs) {
  const { user, formData } = await readUserForm(request);
  const back = safeRedirect(formData.get("redirectTo"), request.url);
  if (user.emailVerifiedAt) {
    return redirectWithToast(request, back, { kind: "info", message: "Your email address is verified already." });
  }
  const waitSeconds = await resendVerificationLink(request, user);
  if (waitSeconds > 0) {
    return redirectWithToast(request, back, { kind: "error", message: waitMessage("verification links", waitSeconds) });
  }
  return redirectWithToast(request, back, {
    kind: "success",
    message: `We sent a new verification link to ${user.email}.`,
  });
}

export const loader = () => redirect("/home");
