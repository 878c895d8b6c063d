import { redirect, type ActionFunctionArgs } from "@remix-run/node";
import { validateCsrf } from "~/server/csrf.server";
import { destroySession, getSession } from "~/server/session.server";

export async function action({ request }: ActionFunctionArgs) {
  await validateCsrf(await request.formData(), request);
  const session = await getSession(request);
  return redirect("/login", { headers: { "Set-Cookie": await destroySession(session, request) } });
}

// Signing out changes state, so it is a POST; a visit to /logout just goes to the login page.
export const loader = () => redirect("/login");
