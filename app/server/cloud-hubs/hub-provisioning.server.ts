import { and, eq, isNull, or } from "drizzle-orm";
import { portalNow } from "~/server/billing/index.server";
import { z } from "zod";
import { DEPLOYMENT_FAILURES, hubAdministratorSchema, UNABLE_TO_VERIFY_LICENSE } from "~/domain/cloud-hub";
import { hubInstallationLicenses, hubInstallations, licenses } from "~/server/platform/database/tables.server";
import { licensesHeldBy, selectableFor } from "./cloud-hub-licenses.server";
import { affectedRows } from "~/server/platform/database/portal-database.server";
import { db, type PortalExecutor } from "~/server/platform/database/db.server";
import { env } from "~/server/platform/config/env.server";
import { getHubs, HubError, type Tenant } from "~/server/hubs/index.server";
import { openSecret, sealSecret } from "~/server/platform/wizards/sealed.server";
import { retryFromProgress } from "~/server/platform/jobs/progress.server";
import {
  findOwnedJob,
  resultOf,
  StepRefused,
  type AnyJobKind,
  type JobFailure,
  type JobView,
  type StepOf,
  type StepState,
} from "~/server/platform/jobs/runner.server";
import { realNow } from "~/server/platform/real-time.server";

/**
 * A cloud Hub's provisioning, the steps shared by the cloud Hub deployment (decision 090) and the cloud trial:
 * Create Hub, Connect to Portal, Create Account, Upload License, and recording the Hub. Creation carries the
 * step's key, so a repeat after a lost answer or a crash returns the first tenant instead of making a second;
 * every later call can simply be repeated. Waiting for the Hub is a step that fails as retryable while it is
 * not ready, so the runner's backoff paces the checks.
 *
 * The license is the job's from the moment it is queued (licenses.hubJobId): no second Hub can be made from
 * it while this one is being made; a job that fails before its Hub exists gives it back (releaseLicense).
 */

/** What provisioning needs in a job's input. */
const hubProvisioningFields = {
  subdomain: z.string(),
  region: z.enum(["US", "EU"]),
  administrator: hubAdministratorSchema,
  /** Sealed; deleted from the saved input once the Hub's administrator exists (the license upload forgets it). */
  adminPassword: z.string().optional(),
  /**
   * The Hub administrator's session token, sealed, from set-up until the Hub is recorded, which moves it to the
   * Hub installation (where a renewed license's upload will find it) and deletes it here. Never a step's result:
   * results stay in the job for good.
   */
  adminToken: z.string().optional(),
};
export type HubProvisioningInput = z.infer<z.ZodObject<typeof hubProvisioningFields>>;

/** The Hub is still coming up: retried with the runner's backoff, and after the last try the step's screen. */
const notYet = (message: string) => new HubError(message, { kind: "retryable", code: "not_ready" });

/** The job's license: its owner's, or licensed to its owner (an end customer deploying a license bought for it). */
async function ownedLicense(ownerId: string, licenseId: string) {
  const [license] = await db
    .select()
    .from(licenses)
    .where(and(eq(licenses.id, licenseId), licensesHeldBy(ownerId)));
  return license;
}

const tenantOf = (results: Partial<ProvisioningResults>) => resultOf(results, "create-tenant");

/**
 * Reserves the license for the job (one atomic update, through `executor`: the transaction that queues the job,
 * or the database): true when it is now the job's, because it was free to make a Hub from, or already the job's.
 */
export async function holdLicense(
  job: { id: string; ownerId: string },
  licenseId: string,
  { now, executor = db }: { now: Date; executor?: PortalExecutor },
): Promise<boolean> {
  const result = await executor
    .update(licenses)
    .set({ hubJobId: job.id })
    .where(
      and(
        eq(licenses.id, licenseId),
        selectableFor(job.ownerId, now),
        or(isNull(licenses.hubJobId), eq(licenses.hubJobId, job.id)),
      ),
    );
  return affectedRows(result) === 1;
}

/** Gives the job's license back when the job failed before its Hub existed; a Hub that exists keeps it. */
async function releaseLicense(job: { id: string; steps: Record<string, StepState> }): Promise<void> {
  if (job.steps["create-tenant"]?.status === "done") return;
  await db
    .update(licenses)
    .set({ hubJobId: null })
    .where(and(eq(licenses.hubJobId, job.id), eq(licenses.isUsed, false)));
}

