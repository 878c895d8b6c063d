import type { OrganizationKind } from "~db/schema";
import { and, count, eq, inArray, isNull, sql, type Placeholder } from "drizzle-orm";
import { canStartTrial } from "~/domain/trials";
import { shippingCharge } from "~/domain/shipping";
import { displayName } from "~/domain/subscription";
import { trialHardwareId, trialValidity, type TrialAddress, type TrialHubType } from "~/domain/trial-wizard";
import { lockFor } from "~/server/platform/database/dialect.server";
import { jobs, licenses, organizations, trials } from "~/server/platform/database/tables.server";
import { getBilling } from "~/server/billing/index.server";
import { db, type PortalExecutor } from "~/server/platform/database/db.server";
import { licenseRow } from "~/server/subscriptions/index.server";
import type { OrganizationRecord } from "~/server/accounts/index.server";

/**
 * Trials as the portal keeps them (the saved trial record and the trial license's terms). Trials are an
 * organization's, whichever member starts them. A trial is taken when its license is made: each trial makes
 * exactly one license of type trial, so counting those (and older records without a license) says how many
 * trials an organization has had, including one whose record is not written yet. The license is made in a
 * transaction that takes the organization's trial lock before it counts, so two trials started at once in two
 * tabs, processes or instances count one after the other, and the second sees the first's license.
 */

export const TRIAL_JOB_KINDS = ["cloud-trial", "onpremise-trial"] as const;

/**
 * The organization's trials taken, in one statement: its trial licenses, and records without a license. An
 * organization that does not exist has taken none.
 */
function trialsTaken(executor: PortalExecutor, ownerId: string | Placeholder) {
  const licensed = executor
    .select({ n: count() })
    .from(licenses)
    .where(and(eq(licenses.ownerId, organizations.id), eq(licenses.type, "trial")));
  const unlicensed = executor
    .select({ n: count() })
    .from(trials)
    .where(and(eq(trials.ownerId, organizations.id), isNull(trials.licenseId)));
  return executor
    .select({ n: sql<number>`(${licensed}) + (${unlicensed})`.mapWith(Number) })
    .from(organizations)
    .where(eq(organizations.id, ownerId));
}

const takenOf = ([row]: { n: number }[]) => row?.n ?? 0;

// Prepared once: every page's shell asks whether a trial may start. The trial's transaction counts through its
// own connection instead (trialsTakenWithin), after taking the lock.
const trialsTakenBy = trialsTaken(db, sql.placeholder("ownerId")).prepare("trials_taken");

async function trialsTakenIn(ownerId: string): Promise<number> {
  return takenOf(await trialsTakenBy.execute({ ownerId }));
}

async function trialsTakenWithin(tx: PortalExecutor, ownerId: string): Promise<number> {
  return takenOf(await trialsTaken(tx, ownerId));
}

type TrialCustomer = Pick<OrganizationRecord, "id" | "customerType">;

/** Whether the organization may start a trial now (the chooser, the wizards and the job all ask this). */
export async function mayStartTrial(organization: TrialCustomer): Promise<boolean> {
  return canStartTrial(organization, await trialsTakenIn(organization.id));
}

/** A trial job that has not made its license yet and may still make one: a second one must not be queued beside it. */
export async function hasPendingTrial(ownerId: string): Promise<boolean> {
  const pending = await db
    .select({ steps: jobs.steps })
    .from(jobs)
    .where(
      and(
        eq(jobs.ownerId, ownerId),
        inArray(jobs.kind, [...TRIAL_JOB_KINDS]),
        inArray(jobs.status, ["queued", "running", "needs_attention"]),
      ),
    );
  return pending.some((job) => (job.steps as Record<string, { status?: string }>)["trial-license"]?.status !== "done");
}

export class TrialUsedUpError extends Error {
  override name = "TrialUsedUpError";
}

