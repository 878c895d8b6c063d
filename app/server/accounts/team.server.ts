import { json } from "@remix-run/node";
import { roleChangeSchema } from "~/domain/accounts";
import { assertMay, mayDo, readMemberForm, requireMember } from "./access.server";
import { memberActor } from "./activity.server";
import { pendingInvitations, postInvitation, resendInvitation, revokeInvitation } from "./invitations.server";
import { changeRole, memberPage, MembershipRefused, removeMember } from "./organizations.server";
import { redirectWithToast } from "./session.server";
import { waitMessage } from "~/server/platform/throttle.server";

/**
 * /account/team: every member sees who is in the organization; an Owner invites, re-sends and revokes invitations,
 * changes roles and removes members. Each post is checked on the server against the role table.
 */
const TEAM = "/account/team";

/** The members' page and the pending invitations' page asked for, each `pageSize` rows, paged in SQL. */
export async function teamPage(
  request: Request,
  { page, invitationsPage, pageSize }: { page: number; invitationsPage: number; pageSize: number },
) {
  const member = await requireMember(request);
  const mayManage = mayDo(member, "members.manage");
  const { total, members } = await memberPage(member.organization.id, page, pageSize);
  const pending = mayManage
    ? await pendingInvitations(member.organization.id, invitationsPage, pageSize)
    : { total: 0, invitations: [] };
  return { member, mayManage, total, members, invitationTotal: pending.total, invitations: pending.invitations };
}

const refused = (message: string) => json({ formError: message }, { status: 422 });

export async function teamAction(request: Request) {
  const { member, formData, intent } = await readMemberForm(request);
  // Every member may leave; everything else here is an Owner's (403 with the reason otherwise).
  if (intent !== "leave") assertMay(member, "members.manage");
  const actor = memberActor(member.user);
  const organizationId = member.organization.id;
  const userId = String(formData.get("userId") ?? "");
  const invitationId = String(formData.get("invitationId") ?? "");
  try {
    switch (intent) {
      case "invite":
        return postInvitation(request, organizationId, formData, actor, TEAM);
      case "resend": {
        const wait = await resendInvitation(request, organizationId, invitationId, actor);
        if (wait > 0) return refused(waitMessage("invitations", wait));
        return redirectWithToast(request, TEAM, { kind: "success", message: "The invitation was sent again." });
      }
      case "revoke":
        await revokeInvitation(organizationId, invitationId, actor);
        return redirectWithToast(request, TEAM, { kind: "success", message: "The invitation was revoked." });
      case "role": {
        const parsed = roleChangeSchema.safeParse({ role: formData.get("role") });
        if (!parsed.success) return refused(parsed.error.issues[0].message);
        await changeRole(organizationId, userId, parsed.data.role, actor);
        return redirectWithToast(request, TEAM, { kind: "success", message: "The role was changed." });
      }
      case "remove":
        await removeMember(organizationId, userId, actor);
        return redirectWithToast(request, TEAM, {
          kind: "success",
          message: "The member was removed, and signed out of this organization.",
        });
      case "leave":
        await removeMember(organizationId, member.user.id, actor);
        return redirectWithToast(request, "/login", {
          kind: "success",
          message: `You left ${member.organization.name}.`,
        });
      default:
        throw json({ message: "This form is not known on the team page." }, { status: 400 });
    }
  } catch (error) {
    if (error instanceof MembershipRefused) return refused(error.message);
    throw error;
  }
}
