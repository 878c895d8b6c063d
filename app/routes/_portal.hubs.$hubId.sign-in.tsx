import { json, redirect, type LoaderFunctionArgs } from "@remix-run/node";
import { requireMember } from "~/server/accounts/access.server";
import { HubError } from "~/server/hubs/index.server";
import { redirectWithToast } from "~/server/accounts/session.server";
import { hubSignInLink } from "~/server/cloud-hubs/cloud-hub-wizard.server";

export const HUB_LINK_FAILED = "Could not open your Hub. Please try again.";

/**
 * 'Go to Hub': asks for the one-time link when the link is followed, and redirects there (decision 070).
 * A link rather than a form: the portal's CSP (form-action 'self') blocks a form post that redirects to
 * another origin. Link prefetching is off, so a link is made only for a click.
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const member = await requireMember(request, "hubs.deploy");
  try {
    const link = await hubSignInLink(member.organization.id, params.hubId ?? "");
    if (!link) throw json({ message: "There is no such Hub." }, { status: 404 });
    return redirect(link);
  } catch (error) {
    if (!(error instanceof HubError)) throw error;
    return redirectWithToast(request, "/hubs", { kind: "error", message: HUB_LINK_FAILED });
  }
}
