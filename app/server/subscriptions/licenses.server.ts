import { portalNow } from "~/server/billing/index.server";
import { randomBytes } from "node:crypto";
import { and, count, desc, eq, gt, isNotNull, or, Param, sql, type SQL } from "drizzle-orm";
import { daysLeft, licenseStatus } from "~/domain/license-status";
import { renewalStateOf } from "~/domain/renewals";
import {
  hubInstallationLicenses,
  licenseCounts,
  licenses,
  subscriptions,
} from "~/server/platform/database/tables.server";
import { db } from "~/server/platform/database/db.server";
import { payableInvoiceIdOf } from "./invoices.server";
import { licenseKeyOf } from "~/server/hubs/license-files.server";
import { licenseRow } from "~/server/subscriptions/license-issuing.server";

type LicenseRow = typeof licenses.$inferSelect;

const NEWEST_FIRST = [desc(licenses.validFrom), desc(licenses.id)];

/** A license as tables show it: the row (or the columns read of it) with its key, the derived status and days left. */
export function licenseListItem<Row extends Pick<LicenseRow, "licenseCode" | "validTo">>(license: Row, now: Date) {
  return {
    ...license,
    key: licenseKeyOf(license.licenseCode),
    status: licenseStatus(license.validTo, now),
    daysLeft: daysLeft(license.validTo, now),
  };
}

/** The user's licenses, newest first, with their key, the derived status and days left. */
export async function listLicenses(ownerId: string, now?: Date) {
  const at = now ?? (await portalNow());
  const rows = await db
    .select()
    .from(licenses)
    .where(eq(licenses.ownerId, ownerId))
    .orderBy(...NEWEST_FIRST);
  return rows.map((license) => licenseListItem(license, at));
}

/** One page of the licenses matching `where`, newest first, with how many match: counted and paged in SQL. */
async function pageOf(where: SQL | undefined, page: number, pageSize: number, now: Date) {
  const [counted] = await db.select({ total: count() }).from(licenses).where(where);
  const rows = await db
    .select()
    .from(licenses)
    .where(where)
    .orderBy(...NEWEST_FIRST)
    .limit(pageSize)
    .offset((page - 1) * pageSize);
  const total = counted?.total ?? 0;
  return { total, licenses: rows.map((license) => licenseListItem(license, now)) };
}

// Prepared once, like the user lookup: the licenses page reads its total and one page on every visit.
const licenseTotalOf = db
  .select({ total: licenseCounts.total })
  .from(licenseCounts)
  .where(eq(licenseCounts.ownerId, sql.placeholder("ownerId")))
  .prepare("license_total_of");
/** Why the license's new file is not on one of its Hubs, if it is not. */
const hubUploadProblemOfLicense = sql<string | null>`(select ${hubInstallationLicenses.uploadMessage}
  from ${hubInstallationLicenses}
  where ${hubInstallationLicenses.licenseId} = ${licenses.id} and ${hubInstallationLicenses.uploadState} = 'failed'
  limit 1)`;

/** The columns the licenses page shows of a license, with the portal's copy of its subscription. */
const pageColumns = {
  id: licenses.id,
  ownerId: licenses.ownerId,
  externalLicenseId: licenses.externalLicenseId,
  name: licenses.name,
  poNumber: licenses.poNumber,
  quoteNumber: licenses.quoteNumber,
  nodes: licenses.nodes,
  planType: licenses.planType,
  type: licenses.type,
  subscriptionId: licenses.subscriptionId,
  validFrom: licenses.validFrom,
  validTo: licenses.validTo,
  licenseCode: licenses.licenseCode,
  // The portal's copy of the subscription (null without one): where the license stands with it.
  subscriptionStatus: subscriptions.status,
  currentTermStart: subscriptions.currentTermStart,
  currentTermEnd: subscriptions.currentTermEnd,
  cancelledAt: subscriptions.cancelledAt,
  totalDues: subscriptions.totalDues,
  dueSince: subscriptions.dueSince,
  payableInvoiceId: payableInvoiceIdOf(licenses.subscriptionId, licenses.ownerId),
  hubUploadProblem: hubUploadProblemOfLicense,
};

const withSubscription = and(
  eq(subscriptions.id, licenses.subscriptionId),
  eq(subscriptions.ownerId, licenses.ownerId),
);

const ownLicensesNewestFirst = db
  .select(pageColumns)
  .from(licenses)
  .leftJoin(subscriptions, withSubscription)
  .where(eq(licenses.ownerId, sql.placeholder("ownerId")))
  .orderBy(...NEWEST_FIRST)
  .limit(sql.placeholder("limit"))
  .offset(sql.placeholder("offset"))
  .prepare("own_licenses_newest_first");