/** The Hub a finished provisioning recorded (the 'Go to Hub' link needs its id). */
export type RecordedHub = { hubId: string; url: string };

/** What the provisioning steps return. */
export type ProvisioningResults = {
  "create-tenant": Tenant;
  "add-tenant": null;
  "register-tenant": null;
  "wait-until-ready": null;
  "start-hub": null;
  "set-up-admin": null;
  "upload-license": null;
  "record-hub": RecordedHub;
};

/** The license the Hub gets: the deployment's from the start, the cloud trial's once its first step made it. */
type LicensedInput = HubProvisioningInput & { licenseId?: string };

function licenseIdOf({ input }: { input: LicensedInput }): string {
  if (!input.licenseId) throw new StepRefused(UNABLE_TO_VERIFY_LICENSE);
  return input.licenseId;
}

type ProvisioningStep<Input> = StepOf<Input, ProvisioningResults>;

/** The provisioning steps, for the license the job's input names (`licenseId`). */
function hubProvisioningSteps<Input extends LicensedInput>(): ProvisioningStep<Input>[] {
  return [
    {
      name: "create-tenant",
      // Not a charge, but a Hub made cannot be unmade: a later Submit of the same draft leads back to this job.
      charges: true,
      async run(context) {
        const { ownerId, input, stepKey } = context;
        // Held since the job was queued; taken again if a failure gave it back and the customer retries.
        if (!(await holdLicense(context, licenseIdOf(context), { now: await portalNow() })))
          throw new StepRefused(UNABLE_TO_VERIFY_LICENSE);
        return getHubs().createTenant({
          customerId: ownerId,
          subdomain: input.subdomain,
          region: input.region,
          idempotencyKey: stepKey,
        });
      },
    },
    {
      name: "add-tenant",
      async run({ results }) {
        await getHubs().addTenant(tenantOf(results));
        return null;
      },
    },
    {
      name: "register-tenant",
      async run({ results }) {
        await getHubs().registerTenant(tenantOf(results).hubId);
        return null;
      },
    },
    {
      name: "wait-until-ready",
      async run({ results }) {
        const tenant = tenantOf(results);
        if (!tenant.ready && !(await getHubs().syncTenant(tenant.hubId)).ready)
          throw notYet("The Hub is not ready yet.");
        return null;
      },
    },
    {
      name: "start-hub",
      async run({ results }) {
        const tenant = tenantOf(results);
        if (!tenant.running && !(await getHubs().startHub(tenant.url)).running)
          throw notYet("The Hub is not running yet.");
        return null;
      },
    },
    {
      name: "set-up-admin",
      async run({ input, results, remember }) {
        // A repeat after the token was kept (a crash before the step was recorded) has nothing left to do.
        if (input.adminToken) return null;
        const password = input.adminPassword ? openSecret(input.adminPassword) : null;
        if (!password) throw new StepRefused(DEPLOYMENT_FAILURES.admin.message);
        const session = await getHubs().setUpAdmin(tenantOf(results).url, { ...input.administrator, password });
        // The session token is a credential too: sealed like the password, and kept where the next steps read it.
        await remember("adminToken", sealSecret(session.jwt));
        return null;
      },
    },
    {
      name: "upload-license",
      async run(context) {
        const { ownerId, input, results, forget } = context;
        // The administrator exists now (set-up-admin is recorded done), so the typed password has served.
        await forget("adminPassword");
        const license = await ownedLicense(ownerId, licenseIdOf(context));
        const jwt = input.adminToken ? openSecret(input.adminToken) : null;
        if (!license || !jwt) throw new StepRefused(DEPLOYMENT_FAILURES.upload.message);
        await getHubs().uploadLicense(tenantOf(results).url, license.licenseCode, jwt);
        return null;
      },
    },
    {
      name: "record-hub",
      async run(context) {
        const { ownerId, input, results, forget } = context;
        const tenant = tenantOf(results);
        const licenseId = licenseIdOf(context);
        const license = await ownedLicense(ownerId, licenseId);
        await db.transaction(async (tx) => {
          await tx
            .insert(hubInstallations)
            .values({
              id: tenant.hubId,
              // The license's owner and licensee, as the license: a Hub an end customer makes from a license its
              // distributor bought is the distributor's (its customer page lists it) and licensed to the customer.
              ownerId: license?.ownerId ?? ownerId,
              type: "cloud",
              url: tenant.url,
              lastSeen: realNow(),
              maxUsers: license?.nodes ?? 0,
              adminToken: input.adminToken ?? null,
              licenseeId: license?.licenseeId ?? null,
            })
            .onConflictDoNothing();
          await tx
            .insert(hubInstallationLicenses)
            .values({ hubInstallationId: tenant.hubId, licenseId })
            .onConflictDoNothing();
          await tx.update(licenses).set({ isUsed: true }).where(eq(licenses.id, licenseId));
        });
        // The token now lives on the Hub installation only (a repeat of this step finds the row made).
        await forget("adminToken");
        return { hubId: tenant.hubId, url: tenant.url };
      },
    },
  ];
}

