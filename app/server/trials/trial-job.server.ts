import { z } from "zod";
import { USED_UP_TRIAL } from "~/domain/trials";
import { CARD_NOT_CHARGED, keptTrialAddressSchema, TRIAL_FAILURES, type TrialAddress } from "~/domain/trial-wizard";
import { getBilling, ProviderError, type Address } from "~/server/billing/index.server";
import { findOrganization } from "~/server/accounts/index.server";
import { customerOf } from "~/server/resellers/index.server";
import { cardToCharge, chargeWhilePresent, presentPaymentInput } from "~/server/orders/index.server";
import { createTrialLicense, quoteTrialHardware, recordTrial, TrialUsedUpError } from "./trials.server";
import { hubProvisioning, type ProvisioningResults } from "~/server/cloud-hubs/index.server";
import { clearDraftStep, type ClearDraftResult } from "~/server/platform/jobs/steps.server";
import {
  finishedResults,
  StepRefused,
  type JobKind,
  type JobStep,
  type JobView,
} from "~/server/platform/jobs/runner.server";
import { errorFields, logger } from "~/server/platform/log/log.server";

/**
 * Building a trial: the trial license, for a cloud trial the Hub's
 * provisioning (the same steps as a cloud Hub deployment), the hardware invoice when something is ordered,
 * the trial record, and the draft cleared. The license step checks eligibility atomically; the invoice carries
 * the step's key, and after a crash or a lost answer the provider is asked for the invoice that key made
 * before anything is charged again, so a repeat never charges twice, however late it comes. A refused hardware
 * purchase does not stop the trial: the step records the failure and the finish screen says 'Hardware
 * purchase failed.'. A card whose bank asks the cardholder to authenticate the payment leaves the job waiting for
 * them at the hardware, nothing charged (chargeWhilePresent), as an order's does.
 */
const trialFields = {
  draftId: z.string(),
  digest: z.string(),
  nodes: z.number().int(),
  employees: z.number().int(),
  startDate: z.string(),
  duration: z.number().int(),
  tokens: z.number().int(),
  sensors: z.number().int(),
  address: keptTrialAddressSchema,
  paymentSourceId: z.string().nullable(),
  /** What the customer confirmed for the hardware and its shipping, in cents; the invoice must cost the same. */
  hardwareCents: z.number().int(),
  /** The member who started it, for the trial record (absent in jobs queued before organizations). */
  startedBy: z.string().nullable().default(null),
  /** The distributor's end customer the trial is for (its license's licensee); absent for the organization's own. */
  customerId: z.string().optional(),
  ...presentPaymentInput,
};
const onPremiseTrialInput = z.object(trialFields);
const cloudTrialInput = z.object({
  ...trialFields,
  ...hubProvisioning.fields,
  /** The trial's license, kept here by its first step for the Hub's steps. */
  licenseId: z.string().optional(),
});
export type OnPremiseTrialInput = z.infer<typeof onPremiseTrialInput>;
export type CloudTrialInput = z.infer<typeof cloudTrialInput>;
type TrialInput = OnPremiseTrialInput;

async function owner(ownerId: string) {
  const organization = await findOrganization(ownerId);
  if (!organization) throw new StepRefused("The organization no longer exists.");
  return organization;
}

/** The end customer a distributor's trial is for, still its own; null for the organization's own trial. */
async function licenseeOf(ownerId: string, customerId: string | undefined) {
  if (!customerId) return null;
  const customer = await customerOf(ownerId, customerId);
  if (!customer) throw new StepRefused("The customer is no longer one of yours.");
  return { id: customer.id, name: customer.name };
}

/** A trial's progress page, where the bank's page sends the cardholder back to. */
export const trialProgressUrl = (jobId: string) => `/trial/runs/${encodeURIComponent(jobId)}`;

export type HardwarePurchase = { status: "none" } | { status: "invoiced"; invoiceId: string } | { status: "failed" };

/** What a trial's own steps return; a cloud trial's also has the provisioning steps' results. */
export type TrialResults = {
  "trial-license": { licenseId: string };
  "purchase-hardware": HardwarePurchase;
  "record-trial": { recorded: boolean };
} & ClearDraftResult;
type CloudTrialResults = TrialResults & ProvisioningResults;

