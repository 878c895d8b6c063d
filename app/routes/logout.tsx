import { redirect, type ActionFunctionArgs } from "@remix-run/node";
import { validateCsrf } from "~/server/accounts/csrf.server";
import { readForm } from "~/server/platform/forms.server";
import { forgetDevice } from "~/server/accounts/known-devices.server";
import { endSession } from "~/server/accounts/session.server";

/**
 * Signing out deletes the session on the server: a copy of the cookie opens nothing afterwards. The browser
 * stops being a known device too (decision 170): whoever uses a shared computer next is a stranger to the account.
 */
export async function action({ request }: ActionFunctionArgs) {
  await validateCsrf(await readForm(request), request);
  const headers = new Headers();
  headers.append("Set-Cookie", await endSession(request));
  headers.append("Set-Cookie", await forgetDevice(request));
  return redirect("/login", { headers });
}

// Signing out changes state, so it is a POST; a visit to /logout just goes to the login page.
export const loader = () => redirect("/login");