/** The failure screen (title and message) of a provisioning step that stopped, or null for any other step. */
function provisioningFailure(step: string, error: unknown): JobFailure | null {
  const screen = (() => {
    switch (step) {
      case "create-tenant":
        return DEPLOYMENT_FAILURES.create;
      case "add-tenant":
      case "register-tenant":
        return DEPLOYMENT_FAILURES.register;
      case "wait-until-ready":
        return DEPLOYMENT_FAILURES.notReady;
      case "start-hub":
        return DEPLOYMENT_FAILURES.notRunning;
      case "set-up-admin":
        return DEPLOYMENT_FAILURES.admin;
      case "upload-license":
        return DEPLOYMENT_FAILURES.upload;
      default:
        return null;
    }
  })();
  if (!screen) return null;
  // A refusal of the license itself says so; anything else shows the step's screen.
  const message =
    error instanceof StepRefused && error.message === UNABLE_TO_VERIFY_LICENSE ? error.message : screen.message;
  return { step, title: screen.title, message };
}

/** The progress stages of provisioning, titled for the customer; each job adds its own Finish. */
const PROVISIONING_STAGES = [
  { title: "Create Hub", steps: ["create-tenant"] },
  { title: "Connect to Portal", steps: ["add-tenant", "register-tenant", "wait-until-ready", "start-hub"] },
  { title: "Create Account", steps: ["set-up-admin"] },
  { title: "Upload License", steps: ["upload-license"] },
];

/**
 * What a job that makes a cloud Hub (the deployment, the cloud trial) builds on: the fields its input adds, the
 * steps, their progress stages (the job adds its Finish), their failure screens, and the release that gives the
 * license back when the job fails before its Hub exists.
 */
export const hubProvisioning = {
  fields: hubProvisioningFields,
  steps: hubProvisioningSteps,
  stages: PROVISIONING_STAGES,
  failure: provisioningFailure,
  release: releaseLicense,
};

/**
 * Steps whose failure screen asks the customer to check again after 30 seconds: the Hub
 * exists and is still coming up, so an immediate retry would most likely stop at the same point.
 */
const WAIT_BEFORE_RETRY = new Set(["add-tenant", "register-tenant", "wait-until-ready", "start-hub"]);

/** When 'Try again' opens for a failed deployment: null when it is open now (or the job did not fail). */
export function retryOpensAt(job: Pick<JobView, "status" | "error" | "updatedAt">, now = realNow()): Date | null {
  if (job.status !== "failed" || !job.error || !WAIT_BEFORE_RETRY.has(job.error.step)) return null;
  // A failed job is not written again until it is retried: its last update is when it stopped.
  const opensAt = new Date(job.updatedAt.getTime() + env.HUB_RETRY_WAIT_MS);
  return opensAt > now ? opensAt : null;
}

/** Seconds until 'Try again' opens for a job with Hub steps (a deployment, a cloud trial); 0 when it is open. */
export function secondsUntilRetry(job: Pick<JobView, "status" | "error" | "updatedAt">, now = realNow()): number {
  const opensAt = retryOpensAt(job, now);
  return opensAt ? Math.ceil((opensAt.getTime() - now.getTime()) / 1000) : 0;
}

/**
 * The progress page's 'Try again' for a job with Hub steps: too early (a stale page, or a hand-made post),
 * nothing is retried and the page says when it can be. 404 for another account's job, as any retry.
 */
export async function retryWhenOpen(ownerId: string, jobId: string, kind: AnyJobKind): Promise<void> {
  const job = await findOwnedJob(ownerId, jobId, kind.name);
  if (!job || !retryOpensAt(job)) await retryFromProgress(ownerId, jobId, kind);
}