/** How many licenses the user holds: one row of license_counts, kept by triggers (decision 120), not a count. */
export async function licenseTotal(ownerId: string): Promise<number> {
  const [row] = await licenseTotalOf.execute({ ownerId });
  return row?.total ?? 0;
}

/**
 * The licenses an end customer a distributor manages holds: its own (its trials) and those licensed to it (bought
 * for it by a distributor, which owns and pays for them). An end customer has a handful, so the two are read with
 * one OR over the owner and licensee indexes, and counted.
 */
const heldByManaged = (organizationId: string) =>
  or(eq(licenses.ownerId, organizationId), eq(licenses.licenseeId, organizationId));

async function managedLicenseRows(organizationId: string, page: number, pageSize: number) {
  const where = heldByManaged(organizationId);
  const [rows, [counted]] = await Promise.all([
    db
      .select(pageColumns)
      .from(licenses)
      .leftJoin(subscriptions, withSubscription)
      .where(where)
      .orderBy(...NEWEST_FIRST)
      .limit(pageSize)
      .offset((page - 1) * pageSize),
    db.select({ total: count() }).from(licenses).where(where),
  ]);
  return { rows, total: counted?.total ?? 0 };
}

/**
 * One page of the organization's licenses, newest first, with the columns the licenses page shows. The page is
 * read in SQL off the (owner, valid from, id) index and the total is one row, so an account with thousands of
 * licenses costs about what one with five does (page 1; a deep page still walks the index up to its offset). An
 * end customer a distributor manages also holds the licenses bought for it (`ownerId` then the distributor's).
 */
export async function licensePage(
  organization: { id: string; managedBy: string | null },
  page: number,
  pageSize: number,
  now: Date,
) {
  const ownerId = organization.id;
  const { rows, total } = organization.managedBy
    ? await managedLicenseRows(ownerId, page, pageSize)
    : await Promise.all([
        ownLicensesNewestFirst.execute({ ownerId, limit: pageSize, offset: (page - 1) * pageSize }),
        licenseTotal(ownerId),
      ]).then(([own, ownTotal]) => ({ rows: own, total: ownTotal }));
  return {
    total,
    licenses: rows.map(
      ({ subscriptionStatus, currentTermStart, currentTermEnd, cancelledAt, totalDues, dueSince, ...license }) => ({
        ...licenseListItem(license, now),
        renewal:
          license.type === "recurring" && subscriptionStatus !== null && totalDues !== null
            ? renewalStateOf(
                { status: subscriptionStatus, currentTermStart, currentTermEnd, cancelledAt, totalDues, dueSince },
                license.validTo,
              )
            : null,
      }),
    ),
  };
}

/**
 * The signed license file of one of the organization's licenses (its own, or one bought for it by its distributor:
 * licensed to it); null for anyone else's or an unknown id.
 */
export async function licenseFileFor(organizationId: string, licenseId: string) {
  const [license] = await db
    .select({ externalLicenseId: licenses.externalLicenseId, file: licenses.licenseCode })
    .from(licenses)
    .where(
      and(
        eq(licenses.id, licenseId),
        or(eq(licenses.ownerId, organizationId), eq(licenses.licenseeId, organizationId)),
      ),
    );
  return license ? { fileName: `gatekeeper-license-${license.externalLicenseId}.json`, content: license.file } : null;
}

// The home page's figures are read on every visit: prepared once, one statement, the total from the kept count and
// the active ones counted in SQL on the (owner, valid to) index. An owner without licenses has no count row.
const activeLicenses = db
  .select({ total: count() })
  .from(licenses)
  .where(
    and(
      eq(licenses.ownerId, licenseCounts.ownerId),
      // The bound is a Date, written the way the engine keeps the column.
      gt(licenses.validTo, new Param(sql.placeholder("now"), licenses.validTo)),
    ),
  );
const licenseCountsByStatus = db
  .select({ total: licenseCounts.total, active: sql<number>`(${activeLicenses})`.mapWith(Number) })
  .from(licenseCounts)
  .where(eq(licenseCounts.ownerId, sql.placeholder("ownerId")))
  .prepare("license_counts_by_status");
/**
 * How many of the organization's licenses are active (valid to in the future) and expired. An end customer a
 * distributor manages also holds the licenses bought for it: its handful are counted in SQL.
 */