export interface TrialLicenseRequest {
  /** The job's id: the license's id, so a repeated step finds the license it made. */
  id: string;
  organization: Pick<OrganizationRecord, "id" | "customerType" | "name">;
  /**
   * The distributor's end customer the trial is for: the license's licensee and the name on its file (the
   * organization, which started it, owns it and its trial rules apply); null for the organization's own trial.
   */
  licensee?: { id: string; name: string } | null;
  hubType: TrialHubType;
  nodes: number;
  startDate: string;
  duration: number;
}

/**
 * The trial's license: type trial, ultimate plan, cloud support for a cloud trial, valid from the day before
 * the start to the start plus the duration plus 7 days. Made once per id.
 *
 * Eligibility is counted and the license inserted in one transaction holding the organization's trial lock:
 * without it, two transactions on PostgreSQL could both count none and both insert (its default isolation does
 * not stop that), and the organization would get two trials.
 */
export function createTrialLicense(request: TrialLicenseRequest) {
  const { id, organization, licensee, hubType, nodes, startDate, duration } = request;
  return db.transaction(async (tx) => {
    await lockFor(tx, `trial:${organization.id}`);
    const [existing] = await tx
      .select()
      .from(licenses)
      .where(and(eq(licenses.id, id), eq(licenses.ownerId, organization.id)));
    if (existing) return existing;
    if (!canStartTrial(organization, await trialsTakenWithin(tx, organization.id))) {
      throw new TrialUsedUpError("You have used up your trial.");
    }
    const { validFrom, validTo } = trialValidity(startDate, duration);
    const externalLicenseId = `GK-TRIAL-${id.slice(0, 8).toUpperCase()}`;
    const row = licenseRow(organization.id, {
      externalLicenseId,
      name: (licensee ?? organization).name,
      nodes,
      planType: "ultimate",
      type: "trial",
      hasCloudSupport: hubType === "cloud",
      validFrom,
      validTo,
    });
    const [created] = await tx
      .insert(licenses)
      // A cloud trial's license is held by the trial from the start: no Hub can be made from it elsewhere.
      .values({ ...row, id, licenseeId: licensee?.id ?? null, hubJobId: hubType === "cloud" ? id : null })
      .returning();
    return created;
  });
}

export interface TrialRecord {
  /** The job's id, so a repeated step writes nothing new. */
  id: string;
  ownerId: string;
  /** The member who started it, when the job knows. */
  userId: string | null;
  hubType: TrialHubType;
  hubId: string | null;
  hubUrl: string | null;
  licenseId: string;
  nodes: number;
  employees: number;
  tokens: number;
  sensors: number;
  duration: number;
  userName: string | null;
  address: TrialAddress;
  /** The billing provider's invoice for the trial's hardware, when some was bought. */
  hardwareInvoiceId: string | null;
}

/** The saved trial record; for an on-premise trial the Hub fields are null. */
export async function recordTrial(record: TrialRecord): Promise<void> {
  await db.insert(trials).values(record).onConflictDoNothing();
}

export interface TrialHardwareLine {
  id: string;
  name: string;
  description: string;
  quantity: number;
  /** Cents. */
  unitPrice: number;
  amount: number;
}

/** The trial's hardware as this customer buys it (their ids and prices), what shipping adds, and the total in cents. */
export async function quoteTrialHardware(
  customer: { customerType: OrganizationKind },
  counts: { tokens: number; sensors: number },
) {
  const addons = await getBilling().listAddons();
  const lines: TrialHardwareLine[] = (["tokens", "sensors"] as const).map((kind) => {
    const id = trialHardwareId(kind, customer);
    const addon = addons.find((item) => item.id === id);
    if (!addon) throw new Error(`The catalogue has no add-on ${id}.`);
    return {
      id,
      name: displayName(addon.name),
      description: addon.description,
      quantity: counts[kind],
      unitPrice: addon.price,
      amount: addon.price * counts[kind],
    };
  });
  const shipping = shippingCharge(lines.reduce((sum, line) => sum + line.quantity, 0))?.unitPrice ?? 0;
  return { lines, shipping, total: lines.reduce((sum, line) => sum + line.amount, 0) + shipping };
}
