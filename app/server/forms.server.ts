import { requireUser } from "./auth.server";
import { validateCsrf } from "./csrf.server";

/** The start of every form action: a signed-in user, the posted form, and a valid CSRF token. */
export async function readUserForm(request: Request) {
  const user = await requireUser(request);
  const formData = await request.formData();
  await validateCsrf(formData, request);
  return { user, formData, intent: String(formData.get("intent") ?? "") };
}
