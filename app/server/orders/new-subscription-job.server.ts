import { z } from "zod";
import { PO_NUMBER_MAX_LENGTH } from "~/domain/purchase-orders";
import { checkSelection } from "~/domain/new-subscription";
import { licenseEndOf } from "~/domain/renewals";
import { PLAN_TIERS } from "~/domain/subscription";
import { getBilling, type NewSubscriptionRequest } from "~/server/billing/index.server";
import {
  saveSubscriptionCopy,
  licenseFollowsSubscription,
  createLicenseForSubscription,
} from "~/server/subscriptions/index.server";
import { addCustomer } from "~/server/resellers/index.server";
import { orderDigest } from "./placing.server";
import { resultOf, StepRefused, type JobKind } from "~/server/platform/jobs/runner.server";
import { clearDraftStep, failureText, type ClearDraftResult } from "~/server/platform/jobs/steps.server";
import { cardToCharge, chargeWhilePresent, presentPaymentInput } from "./present-payments.server";

/** An item and its quantity, and an address, as a job's input keeps them (shared by the order and the update). */
export const itemInput = z.object({ id: z.string(), quantity: z.number().int().min(1) });
const text = z.string().optional();
export const addressInput = z.object({
  firstName: text,
  lastName: text,
  email: text,
  company: text,
  phone: text,
  line1: text,
  line2: text,
  city: text,
  state: text,
  stateCode: text,
  zip: text,
  country: text,
});

/** What the order job needs, saved with the job so that a restart finishes it without the draft. */
export const orderInputSchema = z.object({
  draftId: z.string(),
  /** The digest of the order the customer confirmed (orders.server.ts): checked again right before charging. */
  digest: z.string(),
  request: z.object({
    customerId: z.string(),
    planId: z.string(),
    planQuantity: z.number().int().min(1),
    addons: z.array(itemInput),
    oneTimeAddons: z.array(itemInput),
    hardware: z.array(itemInput),
    couponIds: z.array(z.string()),
    paymentSourceId: z.string(),
    licenseAssignment: z.string(),
    shippingAddress: addressInput.optional(),
  }),
  organization: z.string(),
  /**
   * The distributor's end customer the license is for: one it has (its id), or one the order adds (its name, and
   * who placed the order); null for the organization's own license. Part of what the confirmation's digest covers.
   */
  licensee: z
    .union([
      z.object({ customerId: z.string() }),
      z.object({ newCustomer: z.string(), addedBy: z.object({ userId: z.string(), name: z.string() }) }),
    ])
    .nullable()
    .default(null),
  users: z.number().int().min(1),
  tier: z.enum(PLAN_TIERS),
  hosting: z.enum(["cloud", "on-premise"]),
  offsiteAccess: z.boolean(),
  origin: z.string().nullable(),
  /** The customer's purchase order number; no part of the price, so outside the confirmed digest. */
  poNumber: z.string().max(PO_NUMBER_MAX_LENGTH).nullish(),
  /** The number of the quote ordered, which the license carries; none for any other order. */
  quoteNumber: z.string().nullish(),
  ...presentPaymentInput,
});

export type OrderInput = z.infer<typeof orderInputSchema>;

export const CREATE_SUBSCRIPTION_FAILED = "Failed to create a subscription";
export const PRICE_CHANGED =
  "The price of your order changed before it was charged, so nothing was charged. Please review your order and confirm it again.";
const LICENSE_FAILED = "Your license could not be created";
const LICENSE_FAILED_TEXT =
  "Your subscription was created and charged once. Try again to create its license: you will not be charged again.";

// No start date: the provider starts the subscription now, on its own clock.
const newSubscription = (request: OrderInput["request"]): NewSubscriptionRequest => request;

/**
 * What the confirmation's digest covers besides the price: the request and, for a distributor's order, the end
 * customer it is for (left out when there is none, so an order of no customer digests as it always did).
 */
export const digestedRequest = (input: Pick<OrderInput, "request" | "licensee">) =>
  input.licensee ? { ...input.request, licensee: input.licensee } : input.request;

/** The order's progress page, where the bank's page sends the cardholder back to. */
export const orderProgressUrl = (jobId: string) => `/store/orders/${encodeURIComponent(jobId)}`;

