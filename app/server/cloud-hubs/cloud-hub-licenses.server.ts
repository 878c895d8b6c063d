import { portalNow } from "~/server/billing/index.server";
import { and, count, desc, eq, gt, isNull, or, sql } from "drizzle-orm";
import { CLOUD_HUB_EXPIRY_GRACE_MS } from "~/domain/cloud-hub";
import { licenses } from "~/server/platform/database/tables.server";
import { db } from "~/server/platform/database/db.server";

/**
 * The licenses an organization may make Hubs from: its own, and those a distributor bought for it (licensed to it;
 * the distributor still owns them). Only a managed end customer is anyone's licensee.
 */
export const licensesHeldBy = (organizationId: string) =>
  or(eq(licenses.ownerId, organizationId), eq(licenses.licenseeId, organizationId));

/**
 * A license a cloud Hub could be made from, whether or not a running job holds it: the organization's (or
 * licensed to it), unused, with cloud support, and not expired more than a day ago (what the license step offers).
 */
export function selectableFor(organizationId: string, now: Date) {
  return and(
    licensesHeldBy(organizationId),
    eq(licenses.isUsed, false),
    eq(licenses.hasCloudSupport, true),
    gt(licenses.validTo, new Date(now.getTime() - CLOUD_HUB_EXPIRY_GRACE_MS)),
  );
}

/**
 * The licenses a cloud Hub can be made from now: the selectable ones no deployment or cloud trial under way
 * holds; newest first. Filtered, counted and paged in SQL (decision 082).
 */
const selectable = (ownerId: string, now: Date) => and(selectableFor(ownerId, now), isNull(licenses.hubJobId));

/** Organization name or license id containing the search, in any case (both sides lowered, alike on both engines). */
function matching(search: string) {
  const term = search.trim();
  if (!term) return undefined;
  const pattern = `%${term.replace(/[\\%_]/g, (character) => `\\${character}`)}%`;
  return or(
    sql`lower(${licenses.name}) like lower(${pattern}) escape '\\'`,
    sql`lower(${licenses.externalLicenseId}) like lower(${pattern}) escape '\\'`,
  );
}

export async function cloudHubLicensePage(ownerId: string, search: string, page: number, pageSize: number, now?: Date) {
  const where = and(selectable(ownerId, now ?? (await portalNow())), matching(search));
  const [counted] = await db.select({ total: count() }).from(licenses).where(where);
  const rows = await db
    .select()
    .from(licenses)
    .where(where)
    .orderBy(desc(licenses.validFrom), desc(licenses.id))
    .limit(pageSize)
    .offset((page - 1) * pageSize);
  return { total: counted?.total ?? 0, licenses: rows };
}

/** The license if a cloud Hub can be made from it by this user, else null. */
export async function selectableLicense(ownerId: string, licenseId: string, now?: Date) {
  const [license] = await db
    .select()
    .from(licenses)
    .where(and(selectable(ownerId, now ?? (await portalNow())), eq(licenses.id, licenseId)));
  return license ?? null;
}