function trialLicenseStep<Input extends TrialInput>(
  hubType: "cloud" | "onpremise",
): JobStep<Input, TrialResults, "trial-license"> {
  return {
    name: "trial-license",
    // A trial taken cannot be given back: a later confirmation of the same draft leads back to this job.
    charges: true,
    async run({ id, ownerId, input, remember }) {
      try {
        const license = await createTrialLicense({
          id,
          organization: await owner(ownerId),
          licensee: await licenseeOf(ownerId, input.customerId),
          hubType,
          nodes: input.nodes,
          startDate: input.startDate,
          duration: input.duration,
        });
        // The cloud trial's Hub gets this license (the provisioning steps read it from the input).
        if (hubType === "cloud") await remember("licenseId", license.id);
        return { licenseId: license.id };
      } catch (error) {
        if (error instanceof TrialUsedUpError) throw new StepRefused(USED_UP_TRIAL);
        throw error;
      }
    },
  };
}

function shippingAddressOf(address: TrialAddress): Address {
  const [firstName = "", ...rest] = address.name.trim().split(/\s+/);
  return {
    firstName,
    lastName: rest.join(" "),
    company: address.company,
    line1: address.street,
    city: address.city,
    state: address.state,
    zip: address.zipcode,
    country: address.country,
  };
}

/**
 * The hardware invoice, only when something is ordered; a refusal is recorded, and the trial goes on. After an
 * unknown outcome the invoice is looked up by the step's key first: the provider replays a key only for a
 * while (Chargebee for 30 minutes), and a retry after that would invoice again.
 */
function purchaseHardwareStep<Input extends TrialInput>(): JobStep<Input, TrialResults, "purchase-hardware"> {
  return {
    name: "purchase-hardware",
    charges: true,
    async reconcile({ ownerId, stepKey }) {
      const customerId = (await owner(ownerId)).billingCustomerId;
      const invoice = customerId ? await getBilling().findInvoiceByKey(customerId, stepKey) : null;
      return invoice ? { status: "invoiced", invoiceId: invoice.id } : null;
    },
    async run(context) {
      const { ownerId, input, stepKey } = context;
      if (input.tokens + input.sensors === 0 || !input.paymentSourceId) return { status: "none" };
      const organization = await owner(ownerId);
      // The money rule: the invoice must cost what the customer confirmed, or nothing is charged.
      const quote = await quoteTrialHardware(organization, input);
      // The card chosen is the billing customer's: without one there is nothing to charge.
      const customerId = organization.billingCustomerId;
      if (quote.total !== input.hardwareCents || !customerId) return { status: "failed" };
      const paymentSourceId = cardToCharge(input, input.paymentSourceId);
      const hardware = quote.lines.filter((line) => line.quantity > 0).map(({ id, quantity }) => ({ id, quantity }));
      const order = { customerId, paymentSourceId, hardware, shippingAddress: shippingAddressOf(input.address) };
      // What the card is charged: the invoice takes the customer's credits off first.
      const amount = Math.max(0, quote.total - (await getBilling().retrieveCustomer(customerId)).creditBalance);
      const payment = { customerId, paymentSourceId, amount, returnUrl: trialProgressUrl(context.id) };
      try {
        const invoice = await chargeWhilePresent(context, payment, (paymentIntentId) =>
          getBilling().createHardwareInvoice({ ...order, paymentIntentId }, stepKey),
        );
        return { status: "invoiced", invoiceId: invoice.id };
      } catch (error) {
        // A refusal charged nothing (a bank that asks makes the job wait instead, chargeWhilePresent); a timeout
        // or an outage is retried with the same key (never a second charge).
        if (error instanceof ProviderError && error.kind === "final") return { status: "failed" };
        throw error;
      }
    },
  };
}

/** The hardware's invoice, when one was made: the invoices page says it was the trial's. */
const invoiceOf = (purchase: HardwarePurchase | undefined) =>
  purchase?.status === "invoiced" ? purchase.invoiceId : null;

