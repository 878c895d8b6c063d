import { randomBytes, randomUUID } from "node:crypto";
import { and, desc, eq } from "drizzle-orm";
import { daysLeft, licenseStatus } from "~/domain/license-status";
import { hubInstallations, licenses } from "~db/schema";
import { db } from "./db.server";
import { signLicenseCode } from "./license-codes.server";

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

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * The license a new recurring subscription pays for, valid for its current term. Idempotent: the
 * subscription's license is returned when it exists, so a resumed order job never makes a second one.
 */
export function createLicenseForSubscription(order: {
  ownerId: string;
  subscriptionId: string;
  name: string;
  nodes: number;
  planType: "core" | "advanced" | "ultimate";
  hasCloudSupport: boolean;
  validTo: Date | null;
}) {
  const existing = db
    .select()
    .from(licenses)
    .where(and(eq(licenses.ownerId, order.ownerId), eq(licenses.subscriptionId, order.subscriptionId)))
    .get();
  if (existing) return existing;
  const validFrom = new Date();
  const validTo = order.validTo ?? new Date(validFrom.getTime() + 30 * DAY_MS);
  const externalLicenseId = `GK-${validFrom.getUTCFullYear()}-${randomBytes(4).toString("hex").toUpperCase()}`;
  const terms = {
    externalLicenseId,
    name: order.name,
    nodes: order.nodes,
    planType: order.planType,
    type: "recurring",
    hasCloudSupport: order.hasCloudSupport,
    validFrom: validFrom.toISOString(),
    validTo: validTo.toISOString(),
  };
  return db
    .insert(licenses)
    .values({
      id: randomUUID(),
      ownerId: order.ownerId,
      subscriptionId: order.subscriptionId,
      externalLicenseId,
      name: order.name,
      nodes: order.nodes,
      planType: order.planType,
      type: "recurring",
      hasCloudSupport: order.hasCloudSupport,
      validFrom,
      validTo,
      licenseCode: signLicenseCode(terms),
    })
    .returning()
    .get();
}

/** Whether the user holds a recurring license (the Store then asks before starting a new one). */
export function hasRecurringLicense(ownerId: string): boolean {
  return Boolean(
    db
      .select({ id: licenses.id })
      .from(licenses)
      .where(and(eq(licenses.ownerId, ownerId), eq(licenses.type, "recurring")))
      .get(),
  );
}
