import { and, eq } from "drizzle-orm";
import { z } from "zod";
import { hubInstallationLicenses, hubInstallations, licenses } from "~/server/platform/database/tables.server";
import { db } from "~/server/platform/database/db.server";
import { getHubs, HubError } from "~/server/hubs/index.server";
import { openSecret } from "~/server/platform/wizards/sealed.server";
import type { JobKind } from "~/server/platform/jobs/runner.server";

const uploadInput = z.object({
  hubId: z.string(),
  licenseId: z.string(),
  /** The license's terms version this upload is for: a newer one has its own job. */
  termsVersion: z.number().int(),
});
type UploadInput = z.infer<typeof uploadInput>;

export type UploadResult = { uploaded: boolean; superseded: boolean };

export const UPLOAD_FAILED =
  "The portal could not upload the new license file to this Hub: download it and upload it to the Hub.";

async function markUpload(input: UploadInput, state: "uploaded" | "failed", message: string | null = null) {
  await db
    .update(hubInstallationLicenses)
    .set({ uploadState: state, uploadMessage: message })
    .where(
      and(
        eq(hubInstallationLicenses.hubInstallationId, input.hubId),
        eq(hubInstallationLicenses.licenseId, input.licenseId),
      ),
    );
}

/**
 * A license's new file (a renewal, a change at the provider) uploaded to a cloud Hub the portal deployed, with the
 * Hub administrator's session the deployment kept sealed on the Hub installation (decision 173). The Hub takes a
 * newer file of a license it holds in place of the old one, so a repeat is harmless. A refusal, or failures past
 * the runner's retries, leave the Hub marked: /hubs and /licenses then say so and offer the file.
 */
export const hubLicenseUpload: JobKind<UploadInput, { upload: UploadResult }> = {
  name: "hub-license-upload",
  input: uploadInput,
  steps: [
    {
      name: "upload",
      async run({ ownerId, input }) {
        const [hub] = await db
          .select()
          .from(hubInstallations)
          .where(and(eq(hubInstallations.id, input.hubId), eq(hubInstallations.ownerId, ownerId)));
        const [license] = await db
          .select()
          .from(licenses)
          .where(and(eq(licenses.id, input.licenseId), eq(licenses.ownerId, ownerId)));
        if (!hub || !license) return { uploaded: false, superseded: true };
        // A newer file came since: its own job uploads that one.
        if (license.termsVersion > input.termsVersion) return { uploaded: false, superseded: true };
        const jwt = hub.adminToken ? openSecret(hub.adminToken) : null;
        if (!hub.url || !jwt) {
          await markUpload(input, "failed", UPLOAD_FAILED);
          return { uploaded: false, superseded: false };
        }
        try {
          await getHubs().uploadLicense(hub.url, license.licenseCode, jwt);
        } catch (error) {
          await markUpload(input, "failed", UPLOAD_FAILED);
          // A refusal will not pass; anything else is retried by the runner (the page says so meanwhile).
          if (error instanceof HubError && error.kind === "final") return { uploaded: false, superseded: false };
          throw error;
        }
        await markUpload(input, "uploaded");
        return { uploaded: true, superseded: false };
      },
    },
  ],
  failure: (step) => ({ step, title: "License not uploaded", message: UPLOAD_FAILED }),
};
