import { readUserForm } from "~/server/accounts/auth.server";
import { json, redirect, type ActionFunctionArgs } from "@remix-run/node";
import { sectionOf } from "~/domain/navigation";
import { safeRedirect } from "~/domain/redirects";
import { membershipOf } from "~/server/accounts/organizations.server";
import { chooseOrganization, redirectWithToast } from "~/server/accounts/session.server";

/**
 * The header's organization switcher: the person works in another of their organizations, in this browser (the
 * choice is kept with the session). They land on the same part of the portal, never on an id of the organization
 * they left.
 */
export async function action({ request }: ActionFunctionArgs) {
  const { user, session, formData } = await readUserForm(request);
  const membership = await membershipOf(user.id, String(formData.get("organizationId") ?? ""));
  if (!membership) throw json({ message: "You are not a member of that organization." }, { status: 404 });
  await chooseOrganization(session.id, membership.organization.id);
  const from = new URL(safeRedirect(formData.get("redirectTo"), request.url), request.url).pathname;
  return redirectWithToast(request, sectionOf(from), {
    kind: "success",
    message: `You are now working in ${membership.organization.name}.`,
  });
}

export const loader = () => redirect("/home");
