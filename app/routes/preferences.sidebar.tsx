import { readUserForm } from "~/server/accounts/auth.server";
import { redirect, type ActionFunctionArgs } from "@remix-run/node";
import { safeRedirect } from "~/domain/redirects";
import { readSidebarChoice, serializeSidebarChoice } from "~/server/platform/preferences.server";

export async function action({ request }: ActionFunctionArgs) {
  const { formData } = await readUserForm(request);
  const { sidebar, redirectTo } = readSidebarChoice(formData);
  return redirect(safeRedirect(redirectTo, request.url), {
    headers: { "Set-Cookie": await serializeSidebarChoice(sidebar) },
  });
}

export const loader = () => redirect("/home");