/**
 * The order. Right before charging, the rules and
 * the price are checked again against what the customer confirmed; the subscription is created with the
 * step's key, and after an unknown outcome the provider is asked for it by that key before anything is
 * charged again. A card whose bank asks the cardholder to authenticate the payment leaves the job waiting for
 * them, nothing charged (chargeWhilePresent). The license is one per subscription (a unique index), and the
 * draft is cleared last.
 */
export const newSubscriptionOrder: JobKind<OrderInput, OrderResults> = {
  name: "new-subscription",
  input: orderInputSchema,
  steps: [
    {
      name: "create-subscription",
      charges: true,
      async reconcile({ input, stepKey }) {
        const subscription = await getBilling().findSubscriptionByKey(input.request.customerId, stepKey);
        return subscription ? createdResult(subscription) : null;
      },
      async run(context) {
        const { id, input, stepKey } = context;
        const support = Object.fromEntries(input.request.oneTimeAddons.map((addon) => [addon.id, addon.quantity]));
        const { issues } = checkSelection({
          origin: input.origin,
          hosting: input.hosting,
          offsiteAccess: input.offsiteAccess,
          support,
        });
        if (issues.length > 0) throw new StepRefused(issues[0].message);
        const estimate = await getBilling().estimateNewSubscription(newSubscription(input.request));
        if (orderDigest(digestedRequest(input), estimate) !== input.digest) throw new StepRefused(PRICE_CHANGED);
        const paymentSourceId = cardToCharge(input, input.request.paymentSourceId);
        const request = { ...newSubscription(input.request), paymentSourceId, poNumber: input.poNumber ?? undefined };
        const payment = {
          customerId: request.customerId,
          paymentSourceId,
          amount: estimate.amountDue,
          returnUrl: orderProgressUrl(id),
        };
        const created = await chargeWhilePresent(context, payment, (paymentIntentId) =>
          getBilling().createSubscription({ ...request, paymentIntentId }, stepKey),
        );
        return createdResult(created);
      },
    },
    {
      // A new end customer is added once the order is paid for, with the job's id as its own: a repeat of the
      // step (a crash after the insert) finds it and adds nothing.
      name: "add-customer",
      async run({ id, ownerId, input }) {
        const { licensee } = input;
        if (!licensee) return { customerId: null };
        if ("customerId" in licensee) return { customerId: licensee.customerId };
        const record = { name: licensee.newCustomer, country: "", address: null, contactName: "", contactEmail: "" };
        await addCustomer({ resellerId: ownerId, actor: licensee.addedBy }, record, id);
        return { customerId: id };
      },
    },
    {
      name: "create-license",
      async run({ ownerId, input, results }) {
        const { subscriptionId } = resultOf(results, "create-subscription");
        const { customerId } = resultOf(results, "add-customer");
        // The subscription as the provider has it now is the account's copy, and the license's terms follow it.
        const account = { ownerId, customerId: input.request.customerId };
        const subscription = await getBilling().retrieveSubscription(account.customerId, subscriptionId);
        await saveSubscriptionCopy(account, subscription);
        const license = await createLicenseForSubscription({
          ownerId,
          subscriptionId,
          name: input.organization,
          licenseeId: customerId,
          nodes: input.users,
          planType: input.tier,
          hasCloudSupport: input.hosting === "cloud",
          validTo: licenseEndOf(subscription),
          poNumber: input.poNumber ?? null,
          quoteNumber: input.quoteNumber ?? null,
        });
        await licenseFollowsSubscription(account, subscriptionId);
        return { licenseId: license.id };
      },
    },
    clearDraftStep(),
  ],
  failure(step, error) {
    if (step !== "create-subscription") return { step, title: LICENSE_FAILED, message: LICENSE_FAILED_TEXT };
    return { step, title: CREATE_SUBSCRIPTION_FAILED, message: failureText(error, CREATE_SUBSCRIPTION_FAILED) };
  },
};

interface CreatedSubscription {
  subscriptionId: string;
  termEnd: string | null;
}

/** What the order's steps return. */
export type OrderResults = {
  "create-subscription": CreatedSubscription;
  "add-customer": { customerId: string | null };
  "create-license": { licenseId: string };
} & ClearDraftResult;

function createdResult(subscription: {
  id: string;
  currentTermEnd: Date | null;
  nextBillingAt: Date | null;
}): CreatedSubscription {
  return {
    subscriptionId: subscription.id,
    termEnd: (subscription.currentTermEnd ?? subscription.nextBillingAt)?.toISOString() ?? null,
  };
}
