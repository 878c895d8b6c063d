import { json, redirect, type ActionFunctionArgs } from "@remix-run/node";
import { readUserForm } from "~/server/forms.server";
import { HubError } from "~/server/hubs/index.server";
import { redirectWithToast } from "~/server/session.server";
import { hubSignInLink } from "~/server/wizards/cloud-hub.server";

export const HUB_LINK_FAILED = "Could not open your Hub. Please try again.";

/** 'Go to Hub': asks for the one-time link on the click and follows it at once (decision 070). */
export async function action({ request, params }: ActionFunctionArgs) {
  const { user } = await readUserForm(request);
  try {
    const link = await hubSignInLink(user.id, params.hubId ?? "");
    if (!link) throw json({ message: "There is no such Hub." }, { status: 404 });
    return redirect(link);
  } catch (error) {
    if (!(error instanceof HubError)) throw error;
    return redirectWithToast(request, "/hubs", { kind: "error", message: HUB_LINK_FAILED });
  }
}

export const loader = () => redirect("/hubs");
