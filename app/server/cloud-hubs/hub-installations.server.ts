import { portalNow } from "~/server/billing/index.server";
import { and, asc, count, desc, eq, gt, inArray, lte, or, sql, type SQL } from "drizzle-orm";
import type { HubLicenseSort, HubLicensesQuery, HubType } from "~/domain/hubs";
import { hubInstallationLicenses, hubInstallations, licenses } from "~/server/platform/database/tables.server";
import { db } from "~/server/platform/database/db.server";
import { licenseListItem } from "~/server/subscriptions/index.server";

// The Hubs page is read on every visit: prepared once, counted and paged in SQL on the (owner, last seen)
// and (owner, type, last seen) indexes, so its cost does not grow with how many Hubs an account holds.
const ofOwner = eq(hubInstallations.ownerId, sql.placeholder("ownerId"));
const ofOwnerAndType = and(ofOwner, eq(hubInstallations.type, sql.placeholder("type")));

/**
 * A license of the Hub whose new file the portal could not put on it (renewed, or changed at the provider). Its
 * conditions use eq() (db.server says why); the selected column may stay bare: only licenses has an `id`.
 */
const notUploaded = (column: typeof licenses.id | typeof hubInstallationLicenses.uploadMessage) =>
  sql<string | null>`(select ${column} from ${hubInstallationLicenses}
    inner join ${licenses} on ${eq(licenses.id, hubInstallationLicenses.licenseId)}
    where ${and(eq(hubInstallationLicenses.hubInstallationId, hubInstallations.id), eq(hubInstallationLicenses.uploadState, "failed"))}
    limit 1)`;

const hubCount = (name: string, where: SQL | undefined) =>
  db.select({ total: count() }).from(hubInstallations).where(where).prepare(name);
const hubRows = (name: string, where: SQL | undefined) =>
  db
    .select({
      id: hubInstallations.id,
      type: hubInstallations.type,
      url: hubInstallations.url,
      ip: hubInstallations.ip,
      lastSeen: hubInstallations.lastSeen,
      version: hubInstallations.version,
      computers: hubInstallations.computers,
      users: hubInstallations.users,
      maxUsers: hubInstallations.maxUsers,
      devices: hubInstallations.devices,
      credentials: hubInstallations.credentials,
      locksThisMonth: hubInstallations.locksThisMonth,
      locksThisYear: hubInstallations.locksThisYear,
      unlocksThisMonth: hubInstallations.unlocksThisMonth,
      unlocksThisYear: hubInstallations.unlocksThisYear,
      webCredentialsUsedThisMonth: hubInstallations.webCredentialsUsedThisMonth,
      webCredentialsUsedThisYear: hubInstallations.webCredentialsUsedThisYear,
      notUploadedLicenseId: notUploaded(licenses.id),
      notUploadedMessage: notUploaded(hubInstallationLicenses.uploadMessage),
    })
    .from(hubInstallations)
    .where(where)
    .orderBy(desc(hubInstallations.lastSeen), desc(hubInstallations.id))
    .limit(sql.placeholder("limit"))
    .offset(sql.placeholder("offset"))
    .prepare(name);

const allHubs = { count: hubCount("hub_total_of", ofOwner), rows: hubRows("hubs_of", ofOwner) };
const ofHolder = or(ofOwner, eq(hubInstallations.licenseeId, sql.placeholder("ownerId")));
const ofHolderAndType = and(ofHolder, eq(hubInstallations.type, sql.placeholder("type")));
const managedHubs = {
  all: { count: hubCount("held_hub_total_of", ofHolder), rows: hubRows("held_hubs_of", ofHolder) },
  ofType: {
    count: hubCount("held_hub_total_of_type", ofHolderAndType),
    rows: hubRows("held_hubs_of_type", ofHolderAndType),
  },
};
const hubsOfType = {
  count: hubCount("hub_total_of_type", ofOwnerAndType),
  rows: hubRows("hubs_of_type", ofOwnerAndType),
};

