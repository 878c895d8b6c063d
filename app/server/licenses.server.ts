import { desc, eq } from "drizzle-orm";
import { daysLeft, licenseStatus } from "~/domain/license-status";
import { hubInstallations, licenses } from "~db/schema";
import { db } from "./db.server";

/** The user's licenses, newest first, with the derived status and days left. */
export function listLicenses(ownerId: string, now = new Date()) {
  return db
    .select()
    .from(licenses)
    .where(eq(licenses.ownerId, ownerId))
    .orderBy(desc(licenses.validFrom))
    .all()
    .map((license) => ({
      ...license,
      status: licenseStatus(license.validTo, now),
      daysLeft: daysLeft(license.validTo, now),
    }));
}

export type LicenseListItem = ReturnType<typeof listLicenses>[number];

export function listHubInstallations(ownerId: string) {
  return db
    .select()
    .from(hubInstallations)
    .where(eq(hubInstallations.ownerId, ownerId))
    .orderBy(desc(hubInstallations.lastSeen))
    .all();
}