export async function countLicensesByStatus(organization: { id: string; managedBy: string | null }, now?: Date) {
  const at = now ?? (await portalNow());
  const ownerId = organization.id;
  // A license is active while valid-to is in the future (licenseStatus).
  const [counted] = organization.managedBy
    ? await db
        .select({
          total: count(),
          active: sql<number>`count(case when ${gt(licenses.validTo, at)} then 1 end)`.mapWith(Number),
        })
        .from(licenses)
        .where(heldByManaged(ownerId))
    : await licenseCountsByStatus.execute({ ownerId, now: at });
  const total = counted?.total ?? 0;
  const active = counted?.active ?? 0;
  return { active, expired: total - active };
}

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * The license a new recurring subscription pays for, valid for its current term. Idempotent: the
 * subscription's license is returned when it exists, so a resumed order job never makes a second one.
 */
export async function createLicenseForSubscription(order: {
  ownerId: string;
  subscriptionId: string;
  name: string;
  /** The distributor's end customer it is for; null for the owner's own license. */
  licenseeId?: string | null;
  nodes: number;
  planType: "core" | "advanced" | "ultimate";
  hasCloudSupport: boolean;
  validTo: Date | null;
  /** The order's purchase order number, shown on the license's row. */
  poNumber?: string | null;
  /** The number of the quote it was ordered from, shown on the license's row. */
  quoteNumber?: string | null;
}) {
  const ofSubscription = async () => {
    const [license] = await db
      .select()
      .from(licenses)
      .where(and(eq(licenses.ownerId, order.ownerId), eq(licenses.subscriptionId, order.subscriptionId)));
    return license;
  };
  const existing = await ofSubscription();
  if (existing) return existing;
  const validFrom = await portalNow();
  const validTo = order.validTo ?? new Date(validFrom.getTime() + 30 * DAY_MS);
  const externalLicenseId = `GK-${validFrom.getUTCFullYear()}-${randomBytes(4).toString("hex").toUpperCase()}`;
  const { ownerId, subscriptionId, licenseeId, name, nodes, planType, hasCloudSupport } = order;
  // The unique index on subscription_id settles a race between two runners: the second insert does nothing.
  await db
    .insert(licenses)
    .values(
      licenseRow(
        ownerId,
        { externalLicenseId, name, nodes, planType, type: "recurring", hasCloudSupport, validFrom, validTo },
        { subscriptionId, licenseeId, poNumber: order.poNumber ?? null, quoteNumber: order.quoteNumber ?? null },
      ),
    )
    .onConflictDoNothing({ target: licenses.subscriptionId });
  const created = await ofSubscription();
  if (!created) throw new Error(`Subscription ${subscriptionId} belongs to another account.`);
  return created;
}

/** The purchase order number of the order that last changed the account's license, shown on its row. */
export async function recordLicensePoNumber(ownerId: string, licenseId: string, poNumber: string): Promise<void> {
  await db
    .update(licenses)
    .set({ poNumber })
    .where(and(eq(licenses.id, licenseId), eq(licenses.ownerId, ownerId)));
}

/** Whether the user holds a recurring license (the Store then asks before starting a new one). */
export async function hasRecurringLicense(ownerId: string): Promise<boolean> {
  const [license] = await db
    .select({ id: licenses.id })
    .from(licenses)
    .where(and(eq(licenses.ownerId, ownerId), eq(licenses.type, "recurring")))
    .limit(1);
  return Boolean(license);
}

const ownRecurring = (ownerId: string) =>
  and(eq(licenses.ownerId, ownerId), eq(licenses.type, "recurring"), isNotNull(licenses.subscriptionId));

/** The user's recurring license paid by this subscription, or null: another account's subscription is not theirs to change. */
export async function recurringLicenseOf(ownerId: string, subscriptionId: string) {
  const [license] = await db
    .select()
    .from(licenses)
    .where(and(ownRecurring(ownerId), eq(licenses.subscriptionId, subscriptionId)));
  return license ?? null;
}

/**
 * One page of the recurring licenses the user can upgrade (active, with a subscription), newest first: the
 * existing-license picker.
 */
export async function upgradableLicensePage(ownerId: string, page: number, pageSize: number, now?: Date) {
  const at = now ?? (await portalNow());
  return pageOf(and(ownRecurring(ownerId), gt(licenses.validTo, at)), page, pageSize, at);
}

/** The subscription behind the user's recurring license with this external id (the picker's choice), or null. */
export async function subscriptionOfLicense(ownerId: string, externalLicenseId: string): Promise<string | null> {
  const [row] = await db
    .select({ subscriptionId: licenses.subscriptionId })
    .from(licenses)
    .where(and(ownRecurring(ownerId), eq(licenses.externalLicenseId, externalLicenseId)))
    .limit(1);
  return row?.subscriptionId ?? null;
}
