import { and, desc, eq, lt } from "drizzle-orm";
import { activity } from "~/server/platform/database/tables.server";
import { db, type PortalTransaction } from "~/server/platform/database/db.server";

/**
 * The activity log: what happened to an organization and who did it (a member, or GateKeeper for the billing
 * provider, the Hub service and the portal's own jobs). An entry is written by `recordActivity` in the same
 * transaction as the change it records, so the log never claims a change that was rolled back nor misses one
 * that was kept; nothing updates an entry afterwards (the database refuses it).
 */

/** The name the log gives to whatever is not a member: the billing provider, the Hub service, the portal. */
export const GATEKEEPER = "GateKeeper";

export const ACTIVITY_ACTIONS = [
  "organization.created",
  "member.signed_in_new_device",
  "member.invited",
  "member.invitation_resent",
  "member.invitation_revoked",
  "member.joined",
  "member.role_changed",
  "member.removed",
  "member.left",
  "order.placed",
  "license.update_placed",
  "license.auto_renew_changed",
  "invoice.payment_placed",
  "invoice.corrected",
  "subscription.renewed",
  "subscription.renewal_reminded",
  "subscription.cancelled",
  "payment.succeeded",
  "payment.failed",
  "hub.deployment_started",
  "trial.started",
  "card.added",
  "card.replaced",
  "billing_profile.updated",
  "shipping_address.updated",
  "customer.created",
  "customer.updated",
  "customer.moved",
  "quote.made",
  "quote.sent",
  "quote.accepted",
  "quote.withdrawn",
  "quote.ordered",
] as const;
export type ActivityAction = (typeof ACTIVITY_ACTIONS)[number];

/** Who did it: a member (their name as it is now is kept with the entry), or GateKeeper. */
export type ActivityActor = { userId: string; name: string } | typeof GATEKEEPER;

export const memberActor = (user: {
  id: string;
  firstName: string;
  lastName: string;
}): Exclude<ActivityActor, typeof GATEKEEPER> => ({
  userId: user.id,
  name: `${user.firstName} ${user.lastName}`.trim(),
});

export interface ActivityEntry {
  organizationId: string;
  actor: ActivityActor;
  action: ActivityAction;
  /** One sentence as the log shows it, in the product's words ("Placed an order: ..."). */
  summary: string;
}

/** The transaction of a change: an entry is only ever written with one, so it commits with its change or not at all. */
export type ChangeTransaction = PortalTransaction;

/** Records an entry in `tx`, the transaction that makes the change it records: both are kept, or neither. */
export async function recordActivity(tx: ChangeTransaction, entry: ActivityEntry): Promise<void> {
  const { actor } = entry;
  await tx.insert(activity).values({
    organizationId: entry.organizationId,
    actorUserId: actor === GATEKEEPER ? null : actor.userId,
    actorName: actor === GATEKEEPER ? GATEKEEPER : actor.name,
    action: entry.action,
    summary: entry.summary,
  });
}

/**
 * Records a change that only the billing provider keeps (a card, the billing profile): the portal holds no copy
 * of it, so the entry is the portal's whole record of the change, written once the provider confirmed it. A change
 * the portal also copies (a subscription's auto-renew) is recorded with the copy, in its transaction, instead.
 */
export async function recordProviderOnlyChange(entry: ActivityEntry): Promise<void> {
  await db.transaction((tx) => recordActivity(tx, entry));
}

export interface ActivityView {
  id: number;
  actorName: string;
  byGateKeeper: boolean;
  action: string;
  summary: string;
  createdAt: Date;
}

/**
 * One page of the organization's log, newest first, and whether older entries follow: keyset paging on the
 * entry's id (`before`: the last id of the page before), so the thousandth page costs what the first does.
 */
export async function activityPage(
  organizationId: string,
  { before, pageSize }: { before: number | null; pageSize: number },
): Promise<{ entries: ActivityView[]; olderBefore: number | null }> {
  const rows = await db
    .select({
      id: activity.id,
      actorName: activity.actorName,
      actorUserId: activity.actorUserId,
      action: activity.action,
      summary: activity.summary,
      createdAt: activity.createdAt,
    })
    .from(activity)
    .where(
      before === null
        ? eq(activity.organizationId, organizationId)
        : and(eq(activity.organizationId, organizationId), lt(activity.id, before)),
    )
    .orderBy(desc(activity.id))
    .limit(pageSize + 1);
  const entries = rows.slice(0, pageSize).map(({ actorUserId, ...row }) => ({
    ...row,
    byGateKeeper: actorUserId === null && row.actorName === GATEKEEPER,
  }));
  return { entries, olderBefore: rows.length > pageSize ? entries[entries.length - 1].id : null };
}
