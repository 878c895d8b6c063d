import { json } from "@remix-run/node";
import { CHOOSE_END_CUSTOMER_ROLE, customerUrls, END_CUSTOMER_ROLES } from "~/domain/customers";
import {
  memberActor,
  memberPage,
  MembershipRefused,
  pendingInvitations,
  postInvitation,
  readMemberForm,
  redirectWithToast,
  removeMember,
  revokeInvitation,
} from "~/server/accounts/index.server";
import { requireCustomer } from "./end-customers.server";

/**
 * The people of a distributor's end customer, on the customer's page: the distributor's Owner or Billing admin
 * invites them into the end customer's organization (the team page's invitations: the mail names the end
 * customer, and accepting makes a member of it only) as Technical contact or Viewer, revokes an invitation, and
 * removes a member. Every post is checked for its own right, and the customer must be this distributor's (else
 * 404).
 */
const SHOWN = 50;

/** The customer's members and open invitations, the first `SHOWN` of each (an end customer has a handful). */
export async function customerPeople(customerId: string) {
  const [{ members, total }, pending] = await Promise.all([
    memberPage(customerId, 1, SHOWN),
    pendingInvitations(customerId, 1, SHOWN),
  ]);
  return {
    total,
    members: members.map((person) => ({
      userId: person.userId,
      name: `${person.firstName} ${person.lastName}`.trim(),
      email: person.email,
      role: person.role,
    })),
    invitationTotal: pending.total,
    invitations: pending.invitations.map((invitation) => ({
      id: invitation.id,
      email: invitation.email,
      role: invitation.role,
      expiresAt: invitation.expiresAt.toISOString(),
    })),
  };
}

const isEndCustomerRole = (role: string): boolean => (END_CUSTOMER_ROLES as readonly string[]).includes(role);

/** The People section's posts: invite, revoke an invitation, remove a member. */
export async function postCustomerPeople(request: Request, customerId: string) {
  const { member, formData, intent } = await readMemberForm(request, "customers.people");
  const customer = await requireCustomer(member.organization.id, customerId);
  const actor = memberActor(member.user);
  const back = customerUrls.page(customer.id);
  try {
    switch (intent) {
      case "invite": {
        const role = String(formData.get("role") ?? "");
        if (!isEndCustomerRole(role)) {
          const values = { email: String(formData.get("email") ?? ""), role };
          return json({ fieldErrors: { role: CHOOSE_END_CUSTOMER_ROLE }, values }, { status: 422 });
        }
        return await postInvitation(request, customer.id, formData, actor, back);
      }
      case "revoke":
        await revokeInvitation(customer.id, String(formData.get("invitationId") ?? ""), actor);
        return redirectWithToast(request, back, { kind: "success", message: "The invitation was revoked." });
      case "remove":
        await removeMember(customer.id, String(formData.get("userId") ?? ""), actor);
        return redirectWithToast(request, back, {
          kind: "success",
          message: `The person was removed from ${customer.name}, and signed out of it.`,
        });
      default:
        throw json({ message: "This form is not known on the customer's page." }, { status: 400 });
    }
  } catch (error) {
    if (error instanceof MembershipRefused) return json({ formError: error.message }, { status: 422 });
    throw error;
  }
}
