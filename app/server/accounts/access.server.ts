import { json } from "@remix-run/node";
import {
  ACTIONS,
  managedRefusal,
  NO_ORGANIZATION,
  refusal,
  VERIFY_EMAIL_FIRST,
  type Action,
  type Role,
  type Subject,
} from "~/domain/access-policy";
import { readUserForm, requireSession, requireUser } from "./auth.server";
import { validateCsrf } from "./csrf.server";
import { readForm } from "~/server/platform/forms.server";
import type { Guard } from "~/server/platform/guard.server";
import { oncePerRequest } from "~/server/platform/once-per-request.server";
import { describeMember } from "~/server/platform/log/request-context.server";
import { findOrganization, membershipOf, organizationsOf, type OrganizationRecord } from "./organizations.server";
import { chooseOrganization, currentSessionRead, type SessionRecord } from "./session.server";
import type { UserRecord } from "./users.server";

/**
 * The one guard of every page and action: the signed-in person, the organization they are working in (the one
 * chosen in this browser, kept in the server-side session), their role there, checked with the organization's kind
 * and whether they are staff against the access policy (app/domain/access-policy.ts). Everything an organization owns is then
 * read and written with `member.organization.id`; what is a person's own (a wizard's draft, the profile) with
 * `member.user.id`.
 */
export interface Member {
  user: UserRecord;
  organization: OrganizationRecord;
  role: Role;
  session: SessionRecord;
  /** The name of the distributor that manages the organization (organizations.managed_by); null when none does. */
  managerName: string | null;
}

/**
 * What a service needs of the member: whose data (the organization), who acts (the person) and their role; the
 * manager's name where it is at hand (the guard's member has it).
 */
export type Scope = Pick<Member, "user" | "organization" | "role"> & Partial<Pick<Member, "managerName">>;

/** Named in a managed organization's refusals when the scope at hand does not carry its distributor's name. */
const SOME_RESELLER = "your reseller";

export { NO_ORGANIZATION };

/** Who asks, as the access policy reads them: a person, and their organization and role there when they have one. */
export function subjectOf(user: Pick<UserRecord, "isGKAdmin" | "emailVerifiedAt">, member?: Scope | null): Subject {
  return {
    staff: user.isGKAdmin,
    emailVerified: user.emailVerifiedAt !== null,
    member: member
      ? {
          role: member.role,
          kind: member.organization.customerType,
          organizationName: member.organization.name,
          // Whether a distributor manages it is the organization's own column, so a scope without the name is
          // still refused what its reseller does.
          managedBy: member.organization.managedBy ? (member.managerName ?? SOME_RESELLER) : null,
        }
      : null,
  };
}

/**
 * The request's member, looked up once per request (the shell's loader and the page's share it), or null: not
 * signed in, or a member of no organization (a GateKeeper administrator may be). The session's organization is
 * used while the person is still a member of it; otherwise their first one, which the session then keeps.
 */
export const currentMember = oncePerRequest(async (request): Promise<Member | null> => {
  const { user, session } = await requireSession(request);
  // The session's own organization comes with the session's read; another is looked up only without it.
  const chosen = (await currentSessionRead(request))?.membership;
  if (chosen) {
    describeMember(user.id, chosen.organization.id);
    return { user, session, ...chosen, managerName: await managerNameOf(chosen.organization) };
  }
  const [first] = await organizationsOf(user.id);
  const fallback = first ? await membershipOf(user.id, first.id) : null;
  describeMember(user.id, fallback?.organization.id);
  if (!fallback) return null;
  await chooseOrganization(session.id, fallback.organization.id);
  return {
    user,
    session: { ...session, organizationId: fallback.organization.id },
    ...fallback,
    managerName: await managerNameOf(fallback.organization),
  };
});

/** The managing distributor's name, read only for a managed organization (no query for the others). */
async function managerNameOf(organization: Pick<OrganizationRecord, "managedBy">): Promise<string | null> {
  if (!organization.managedBy) return null;
  return (await findOrganization(organization.managedBy))?.name ?? SOME_RESELLER;
}

/**
 * Why the member's organization does not change its own licenses (a distributor manages it and acts for it), in
 * the words the refusals use; null for an organization of its own. Pages put it where the buttons would be.
 */
export const managedNote = (member: Scope): string | null => managedRefusal(subjectOf(member.user, member));

/** Why the member may not (null when they may): the 403 page's words, and a disabled button's note. */
export const whyNot = (member: Scope, action: Action): string | null => refusal(subjectOf(member.user, member), action);

/** Whether the member may do it now, by the access policy. */
export const mayDo = (member: Scope, action: Action): boolean => whyNot(member, action) === null;

/** What the person may do in the organization they work in (staff or not): what the shell shows. */
export const allowedActions = (subject: Subject): Action[] =>
  ACTIONS.filter((action) => refusal(subject, action) === null);

/** 403 with the reason, unless the policy allows. An unverified email's 403 offers to send the link again. */
export function assertAllowed(subject: Subject, action: Action): void {
  const reason = refusal(subject, action);
  if (reason === null) return;
  const unverified = reason === VERIFY_EMAIL_FIRST;
  throw json({ message: reason, ...(unverified ? { verifyEmail: true } : {}) }, { status: 403 });
}

/** 403 with the reason, unless the member may. */
export const assertMay = (member: Scope, action: Action): void => assertAllowed(subjectOf(member.user, member), action);

/**
 * The signed-in member of the organization chosen in this browser, allowed to do `action` (any member when no
 * action is named: reading what every role reads). Not signed in: a redirect to sign in. A member of no
 * organization, or a role that may not: 403 with the reason.
 */
export async function requireMember(request: Request, action?: Action): Promise<Member> {
  const member = await currentMember(request);
  if (!member) throw json({ message: NO_ORGANIZATION }, { status: 403 });
  if (action) assertMay(member, action);
  return member;
}

/** The start of every form action on an organization's data: the member allowed to do it, the form, its CSRF token. */
export async function readMemberForm(request: Request, action?: Action) {
  const member = await requireMember(request, action);
  const formData = await readForm(request);
  await validateCsrf(formData, request, member.session);
  return { ...member, member, formData, intent: String(formData.get("intent") ?? "") };
}

/** The access policy as the platform's page kits (wizard layouts, progress pages) take it. */
export const memberGuard: Guard<Member> = {
  require: requireMember,
  async readForm(request, action) {
    const { member, formData } = await readMemberForm(request, action);
    return { actor: member, formData };
  },
  whyNot,
};

/**
 * A GateKeeper administrator (staff) with the staff right `action` (the administration pages' by default), else 403
 * with the policy's reason: the administration pages' guard.
 */
export async function requireAdmin(request: Request, action: Action = "staff.admin"): Promise<UserRecord> {
  const user = await requireUser(request);
  describeMember(user.id);
  assertAllowed(subjectOf(user), action);
  return user;
}

/** Whether a signed-in person, in no organization's name, has a staff right: what an administration page offers. */
export const userMay = (user: UserRecord, action: Action): boolean => refusal(subjectOf(user), action) === null;

/** The start of an administrator's form action: a GateKeeper administrator (else 403), the form, its CSRF token. */
export async function readAdminForm(request: Request, action: Action = "staff.admin") {
  await requireAdmin(request, action);
  return readUserForm(request);
}