/** The Hubs an organization holds: its own, and those made from licenses bought for it (licensed to it). */
export const hubsHeldBy = (organizationId: string) =>
  or(eq(hubInstallations.ownerId, organizationId), eq(hubInstallations.licenseeId, organizationId));

/** How many Hubs the organization holds (a managed end customer's include those made from licenses bought for it). */
export async function countHubInstallations(organization: { id: string; managedBy: string | null }): Promise<number> {
  const query = organization.managedBy ? managedHubs.all : allHubs;
  const [counted] = await query.count.execute({ ownerId: organization.id });
  return counted?.total ?? 0;
}

/**
 * One page of the organization's Hub installations (of one type, or all), most recently seen first, with how many
 * there are. An end customer a distributor manages also holds the Hubs made from licenses bought for it: it has a
 * handful, so they are read with one OR over the owner and licensee indexes.
 */
export async function hubInstallationPage(
  organization: { id: string; managedBy: string | null },
  type: HubType | "all",
  page: number,
  pageSize: number,
) {
  const ownerId = organization.id;
  const [all, ofType] = organization.managedBy ? [managedHubs.all, managedHubs.ofType] : [allHubs, hubsOfType];
  const query = type === "all" ? all : ofType;
  const params = { ownerId, type, limit: pageSize, offset: (page - 1) * pageSize };
  const [counted] = await query.count.execute(params);
  return { total: counted?.total ?? 0, hubs: await query.rows.execute(params) };
}

/** Whether the organization holds the Hub installation: a Hub's licenses are shown to its holders only. */
export async function ownsHubInstallation(organizationId: string, hubId: string): Promise<boolean> {
  const [owned] = await db
    .select({ id: hubInstallations.id })
    .from(hubInstallations)
    .where(and(eq(hubInstallations.id, hubId), hubsHeldBy(organizationId)));
  return owned !== undefined;
}

/**
 * One page of the licenses uploaded to one of the user's Hubs, filtered by status and ordered as asked,
 * with how many match. Status is derived from valid to (licenseStatus), so it filters and sorts on that.
 */
export async function hubLicensePage(
  ownerId: string,
  hubId: string,
  query: HubLicensesQuery,
  pageSize: number,
  now?: Date,
) {
  const at = now ?? (await portalNow());
  const isActive = gt(licenses.validTo, at);
  const columns: Record<HubLicenseSort, SQL | typeof licenses.name> = {
    name: licenses.name,
    nodes: sql`${licenses.nodes}`,
    status: sql`${isActive}`,
    validFrom: sql`${licenses.validFrom}`,
    validTo: sql`${licenses.validTo}`,
    daysLeft: sql`${licenses.validTo}`,
  };
  const order = query.direction === "asc" ? asc : desc;
  // The Hub's licenses, of a Hub the user owns: another account's Hub id gives none.
  const ofHub = db
    .select({ id: hubInstallationLicenses.licenseId })
    .from(hubInstallationLicenses)
    .innerJoin(hubInstallations, eq(hubInstallations.id, hubInstallationLicenses.hubInstallationId))
    .where(and(eq(hubInstallationLicenses.hubInstallationId, hubId), hubsHeldBy(ownerId)));
  const where = and(
    inArray(licenses.id, ofHub),
    query.status === "all" ? undefined : query.status === "active" ? isActive : lte(licenses.validTo, at),
  );
  const [counted] = await db.select({ total: count() }).from(licenses).where(where);
  const rows = await db
    .select()
    .from(licenses)
    .where(where)
    .orderBy(order(columns[query.sort]), order(licenses.validTo), asc(licenses.id))
    .limit(pageSize)
    .offset((query.page - 1) * pageSize);
  return { total: counted?.total ?? 0, licenses: rows.map((license) => licenseListItem(license, at)) };
}
