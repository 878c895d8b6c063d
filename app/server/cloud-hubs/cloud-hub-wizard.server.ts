import { memberGuard, type Scope } from "~/server/accounts/index.server";
import { and, eq } from "drizzle-orm";
import { validationError } from "remix-validated-form";
import { CLOUD_HUB_STEP_TITLES } from "~/domain/cloud-hub-steps";
import { SUBDOMAIN_MESSAGES } from "~/domain/hub-subdomain";
import { administratorValidator } from "~/domain/cloud-hub-validators";
import {
  CLOUD_HUB_PATH,
  CLOUD_HUB_STEPS,
  checkCloudHubDraft,
  cloudHubDraftSchema,
  UNABLE_TO_VERIFY_LICENSE,
  type CloudHubDraft,
} from "~/domain/cloud-hub";
import { hubInstallations } from "~/server/platform/database/tables.server";
import { db } from "~/server/platform/database/db.server";
import { env } from "~/server/platform/config/env.server";
import { getHubs, HubError } from "~/server/hubs/index.server";
import { cloudHubDeployment, type DeploymentInput } from "./cloud-hub-job.server";
import { selectableLicense } from "./cloud-hub-licenses.server";
import { hubsHeldBy } from "./hub-installations.server";
import { defineWizard, wizardLayout, type LoadedDraft } from "~/server/platform/wizards/kit.server";
import { orderKey, placeOnce, requestDigest, type Placement } from "~/server/orders/index.server";
import { sealSecret } from "~/server/platform/wizards/sealed.server";

export const cloudHubWizard = defineWizard({
  draftName: () => "cloud-hub",
  steps: CLOUD_HUB_STEPS,
  stepTitles: CLOUD_HUB_STEP_TITLES,
  basePath: () => CLOUD_HUB_PATH,
  schema: cloudHubDraftSchema,
  check: checkCloudHubDraft,
}).at({});

/** The wizard's layout route: a drawer over the Hubs page; Close (which drops the sealed password too) goes back to it. */
export const cloudHubWizardLayout = wizardLayout(
  memberGuard,
  "hubs.deploy",
  () => ({ wizard: cloudHubWizard, view: {} }),
  "/hubs",
);

/** Whether the service would take the subdomain (checked on Next of the URL step): null, or why not, for the field. */
export async function subdomainUnavailable(subdomain: string): Promise<string | null> {
  try {
    const availability = await getHubs().checkDomain(subdomain);
    if (availability === "taken") return SUBDOMAIN_MESSAGES.taken;
    if (availability === "not_allowed") return SUBDOMAIN_MESSAGES.notAllowed;
    return null;
  } catch (error) {
    if (!(error instanceof HubError)) throw error;
    return SUBDOMAIN_MESSAGES.checkFailed;
  }
}

/** The deployment the draft describes, with its digest, or null while a step is missing. */
async function currentDeployment(
  ownerId: string,
  draft: LoadedDraft<CloudHubDraft>,
): Promise<{ digest: string; input: DeploymentInput } | null> {
  const { subdomain, region, licenseId, administrator, sealedPassword } = draft.data;
  if (!draft.id || !licenseId || !administrator || !sealedPassword) return null;
  if (!(await selectableLicense(ownerId, licenseId))) return null;
  const request = { subdomain, region, licenseId, administrator, sealedPassword };
  const digest = requestDigest(request);
  return {
    digest,
    input: { draftId: draft.id, digest, subdomain, region, licenseId, administrator, adminPassword: sealedPassword },
  };
}

/** The confirmation's key for the draft as it stands (the Review page posts it back). */
export async function deploymentKey(scope: Scope): Promise<string | null> {
  const draft = await cloudHubWizard.read(scope);
  const current = await currentDeployment(scope.organization.id, draft);
  return current && draft.id ? orderKey(cloudHubDeployment, draft.id, current.digest) : null;
}

/**
 * 'Yes, Deploy': the deployment of the confirmed draft, once (a double submit finds the first job). A license
 * another deployment holds (one still running, from a closed wizard or another tab) is refused as a license that
 * cannot be verified, the same words the deployment's own license check uses.
 */
export async function deploy(scope: Scope, postedKey: string): Promise<Placement | { refused: string }> {
  const ownerId = scope.organization.id;
  const draft = await cloudHubWizard.read(scope);
  const placement = await placeOnce(cloudHubDeployment, {
    scope,
    draftId: draft.id,
    postedKey,
    current: await currentDeployment(ownerId, draft),
    activity: (input) => ({
      action: "hub.deployment_started",
      summary: `Deployed a cloud Hub at ${input.subdomain}.${env.HUB_HOST} (${input.region}).`,
    }),
  });
  const { licenseId } = draft.data;
  if ("stale" in placement && licenseId && !(await selectableLicense(ownerId, licenseId))) {
    return { refused: UNABLE_TO_VERIFY_LICENSE };
  }
  return placement;
}

/**
 * 'Go to Hub' (decision 070): a one-time sign-in link to one of the organization's cloud Hubs (its own, or licensed
 * to it), or null when it is not theirs.
 */
export async function hubSignInLink(organizationId: string, hubId: string): Promise<string | null> {
  const [hub] = await db
    .select({ url: hubInstallations.url })
    .from(hubInstallations)
    .where(and(eq(hubInstallations.id, hubId), hubsHeldBy(organizationId), eq(hubInstallations.type, "cloud")));
  return hub?.url ? (await getHubs().signInLink(hub.url)).url : null;
}

/**
 * The administrator step's post (the Hub wizard's and the cloud trial's): the administrator and the typed
 * password sealed, or the validation error with what was typed, never the password.
 */
export async function readAdministrator(formData: FormData) {
  const result = await administratorValidator.validate(formData);
  if (result.error) {
    const { password: _password, confirmPassword: _confirmPassword, csrf: _csrf, ...typed } = result.submittedData;
    return { ok: false as const, response: validationError(result.error, typed) };
  }
  const { password, confirmPassword: _confirmed, ...administrator } = result.data;
  return { ok: true as const, values: { administrator, sealedPassword: sealSecret(password) } };
}
