import { randomUUID } from "node:crypto";
import { and, asc, count, eq, sql } from "drizzle-orm";
import { json } from "@remix-run/node";
import { invitationSchema } from "~/domain/accounts";
import { isPlainName } from "~/domain/names";
import { ROLE_NAMES, type Role } from "~/domain/access-policy";
import { invitations, memberships, organizations, users } from "~/server/platform/database/tables.server";
import { GATEKEEPER, memberActor, recordActivity, type ActivityActor } from "./activity.server";
import { db, type PortalTransaction } from "~/server/platform/database/db.server";
import { linkOrigin, queueMail } from "~/server/mail/index.server";
import { issueOneTimeToken, peekOneTimeToken, redeemOneTimeToken, revokeOneTimeTokens } from "./one-time-tokens.server";
import { organizationInMail, personInMail } from "./names-in-mail.server";
import { MembershipRefused } from "./organizations.server";
import { redirectWithToast } from "./session.server";
import { takeInvitationMail, waitMessage } from "~/server/platform/throttle.server";
import { findUserByEmail, type UserRecord } from "./users.server";
import { searchKey } from "~/domain/search-key";

/**
 * Invitations: an Owner (or, for an organization's first Owner, a GateKeeper administrator) invites an address
 * with a role. The mailed link is a one-time token bound to the invitation (7 days, single use, kept hashed); a
 * re-send makes a new link and the old one stops working; revoking deletes the invitation and its links.
 *
 * Whoever holds the link is not trusted with an account that exists: an address that has an account joins only
 * when that account is signed in (its password, not the link, proves who it is); a new account is made only for an
 * address that has none, and the link proves the address reads its mail, so it counts as verified.
 */
const PURPOSE = "invitation";
export const INVITATION_DAYS = 7;
const VALID_MS = INVITATION_DAYS * 24 * 60 * 60 * 1000;

export const ALREADY_A_MEMBER = (email: string) => `${email} is already a member of this organization.`;
export const INVITATION_GONE =
  "This invitation is not valid any more: it was used, revoked or replaced, or it expired.";

export interface InvitationView {
  id: string;
  email: string;
  role: Role;
  invitedBy: string;
  expiresAt: Date;
}

/** One page of the organization's pending invitations, by address, and how many there are: paged in SQL. */
export async function pendingInvitations(
  organizationId: string,
  page: number,
  pageSize: number,
): Promise<{ total: number; invitations: InvitationView[] }> {
  const [{ total }] = await db
    .select({ total: count() })
    .from(invitations)
    .where(eq(invitations.organizationId, organizationId));
  const rows = await db
    .select({
      id: invitations.id,
      email: invitations.email,
      role: invitations.role,
      invitedBy: invitations.invitedBy,
      expiresAt: invitations.expiresAt,
    })
    .from(invitations)
    .where(eq(invitations.organizationId, organizationId))
    .orderBy(asc(invitations.email))
    .limit(pageSize)
    .offset((page - 1) * pageSize);
  return { total, invitations: rows };
}

const actorName = (actor: ActivityActor) => (actor === GATEKEEPER ? GATEKEEPER : actor.name);

/**
 * The link's mail: who invites whom to what, as which role, and until when. The names are plain names (the forms
 * take nothing else); one kept from before that rule goes into the body quoted as data and stays out of the subject.
 */
async function mailInvitation(
  request: Request,
  invitation: { organizationId: string; email: string; role: Role; invitedBy: string },
  organizationName: string,
  token: string,
): Promise<void> {
  const organization = organizationInMail(organizationName);
  const inviter = personInMail(invitation.invitedBy);
  await queueMail({
    accountId: invitation.organizationId,
    to: invitation.email,
    subject: `You are invited to ${isPlainName(organizationName) ? organizationName : "an organization"} on the GateKeeper Portal`,
    content: {
      paragraphs: [
        "Hello,",
        `${inviter} invited you to join ${organization} on the GateKeeper Portal as ${ROLE_NAMES[invitation.role]}: where the organization manages its GateKeeper licenses, Hubs and billing.`,
      ],
      action: { label: "Accept the invitation", url: new URL(`/invitations/${token}`, linkOrigin(request)).href },
      after: [
        `The link works once, within ${INVITATION_DAYS} days. If you already have an account with this address, sign in with it to accept.`,
        "If you did not expect this, you can ignore this message.",
      ],
    },
  });
}

/**
 * Invites the address with the role, or replaces the pending invitation to it (a new role, a new link). 0 when it
 * went, else the seconds to wait; MembershipRefused when the address is a member already.
 */
