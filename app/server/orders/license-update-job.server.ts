import { z } from "zod";
import { PO_NUMBER_MAX_LENGTH } from "~/domain/purchase-orders";
import { LICENSE_CHANGED, UPDATE_FAILED, updateProblems } from "~/domain/license-update";
import { cycleOf, PLAN_TIERS, tierOf } from "~/domain/subscription";
import { getBilling, type Subscription } from "~/server/billing/index.server";
import {
  saveSubscriptionCopy,
  licenseFollowsSubscription,
  recordLicensePoNumber,
} from "~/server/subscriptions/index.server";
import { orderDigest } from "./placing.server";
import { addressInput, itemInput, PRICE_CHANGED } from "./new-subscription-job.server";
import { StepRefused, type JobKind } from "~/server/platform/jobs/runner.server";
import { cardToCharge, chargeWhilePresent, presentPaymentInput } from "./present-payments.server";
import { clearDraftStep, failureText, type ClearDraftResult } from "~/server/platform/jobs/steps.server";

/** What the update job needs, saved with the job so that a restart finishes it without the draft. */
export const updateInputSchema = z.object({
  draftId: z.string(),
  /** The digest of the update the customer confirmed: checked again right before charging. */
  digest: z.string(),
  request: z.object({
    customerId: z.string(),
    subscriptionId: z.string(),
    /** The subscription the update was chosen against: if it moved on since, the update is refused. */
    from: z.object({ planId: z.string(), planQuantity: z.number().int().min(1) }),
    planId: z.string(),
    planQuantity: z.number().int().min(1),
    addons: z.array(itemInput),
    couponIds: z.array(z.string()),
    paymentSourceId: z.string(),
    billingAddress: addressInput.optional(),
    shippingAddress: addressInput.optional(),
  }),
  /** The license's name and plan, for the success text ('Successfully updated your … Recurring License!'). */
  licenseName: z.string(),
  tier: z.enum(PLAN_TIERS),
  /** The customer's purchase order number; no part of the price, so outside the confirmed digest. */
  poNumber: z.string().max(PO_NUMBER_MAX_LENGTH).nullish(),
  ...presentPaymentInput,
});

export type UpdateInput = z.infer<typeof updateInputSchema>;

const LICENSE_FAILED = "Your license could not be updated";
const LICENSE_FAILED_TEXT =
  "Your subscription was updated and charged once. Try again to update its license: you will not be charged again.";

const change = ({ planId, planQuantity, addons, couponIds }: UpdateInput["request"]) => ({
  planId,
  planQuantity,
  addons,
  couponIds,
});

/** Whether the subscription already is what the update makes it (a first try that took effect). */
const isUpdated = (subscription: Subscription, request: UpdateInput["request"]) =>
  subscription.planId === request.planId && subscription.planQuantity === request.planQuantity;

interface UpdatedSubscription {
  termEnd: string | null;
}

/** What the update's steps return. */
export type UpdateResults = {
  "override-billing-profile": null;
  "update-subscription": UpdatedSubscription;
  "update-license": { licenseId: string };
} & ClearDraftResult;

const updatedResult = (subscription: Subscription): UpdatedSubscription => ({
  termEnd: (subscription.currentTermEnd ?? subscription.nextBillingAt)?.toISOString() ?? null,
});

/** The update's progress page, where the bank's page sends the cardholder back to. */
export const updateProgressUrl = (jobId: string) => `/licenses/updates/${encodeURIComponent(jobId)}`;

/**
 * The update, in this order: the billing profile set to the chosen card with
 * auto collection on, then the subscription updated (plan, quantity, add-ons, addresses) once, then its
 * license re-signed with the new terms, then the draft cleared. Right before charging, the rules, the
 * subscription it started from and the price are checked again against what the customer confirmed.
 */
export const licenseUpdate: JobKind<UpdateInput, UpdateResults> = {
  name: "license-update",
  input: updateInputSchema,
  steps: [
    {
      name: "override-billing-profile",
      async run({ input }) {
        const { customerId, subscriptionId, paymentSourceId } = input.request;
        await getBilling().overrideBillingProfile(customerId, subscriptionId, {
          paymentSourceId,
          autoCollection: true,
        });
        return null;
      },
    },
    {
      name: "update-subscription",
      charges: true,
      async reconcile({ input }) {
        const subscription = await getBilling().retrieveSubscription(
          input.request.customerId,
          input.request.subscriptionId,
        );
        return isUpdated(subscription, input.request) ? updatedResult(subscription) : null;
      },
      async run(context) {
        const { id, input, stepKey } = context;
        const { request } = input;
        const billing = getBilling();
        const current = await billing.retrieveSubscription(request.customerId, request.subscriptionId);
        if (current.planId !== request.from.planId || current.planQuantity !== request.from.planQuantity)
          throw new StepRefused(LICENSE_CHANGED);
        const [fromTier, fromCycle, toTier, toCycle] = [
          tierOf(current.planId),
          cycleOf(current.planId),
          tierOf(request.planId),
          cycleOf(request.planId),
        ];
        if (!fromTier || !fromCycle || !toTier || !toCycle) throw new StepRefused(UPDATE_FAILED);
        const addedUsers = request.planQuantity - current.planQuantity;
        const problems = updateProblems(
          { tier: fromTier, cycle: fromCycle, quantity: current.planQuantity },
          { tier: toTier, cycle: toCycle, addedUsers },
        );
        if (problems.length > 0) throw new StepRefused(problems[0].message);
        const estimate = await billing.estimateSubscriptionUpdate(
          request.customerId,
          request.subscriptionId,
          change(request),
        );
        if (orderDigest(request, estimate) !== input.digest) throw new StepRefused(PRICE_CHANGED);
        const { billingAddress, shippingAddress, customerId, subscriptionId } = request;
        const paymentSourceId = cardToCharge(input, request.paymentSourceId);
        // A card chosen on the progress page pays this change and the renewals after it, as the order's would have.
        if (input.otherCard) {
          await billing.overrideBillingProfile(customerId, subscriptionId, { paymentSourceId, autoCollection: true });
        }
        const update = { ...change(request), billingAddress, shippingAddress, poNumber: input.poNumber ?? undefined };
        const payment = { customerId, paymentSourceId, amount: estimate.amountDue, returnUrl: updateProgressUrl(id) };
        const updated = await chargeWhilePresent(context, payment, (paymentIntentId) =>
          billing.updateSubscription(customerId, subscriptionId, { ...update, paymentIntentId }, stepKey),
        );
        return updatedResult(updated);
      },
    },
    {
      name: "update-license",
      async run({ ownerId, input }) {
        // The subscription as the provider has it after the update is the account's copy; the license follows it.
        const { customerId, subscriptionId } = input.request;
        const account = { ownerId, customerId };
        await saveSubscriptionCopy(account, await getBilling().retrieveSubscription(customerId, subscriptionId));
        const license = await licenseFollowsSubscription(account, subscriptionId);
        if (!license) throw new Error(`Subscription ${subscriptionId} has no license of this account.`);
        if (input.poNumber) await recordLicensePoNumber(ownerId, license.licenseId, input.poNumber);
        return { licenseId: license.licenseId };
      },
    },
    clearDraftStep(),
  ],
  failure(step, error) {
    if (step === "update-license" || step === "clear-draft")
      return { step, title: LICENSE_FAILED, message: LICENSE_FAILED_TEXT };
    // The update's failure screen, in the step's own refusal or the provider's words when there are some.
    return { step, title: UPDATE_FAILED, message: failureText(error, UPDATE_FAILED) };
  },
};
