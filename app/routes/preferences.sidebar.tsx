import { redirect, type ActionFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { safeRedirect } from "~/domain/redirects";
import { readUserForm } from "~/server/forms.server";
import { serializeSidebarChoice } from "~/server/preferences.server";

const sidebarChoice = z.object({
  sidebar: z.enum(["open", "collapsed"]),
  redirectTo: z.string().optional(),
});

export async function action({ request }: ActionFunctionArgs) {
  const { formData } = await readUserForm(request);
  const parsed = sidebarChoice.safeParse(Object.fromEntries(formData));
  const choice = parsed.success ? parsed.data.sidebar : "open";
  return redirect(safeRedirect(parsed.success ? parsed.data.redirectTo : null, request.url), {
    headers: { "Set-Cookie": await serializeSidebarChoice(choice) },
  });
}

export const loader = () => redirect("/home");