export async function inviteMember(
  request: Request,
  organizationId: string,
  { email, role }: { email: string; role: Role },
  actor: ActivityActor,
): Promise<number> {
  const address = email.trim().toLowerCase();
  const [member] = await db
    .select({ userId: memberships.userId })
    .from(memberships)
    .innerJoin(users, eq(users.id, memberships.userId))
    .where(and(eq(memberships.organizationId, organizationId), eq(sql`lower(${users.email})`, address)));
  if (member) throw new MembershipRefused(ALREADY_A_MEMBER(address));
  const waitSeconds = await takeInvitationMail(organizationId, address);
  if (waitSeconds > 0) return waitSeconds;
  const [organization] = await db.select().from(organizations).where(eq(organizations.id, organizationId));
  if (!organization) throw new Error(`Organization ${organizationId} does not exist.`);
  const invitedBy = actorName(actor);
  // The upsert comes first and locks the invitation's row until the transaction ends: two invitations of one
  // address at once run one after the other, and the second's revoke sees (and ends) the first's link.
  const { token } = await db.transaction(async (tx) => {
    const [row] = await tx
      .insert(invitations)
      .values({
        id: randomUUID(),
        organizationId,
        email: address,
        role,
        invitedBy,
        expiresAt: new Date(Date.now() + VALID_MS),
      })
      .onConflictDoUpdate({
        target: [invitations.organizationId, invitations.email],
        set: { role, invitedBy, expiresAt: new Date(Date.now() + VALID_MS) },
      })
      .returning();
    await revokeOneTimeTokens(PURPOSE, { invitationId: row.id }, tx);
    const issued = await issueOneTimeToken(
      PURPOSE,
      { invitationId: row.id },
      { validMs: VALID_MS, data: { email: address } },
      tx,
    );
    await recordActivity(tx, {
      organizationId,
      actor,
      action: "member.invited",
      summary: `Invited ${address} as ${ROLE_NAMES[role]}.`,
    });
    return issued;
  });
  await mailInvitation(request, { organizationId, email: address, role, invitedBy }, organization.name, token);
  return 0;
}

/**
 * An invitation form's post (the team page's Owner, an administrator): the address and role checked, the mail
 * sent, and back to `back` with what happened; a refusal keeps what was typed next to its message.
 */
export async function postInvitation(
  request: Request,
  organizationId: string,
  formData: FormData,
  actor: ActivityActor,
  back: string,
) {
  const values = { email: String(formData.get("email") ?? ""), role: String(formData.get("role") ?? "") };
  const parsed = invitationSchema.safeParse(values);
  if (!parsed.success) {
    const fieldErrors = Object.fromEntries(parsed.error.issues.map((issue) => [issue.path[0], issue.message]));
    return json({ fieldErrors, values }, { status: 422 });
  }
  try {
    const wait = await inviteMember(request, organizationId, parsed.data, actor);
    if (wait > 0) return json({ formError: waitMessage("invitations", wait), values }, { status: 429 });
  } catch (error) {
    if (error instanceof MembershipRefused) return json({ formError: error.message, values }, { status: 422 });
    throw error;
  }
  return redirectWithToast(request, back, {
    kind: "success",
    message: `We sent an invitation to ${parsed.data.email} as ${ROLE_NAMES[parsed.data.role]}.`,
  });
}

/** A new link for a pending invitation, valid 7 days again; the old link stops working. 0, or seconds to wait. */
export async function resendInvitation(
  request: Request,
  organizationId: string,
  invitationId: string,
  actor: ActivityActor,
): Promise<number> {
  const [invitation] = await db
    .select({ invitation: invitations, organizationName: organizations.name })
    .from(invitations)
    .innerJoin(organizations, eq(organizations.id, invitations.organizationId))
    .where(and(eq(invitations.id, invitationId), eq(invitations.organizationId, organizationId)));
  if (!invitation) throw new MembershipRefused(INVITATION_GONE);
  const waitSeconds = await takeInvitationMail(organizationId, invitation.invitation.email);
  if (waitSeconds > 0) return waitSeconds;
  // The update comes first and locks the invitation's row: two re-sends at once run one after the other, and the
  // second's revoke ends the first's link. An invitation revoked or accepted meanwhile is gone: nothing to send.
  const issued = await db.transaction(async (tx) => {
    const [still] = await tx
      .update(invitations)
      .set({ expiresAt: new Date(Date.now() + VALID_MS) })
      .where(eq(invitations.id, invitationId))
      .returning({ id: invitations.id });
    if (!still) return null;
    await revokeOneTimeTokens(PURPOSE, { invitationId }, tx);
    const link = await issueOneTimeToken(
      PURPOSE,
      { invitationId },
      { validMs: VALID_MS, data: { email: invitation.invitation.email } },
      tx,
    );
    await recordActivity(tx, {
      organizationId,
      actor,
      action: "member.invitation_resent",
      summary: `Sent the invitation to ${invitation.invitation.email} again.`,
    });
    return link;
  });
  if (!issued) throw new MembershipRefused(INVITATION_GONE);
  await mailInvitation(request, invitation.invitation, invitation.organizationName, issued.token);
  return 0;
}

