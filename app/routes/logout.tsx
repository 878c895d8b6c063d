import { redirect, type ActionFunctionArgs } from "@remix-run/node";
import { validateCsrf } from "~/server/csrf.server";
import { readForm } from "~/server/forms.server";
import { endSession } from "~/server/session.server";

/** Signing out deletes the session on the server: a copy of the cookie opens nothing afterwards. */
export async function action({ request }: ActionFunctionArgs) {
  await validateCsrf(await readForm(request), request);
  return redirect("/login", { headers: { "Set-Cookie": await endSession(request) } });
}

// Signing out changes state, so it is a POST; a visit to /logout just goes to the login page.
export const loader = () => redirect("/login");
