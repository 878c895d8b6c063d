import { and, eq, lt } from "drizzle-orm";
import { licenseEndOf } from "~/domain/renewals";
import { tierOf } from "~/domain/subscription";
import { hubInstallationLicenses, hubInstallations, licenses } from "~/server/platform/database/tables.server";
import type { BillingAccount } from "~/server/accounts/index.server";
import { db } from "~/server/platform/database/db.server";
import { enqueueJob } from "~/server/platform/jobs/runner.server";
import { hubLicenseUpload } from "./hub-license-upload.server";
import { licenseFileOf } from "~/server/subscriptions/license-issuing.server";
import { subscriptionCopy } from "./copies.server";

/**
 * A license follows its subscription: whatever the provider says of the subscription (a paid renewal, a failed
 * one, users or plan changed by support, auto-renew turned off, a cancellation) becomes the license's terms and a
 * newly signed file at the same Download link, and reaches the Hubs using it. The terms come from the portal's
 * copy of the subscription by the rules of app/domain/renewals.ts.
 */

/** What the license now says, and whether its file was signed anew. */
export interface FollowedLicense {
  licenseId: string;
  resigned: boolean;
}

/** The account's copy of the subscription and the license it pays for; null when either is missing. */
export async function subscriptionWithLicense(account: BillingAccount, subscriptionId: string) {
  const copy = await subscriptionCopy(account, subscriptionId);
  const [license] = await db
    .select()
    .from(licenses)
    .where(and(eq(licenses.ownerId, account.ownerId), eq(licenses.subscriptionId, subscriptionId)));
  return copy && license ? { copy, license } : null;
}

/**
 * Brings the subscription's license in line with the account's copy of it. Idempotent, and safe from two
 * processes at once: the license records the copy's version it follows (terms_version) and is only written from a
 * newer one. Null when the account has no copy or no license of this subscription.
 */
export async function licenseFollowsSubscription(
  account: BillingAccount,
  subscriptionId: string,
): Promise<FollowedLicense | null> {
  const found = await subscriptionWithLicense(account, subscriptionId);
  if (!found) return null;
  const { copy, license } = found;
  if (copy.resourceVersion <= license.termsVersion) return { licenseId: license.id, resigned: false };
  const terms = {
    nodes: copy.planQuantity,
    planType: tierOf(copy.planId) ?? license.planType,
    validTo: licenseEndOf(copy) ?? license.validTo,
  };
  const unchanged =
    terms.nodes === license.nodes &&
    terms.planType === license.planType &&
    terms.validTo.getTime() === license.validTo.getTime();
  const written = await db
    .update(licenses)
    .set(
      unchanged
        ? { termsVersion: copy.resourceVersion }
        : { ...terms, licenseCode: licenseFileOf({ ...license, ...terms }), termsVersion: copy.resourceVersion },
    )
    .where(and(eq(licenses.id, license.id), lt(licenses.termsVersion, copy.resourceVersion)))
    .returning({ id: licenses.id });
  const resigned = !unchanged && written.length > 0;
  if (resigned) await sendToHubs(account, license.id, copy.resourceVersion);
  return { licenseId: license.id, resigned };
}

/** Why the portal cannot put a Hub's new license file on it itself: the page then offers the file. */
export const UPLOAD_BY_HAND = {
  onPremise: "This Hub runs on your own server: download the new license file and upload it to the Hub.",
  noSession: "The portal cannot sign in to this Hub: download the new license file and upload it to the Hub.",
} as const;

/**
 * The license's new file goes to every Hub that uses it: a cloud Hub the portal deployed (it keeps the Hub's
 * administrator session, sealed) gets it uploaded by a durable job; any other Hub is marked, so that /hubs and
 * /licenses say so and offer the file.
 */
async function sendToHubs(account: BillingAccount, licenseId: string, termsVersion: number): Promise<void> {
  const hubs = await db
    .select({ id: hubInstallations.id, type: hubInstallations.type, adminToken: hubInstallations.adminToken })
    .from(hubInstallationLicenses)
    .innerJoin(hubInstallations, eq(hubInstallations.id, hubInstallationLicenses.hubInstallationId))
    .where(and(eq(hubInstallationLicenses.licenseId, licenseId), eq(hubInstallations.ownerId, account.ownerId)));
  for (const hub of hubs) {
    const uploadable = hub.type === "cloud" && hub.adminToken !== null;
    await db
      .update(hubInstallationLicenses)
      .set(
        uploadable
          ? { uploadState: "pending", uploadMessage: null }
          : {
              uploadState: "failed",
              uploadMessage: hub.type === "cloud" ? UPLOAD_BY_HAND.noSession : UPLOAD_BY_HAND.onPremise,
            },
      )
      .where(
        and(eq(hubInstallationLicenses.hubInstallationId, hub.id), eq(hubInstallationLicenses.licenseId, licenseId)),
      );
    if (uploadable) {
      await enqueueJob(hubLicenseUpload, {
        ownerId: account.ownerId,
        idempotencyKey: `hub-license-upload:${hub.id}:${licenseId}:${termsVersion}`,
        input: { hubId: hub.id, licenseId, termsVersion },
      });
    }
  }
}
