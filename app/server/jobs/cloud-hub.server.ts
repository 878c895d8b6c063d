import { and, eq } from "drizzle-orm";
import { z } from "zod";
import { DEPLOYMENT_FAILURES, hubAdministratorSchema, UNABLE_TO_VERIFY_LICENSE } from "~/domain/cloud-hub";
import { hubInstallationLicenses, hubInstallations, licenses } from "~db/schema";
import { selectableLicense } from "../cloud-hub-licenses.server";
import { db } from "../db.server";
import { env } from "../env.server";
import { deleteDraftById } from "../drafts.server";
import { getHubs, HubError, type Tenant } from "../hubs/index.server";
import { openSecret, sealSecret } from "../wizards/sealed.server";
import { StepRefused, type JobKind, type JobView } from "./runner.server";

/** What the deployment needs, saved with the job so that a restart finishes it without the draft. */
export const deploymentInputSchema = z.object({
  draftId: z.string(),
  digest: z.string(),
  licenseId: z.string(),
  subdomain: z.string(),
  region: z.enum(["US", "EU"]),
  administrator: hubAdministratorSchema,
  /** Sealed; deleted from the saved input once the Hub's administrator exists (the license upload forgets it). */
  adminPassword: z.string().optional(),
});
export type DeploymentInput = z.infer<typeof deploymentInputSchema>;

/** The Hub is still coming up: retried with the runner's backoff, and after the last try the step's screen. */
const notYet = (message: string) => new HubError(message, { kind: "retryable", code: "not_ready" });

const ownedLicense = (ownerId: string, licenseId: string) =>
  db.select().from(licenses).where(and(eq(licenses.id, licenseId), eq(licenses.ownerId, ownerId))).get();

const tenantOf = (results: Record<string, unknown>) => results["create-tenant"] as Tenant;

/**
 * A cloud Hub's provisioning (spec 001 §4): Create Hub, Connect to Portal, Create Account, Upload License,
 * Finish. Creation carries the step's key, so a repeat after a lost answer or a crash returns the first
 * tenant instead of making a second; every later call can simply be repeated. Waiting for the Hub is a
 * step that fails as retryable while it is not ready, so the runner's backoff paces the checks.
 */
export const cloudHubDeployment: JobKind<DeploymentInput> = {
  name: "cloud-hub",
  input: deploymentInputSchema,
  steps: [
    {
      name: "create-tenant",
      // Not a charge, but a Hub made cannot be unmade: a later Submit of the same draft leads back to this job.
      charges: true,
      async run({ ownerId, input, stepKey }) {
        if (!selectableLicense(ownerId, input.licenseId)) throw new StepRefused(UNABLE_TO_VERIFY_LICENSE);
        return getHubs().createTenant({ customerId: ownerId, subdomain: input.subdomain, region: input.region, idempotencyKey: stepKey });
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
        if (!tenant.ready && !(await getHubs().syncTenant(tenant.hubId)).ready) throw notYet("The Hub is not ready yet.");
        return null;
      },
    },
    {
      name: "start-hub",
      async run({ results }) {
        const tenant = tenantOf(results);
        if (!tenant.running && !(await getHubs().startHub(tenant.url)).running) throw notYet("The Hub is not running yet.");
        return null;
      },
    },
    {
      name: "set-up-admin",
      async run({ input, results }) {
        const password = input.adminPassword ? openSecret(input.adminPassword) : null;
        if (!password) throw new StepRefused(DEPLOYMENT_FAILURES.admin.message);
        const session = await getHubs().setUpAdmin(tenantOf(results).url, { ...input.administrator, password });
        // The session token is a credential too: kept sealed like the password, and only until the upload.
        return { jwt: sealSecret(session.jwt) };
      },
    },
    {
      name: "upload-license",
      async run({ ownerId, input, results, forget }) {
        // The administrator exists now (set-up-admin is recorded done), so the typed password has served.
        forget("adminPassword");
        const license = ownedLicense(ownerId, input.licenseId);
        const jwt = openSecret((results["set-up-admin"] as { jwt: string }).jwt);
        if (!license || !jwt) throw new StepRefused(DEPLOYMENT_FAILURES.upload.message);
        await getHubs().uploadLicense(tenantOf(results).url, license.licenseCode, jwt);
        return null;
      },
    },
    {
      name: "record-hub",
      async run({ ownerId, input, results }) {
        const tenant = tenantOf(results);
        const license = ownedLicense(ownerId, input.licenseId);
        db.transaction((tx) => {
          tx.insert(hubInstallations)
            .values({ id: tenant.hubId, ownerId, type: "cloud", url: tenant.url, lastSeen: new Date(), maxUsers: license?.nodes ?? 0 })
            .onConflictDoNothing()
            .run();
          tx.insert(hubInstallationLicenses).values({ hubInstallationId: tenant.hubId, licenseId: input.licenseId }).onConflictDoNothing().run();
          tx.update(licenses).set({ isUsed: true }).where(eq(licenses.id, input.licenseId)).run();
        });
        return { hubId: tenant.hubId, url: tenant.url };
      },
    },
    {
      name: "clear-draft",
      async run({ ownerId, input }) {
        deleteDraftById(ownerId, input.draftId);
        return null;
      },
    },
  ],
  failure(step, error) {
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
          return DEPLOYMENT_FAILURES.other;
      }
    })();
    // A refusal of the license itself says so; everything else is the spec's screen.
    const message = error instanceof StepRefused && error.message === UNABLE_TO_VERIFY_LICENSE ? error.message : screen.message;
    return { step, title: screen.title, message };
  },
};

/** The progress of a deployment as the spec's stages. */
export const DEPLOYMENT_STAGES = [
  { title: "Create Hub", steps: ["create-tenant"] },
  { title: "Connect to Portal", steps: ["add-tenant", "register-tenant", "wait-until-ready", "start-hub"] },
  { title: "Create Account", steps: ["set-up-admin"] },
  { title: "Upload License", steps: ["upload-license"] },
  { title: "Finish", steps: ["record-hub", "clear-draft"] },
];

/**
 * Steps whose failure screen asks the customer to check again after 30 seconds (spec 001 §8, §9): the Hub
 * exists and is still coming up, so an immediate retry would most likely stop at the same point.
 */
const WAIT_BEFORE_RETRY = new Set(["add-tenant", "register-tenant", "wait-until-ready", "start-hub"]);

/** When 'Try again' opens for a failed deployment: null when it is open now (or the job did not fail). */
export function retryOpensAt(job: Pick<JobView, "status" | "error" | "updatedAt">, now = new Date()): Date | null {
  if (job.status !== "failed" || !job.error || !WAIT_BEFORE_RETRY.has(job.error.step)) return null;
  // A failed job is not written again until it is retried: its last update is when it stopped.
  const opensAt = new Date(job.updatedAt.getTime() + env.HUB_RETRY_WAIT_MS);
  return opensAt > now ? opensAt : null;
}
