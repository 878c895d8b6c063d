import { randomUUID } from "node:crypto";
import { eq, sql } from "drizzle-orm";
import { currentFilePrefix, signLicenseFile } from "~/server/hubs/license-files.server";
import type { PortalExecutor } from "~/server/platform/database/portal-database.server";
import { licenses } from "~/server/platform/database/tables.server";
import { realNow } from "~/server/platform/real-time.server";

// The license files the portal issues: each license row carries its file, signed in the Hub's format
// (hubs/license-files) when the row is made, and signed again when the key or the format changes.

type LicenseRow = typeof licenses.$inferSelect;

/** The terms of a license row, signed now. */
export function licenseFileOf(
  row: Pick<
    LicenseRow,
    "externalLicenseId" | "name" | "nodes" | "planType" | "hasCloudSupport" | "validFrom" | "validTo" | "type"
  >,
  issuedAt = realNow(),
): string {
  return signLicenseFile({
    id: row.externalLicenseId,
    organization: row.name,
    users: row.nodes,
    plan: row.planType,
    cloudSupport: row.hasCloudSupport,
    validFrom: row.validFrom.toISOString(),
    validTo: row.validTo.toISOString(),
    type: row.type,
    issuedAt: issuedAt.toISOString(),
  });
}

type NewLicenseRow = typeof licenses.$inferInsert;
type LicenseFacts = Pick<
  LicenseRow,
  "externalLicenseId" | "name" | "nodes" | "planType" | "type" | "hasCloudSupport" | "validFrom" | "validTo"
>;

/**
 * A new license row with its signed file, for the seed and for orders (no database access here, so the
 * seed can use it while the database starts).
 */
export function licenseRow(
  ownerId: string,
  facts: LicenseFacts,
  extra: Pick<
    NewLicenseRow,
    "subscriptionId" | "isUsed" | "termsVersion" | "poNumber" | "quoteNumber" | "licenseeId"
  > = {},
): NewLicenseRow {
  return { id: randomUUID(), ownerId, ...facts, licenseCode: licenseFileOf(facts), ...extra };
}

/**
 * The start-up step that re-issues every license whose file is not signed by the current key in the
 * current format: licenses from before signed files (HMAC codes), and all of them after the key changed.
 * Files of the current key start with the same `protected` header, so finding the others is one scan.
 */
export async function reissueLicenseFiles(db: PortalExecutor, now = realNow()): Promise<number> {
  const prefix = currentFilePrefix();
  return db.transaction(async (tx) => {
    const stale = await tx
      .select()
      .from(licenses)
      .where(sql`substr(${licenses.licenseCode}, 1, ${prefix.length}) <> ${prefix}`);
    for (const row of stale) {
      await tx
        .update(licenses)
        .set({ licenseCode: licenseFileOf(row, now) })
        .where(eq(licenses.id, row.id));
    }
    return stale.length;
  });
}