/** The trial record; its failure is only logged: the trial itself exists by then, and the customer has it. */
function recordTrialStep<Input extends TrialInput>(
  hubType: "cloud" | "onpremise",
  userNameOf: (input: Input) => string | null,
): JobStep<Input, CloudTrialResults, "record-trial"> {
  return {
    name: "record-trial",
    async run({ id, ownerId, input, results }) {
      const hub = results["record-hub"] ?? null;
      try {
        await recordTrial({
          id,
          ownerId,
          userId: input.startedBy,
          hubType,
          hubId: hub?.hubId ?? null,
          hubUrl: hub?.url ?? null,
          licenseId: results["trial-license"]?.licenseId ?? "",
          nodes: input.nodes,
          employees: input.employees,
          tokens: input.tokens,
          sensors: input.sensors,
          duration: input.duration,
          userName: userNameOf(input),
          address: input.address,
          hardwareInvoiceId: invoiceOf(results["purchase-hardware"]),
        });
        return { recorded: true };
      } catch (error) {
        logger.error({ event: "trial-record-failed", jobId: id, ...errorFields(error) });
        return { recorded: false };
      }
    },
  };
}

/** Every trial failure screen says the card was not charged: nothing is charged before the hardware. */
function trialFailure(step: string, error: unknown) {
  if (step === "purchase-hardware") return { step, ...TRIAL_FAILURES.hardware };
  if (step === "trial-license" && error instanceof StepRefused && error.message === USED_UP_TRIAL) {
    return { step, title: TRIAL_FAILURES.license.title, message: `${USED_UP_TRIAL} ${CARD_NOT_CHARGED}` };
  }
  const hubScreen = hubProvisioning.failure(step, error);
  if (hubScreen) return { ...hubScreen, message: `${hubScreen.message} ${CARD_NOT_CHARGED}` };
  return { step, ...TRIAL_FAILURES.license };
}

export const onPremiseTrial: JobKind<OnPremiseTrialInput, TrialResults> = {
  name: "onpremise-trial",
  input: onPremiseTrialInput,
  steps: [
    trialLicenseStep("onpremise"),
    purchaseHardwareStep(),
    recordTrialStep("onpremise", () => null),
    clearDraftStep(),
  ],
  failure: trialFailure,
};

export const cloudTrial: JobKind<CloudTrialInput, CloudTrialResults> = {
  name: "cloud-trial",
  input: cloudTrialInput,
  steps: [
    trialLicenseStep<CloudTrialInput>("cloud"),
    ...hubProvisioning.steps<CloudTrialInput>(),
    purchaseHardwareStep<CloudTrialInput>(),
    recordTrialStep<CloudTrialInput>("cloud", (input) => input.administrator.userName),
    clearDraftStep<CloudTrialInput>(),
  ],
  failure: trialFailure,
  // The trial license is made held by the trial (createTrialLicense); a trial that fails before its Hub gives it back.
  release: hubProvisioning.release,
};

const LICENSE_STAGE = { title: "Trial License", steps: ["trial-license"] };
const HARDWARE_STAGE = { title: "Purchase Hardware", steps: ["purchase-hardware"] };

/** The stages each kind of trial's progress page lists. */
export const TRIAL_STAGES = {
  cloud: [
    LICENSE_STAGE,
    ...hubProvisioning.stages,
    HARDWARE_STAGE,
    { title: "Finish", steps: ["record-hub", "record-trial", "clear-draft"] },
  ],
  onpremise: [LICENSE_STAGE, HARDWARE_STAGE, { title: "Finish", steps: ["record-trial", "clear-draft"] }],
};

export const TRIAL_JOBS = { cloud: cloudTrial, onpremise: onPremiseTrial };
/** Both kinds of trial, which one progress page follows. */
export const TRIAL_KINDS = [cloudTrial, onPremiseTrial];

/** What a trial has made so far, from its finished steps: the Hub, the license and the hardware purchase. */
export function trialOutcome(job: JobView) {
  const results = finishedResults(cloudTrial, job);
  const input = onPremiseTrialInput.safeParse(job.input);
  return {
    /** The end customer the trial is for (its draft's `?customer=`), or null for the organization's own. */
    customerId: (input.success && input.data.customerId) || null,
    hub: results["record-hub"] ?? null,
    licenseId: results["trial-license"]?.licenseId ?? null,
    hardware: results["purchase-hardware"] ?? null,
  };
}