/** Revokes a pending invitation: it and its links are gone. */
export async function revokeInvitation(organizationId: string, invitationId: string, actor: ActivityActor) {
  await db.transaction(async (tx) => {
    const [gone] = await tx
      .delete(invitations)
      .where(and(eq(invitations.id, invitationId), eq(invitations.organizationId, organizationId)))
      .returning();
    if (!gone) throw new MembershipRefused(INVITATION_GONE);
    await recordActivity(tx, {
      organizationId,
      actor,
      action: "member.invitation_revoked",
      summary: `Revoked the invitation to ${gone.email}.`,
    });
  });
}

/** What an invitation's link shows before it is used: the organization, the role, the address. */
export interface InvitationOffer {
  organizationName: string;
  role: Role;
  email: string;
  invitedBy: string;
  /** Whether an account has the address: then it is accepted by signing in to that account. */
  hasAccount: boolean;
}

export async function invitationOffer(token: string): Promise<InvitationOffer | null> {
  const grant = await peekOneTimeToken(PURPOSE, token);
  if (!grant?.invitationId) return null;
  const [row] = await db
    .select({ invitation: invitations, organizationName: organizations.name })
    .from(invitations)
    .innerJoin(organizations, eq(organizations.id, invitations.organizationId))
    .where(eq(invitations.id, grant.invitationId));
  if (!row) return null;
  return {
    organizationName: row.organizationName,
    role: row.invitation.role,
    email: row.invitation.email,
    invitedBy: row.invitation.invitedBy,
    hasAccount: (await findUserByEmail(row.invitation.email)) !== undefined,
  };
}

export type Acceptance =
  { joined: { userId: string; organizationId: string } } | { refused: string } | { signInAs: string };

type Joiner =
  { kind: "signed-in"; user: UserRecord } | { kind: "new"; firstName: string; lastName: string; passwordHash: string };

/** The invited address got an account while the invitation was being accepted (a sign-up at the same moment). */
class AddressTaken extends Error {
  override name = "AddressTaken";
  constructor(readonly email: string) {
    super(`An account with ${email} was made meanwhile.`);
  }
}

/**
 * Uses the link, once: the person joins the organization with the invitation's role, in the transaction that
 * spends the link and deletes the invitation. A signed-in person joins only with the invited address; someone
 * new gets an account only when no account has the address (else: sign in to it first). The link is spent by one
 * delete that returns it, so of two acceptances at once one joins; the new account is inserted on the unique
 * address, so one made at the same moment by a sign-up rolls this one back, link included.
 */
export async function acceptInvitation(token: string, joiner: Joiner): Promise<Acceptance> {
  try {
    return await db.transaction(async (tx): Promise<Acceptance> => {
      const grant = await peekOneTimeToken(PURPOSE, token, tx);
      const [invitation] = grant?.invitationId
        ? await tx.select().from(invitations).where(eq(invitations.id, grant.invitationId))
        : [];
      if (!invitation) return { refused: INVITATION_GONE };
      if (joiner.kind === "signed-in" && joiner.user.email.toLowerCase() !== invitation.email) {
        return {
          refused: `This invitation is for ${invitation.email}, and you are signed in as ${joiner.user.email}. Sign out, then open the link again.`,
        };
      }
      if (joiner.kind === "new" && (await findUserByEmail(invitation.email, tx))) return { signInAs: invitation.email };
      if (!(await redeemOneTimeToken(PURPOSE, token, tx))) return { refused: INVITATION_GONE };
      const user = joiner.kind === "signed-in" ? joiner.user : await newAccount(tx, invitation.email, joiner);
      if (joiner.kind === "signed-in" && !user.emailVerifiedAt) {
        await tx.update(users).set({ emailVerifiedAt: new Date() }).where(eq(users.id, user.id));
      }
      await tx
        .insert(memberships)
        .values({ organizationId: invitation.organizationId, userId: user.id, role: invitation.role })
        .onConflictDoNothing();
      await tx.delete(invitations).where(eq(invitations.id, invitation.id));
      await recordActivity(tx, {
        organizationId: invitation.organizationId,
        actor: memberActor(user),
        action: "member.joined",
        summary: `Joined as ${ROLE_NAMES[invitation.role]}, invited by ${invitation.invitedBy}.`,
      });
      return { joined: { userId: user.id, organizationId: invitation.organizationId } };
    });
  } catch (error) {
    if (error instanceof AddressTaken) return { signInAs: error.email };
    throw error;
  }
}

/** The invitee's new account; AddressTaken (rolling the acceptance back) when the address has one by now. */
async function newAccount(
  tx: PortalTransaction,
  email: string,
  joiner: Extract<Joiner, { kind: "new" }>,
): Promise<UserRecord> {
  const [user] = await tx
    .insert(users)
    .values({
      id: randomUUID(),
      email,
      searchEmail: searchKey(email),
      passwordHash: joiner.passwordHash,
      firstName: joiner.firstName,
      lastName: joiner.lastName,
      // The link reached this address: it is verified.
      emailVerifiedAt: new Date(),
    })
    .onConflictDoNothing()
    .returning();
  if (!user) throw new AddressTaken(email);
  return user;
}
