import { z } from "zod";
import { DEPLOYMENT_FAILURES } from "~/domain/cloud-hub";
import { holdLicense, hubProvisioning, type ProvisioningResults } from "./hub-provisioning.server";
import type { JobKind } from "~/server/platform/jobs/runner.server";
import { clearDraftStep, type ClearDraftResult } from "~/server/platform/jobs/steps.server";
import { realNow } from "~/server/platform/real-time.server";

/** What the deployment needs, saved with the job so that a restart finishes it without the draft. */
export const deploymentInputSchema = z.object({
  draftId: z.string(),
  digest: z.string(),
  licenseId: z.string(),
  ...hubProvisioning.fields,
});
export type DeploymentInput = z.infer<typeof deploymentInputSchema>;

/**
 * A cloud Hub's deployment from a license the customer holds (decision 090): the provisioning steps
 * (./hub-provisioning.server.ts) with that license, then the wizard's draft is cleared.
 */
export const cloudHubDeployment: JobKind<DeploymentInput, ProvisioningResults & ClearDraftResult> = {
  name: "cloud-hub",
  input: deploymentInputSchema,
  steps: [...hubProvisioning.steps<DeploymentInput>(), clearDraftStep<DeploymentInput>()],
  failure(step, error) {
    return hubProvisioning.failure(step, error) ?? { step, ...DEPLOYMENT_FAILURES.other };
  },
  // The license is the deployment's from the moment it is queued: a second one of it is refused meanwhile. The
  // wizard judged it selectable by the portal's clock just before; inside the queueing transaction, which takes no
  // other connection, the re-check reads real time.
  reserve: (job, tx) => holdLicense(job, job.input.licenseId, { executor: tx, now: realNow() }),
  release: hubProvisioning.release,
};

/** The stages a deployment's progress page lists: provisioning's, then Finish. */
export const DEPLOYMENT_STAGES = [...hubProvisioning.stages, { title: "Finish", steps: ["record-hub", "clear-draft"] }];
