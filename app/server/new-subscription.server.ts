import { COUPON_MESSAGES, couponRejection } from "~/domain/pricing";
import { SUBSCRIBE_PATH, subscriptionDraftSchema, SUBSCRIPTION_STEPS, type SubscriptionDraft } from "~/domain/new-subscription";
import {
  displayName,
  hostingAddonId,
  idFor,
  listId,
  offsiteAccessAddonId,
  PLAN_TIERS,
  planId,
  type Cycle,
  type Hosting,
  type Tier,
} from "~/domain/subscription";
import { errorMessage, getBilling, ProviderError, type Addon, type Estimate, type NewSubscriptionRequest, type Plan } from "./billing/index.server";
import { enqueueJob, findJobByKey, type JobKind, type JobView } from "./jobs.server";
import { createLicenseForSubscription } from "./licenses.server";
import type { EstimateView } from "~/ui/wizard/order-summary";
import { ensureBillingCustomer } from "./account-billing.server";
import type { UserRecord } from "./users.server";
import { defineWizard } from "./wizard.server";

export const subscriptionWizard = defineWizard({
  name: "new-subscription",
  steps: SUBSCRIPTION_STEPS,
  basePath: SUBSCRIBE_PATH,
  schema: subscriptionDraftSchema,
});

export const isDistributor = (user: UserRecord) => user.customerType === "distributor";

/** A plan or add-on as this customer buys it: their id (reseller- for distributors), the list id, the name they see. */
export interface OfferedItem {
  id: string;
  listId: string;
  name: string;
  description: string;
  /** Cents, per user and period for plans, per unit for add-ons. */
  price: number;
}

export interface Offer {
  plans: (OfferedItem & { tier: Tier })[];
  hosting: Record<Hosting, OfferedItem>;
  offsiteAccess: OfferedItem;
  hardware: OfferedItem[];
  support: OfferedItem[];
}

const offered = (item: Plan | Addon): OfferedItem => ({
  id: item.id,
  listId: listId(item.id),
  name: displayName(item.name),
  description: item.description,
  price: item.price,
});

/** What this customer can buy in the given cycle, from the billing provider's catalogue. */
export async function offerFor(user: UserRecord, cycle: Cycle): Promise<Offer> {
  const reseller = isDistributor(user);
  const [plans, addons] = await Promise.all([getBilling().listPlans(), getBilling().listAddons()]);
  const addon = (id: string) => {
    const found = addons.find((item) => item.id === id);
    if (!found) throw new Error(`The catalogue has no add-on ${id}.`);
    return offered(found);
  };
  const forCustomer = (item: Addon) => item.id === idFor(item.id, reseller);
  return {
    plans: PLAN_TIERS.map((tier) => {
      const plan = plans.find((item) => item.id === planId(tier, cycle, reseller));
      if (!plan) throw new Error(`The catalogue has no plan ${planId(tier, cycle, reseller)}.`);
      return { ...offered(plan), tier };
    }),
    hosting: {
      cloud: addon(hostingAddonId("cloud", cycle, reseller)),
      "on-premise": addon(hostingAddonId("on-premise", cycle, reseller)),
    },
    offsiteAccess: addon(offsiteAccessAddonId(cycle, reseller)),
    hardware: addons.filter((item) => item.addonType === "hardware" && forCustomer(item)).map(offered),
    support: addons.filter((item) => item.addonType === "non-recurring" && forCustomer(item)).map(offered),
  };
}

const quantities = (byListId: Record<string, number>, reseller: boolean) =>
  Object.entries(byListId)
    .filter(([, quantity]) => quantity > 0)
    .map(([id, quantity]) => ({ id: idFor(id, reseller), quantity }));

/** The order the draft describes, in the billing port's terms (spec 000 §7 estimate and create calls). */
export function orderItems(draft: SubscriptionDraft, reseller: boolean) {
  return {
    planId: planId(draft.tier, draft.cycle, reseller),
    planQuantity: draft.users,
    // The hosting add-on, and offsite access when chosen, each with quantity 1 (spec 000 §9).
    addons: [
      { id: hostingAddonId(draft.hosting, draft.cycle, reseller), quantity: 1 },
      ...(draft.offsiteAccess ? [{ id: offsiteAccessAddonId(draft.cycle, reseller), quantity: 1 }] : []),
    ],
    oneTimeAddons: quantities(draft.support, reseller),
    hardware: quantities(draft.hardware, reseller),
    couponIds: draft.couponId ? [draft.couponId] : [],
  };
}

export async function estimateOrder(user: UserRecord, draft: SubscriptionDraft, withCoupon = true): Promise<Estimate> {
  const customerId = await ensureBillingCustomer(user);
  const items = orderItems(draft, isDistributor(user));
  return getBilling().estimateNewSubscription({
    customerId,
    ...items,
    couponIds: withCoupon ? items.couponIds : [],
    startDate: new Date(),
  });
}

/** What the order job needs; saved with the job so a restart can finish it without the draft. */
export interface OrderInput extends Record<string, unknown> {
  request: Omit<NewSubscriptionRequest, "startDate">;
  organization: string;
  users: number;
  tier: Tier;
  hosting: Hosting;
  offsiteAccess: boolean;
  origin: string | null;
}

export const ORDER_JOB = "new-subscription";

export const CREATE_SUBSCRIPTION_FAILED = "Failed to create a subscription";

/**
 * The order (spec 000 §2 "Create Recurring License", then Finish): create the subscription with the job's
 * idempotency key (one subscription and one charge, whatever repeats), then the license for the
 * organization, then clear the wizard's draft.
 */
export const orderJob: JobKind<OrderInput> = {
  steps: [
    {
      name: "create-subscription",
      async run({ input, idempotencyKey }) {
        const subscription = await getBilling().createSubscription({ ...input.request, startDate: new Date() }, idempotencyKey);
        return {
          subscriptionId: subscription.id,
          termEnd: (subscription.currentTermEnd ?? subscription.nextBillingAt)?.toISOString() ?? null,
        };
      },
    },
    {
      name: "create-license",
      async run({ ownerId, input, results }) {
        const { subscriptionId, termEnd } = results["create-subscription"] as { subscriptionId: string; termEnd: string | null };
        const license = createLicenseForSubscription({
          ownerId,
          subscriptionId,
          name: input.organization,
          nodes: input.users,
          planType: input.tier,
          hasCloudSupport: input.hosting === "cloud",
          validTo: termEnd ? new Date(termEnd) : null,
        });
        return { licenseId: license.id };
      },
    },
    {
      name: "clear-draft",
      async run({ ownerId }) {
        subscriptionWizard.clear(ownerId);
        return null;
      },
    },
  ],
  failure(step, error) {
    const providerMessage = error instanceof ProviderError ? error.providerMessage : undefined;
    if (step === "create-subscription") {
      return {
        step,
        title: CREATE_SUBSCRIPTION_FAILED,
        message: providerMessage ? `Error message: ${providerMessage}` : CREATE_SUBSCRIPTION_FAILED,
      };
    }
    return { step, title: "Your license could not be created", message: "Your subscription was created. Please contact support to receive your license." };
  },
};

/** The idempotency key of the draft's next order; the confirmation form carries it (see placeOrder). */
export const orderKey = (draftId: string, attempt: number) => `order:${draftId}:${attempt}`;

/**
 * The order a submitted confirmation already placed, if any: a double click or a resubmitted form posts
 * the same key, and must find the first order even after that order cleared the draft.
 */
export function orderPlacedWith(user: UserRecord, postedKey: string): JobView | null {
  const job = postedKey ? findJobByKey(user.id, postedKey) : null;
  return job && job.status !== "failed" ? job : null;
}

/**
 * Places the draft's order, once: the same draft (and attempt) always gives the same job. After a failed
 * order, submitting again is a new attempt with a new key.
 */
export async function placeOrder(user: UserRecord, draftId: string, draft: SubscriptionDraft, paymentSourceId: string, shippingAddress: NewSubscriptionRequest["shippingAddress"]): Promise<JobView> {
  let attempt = draft.orderAttempt;
  const previous = findJobByKey(user.id, orderKey(draftId, attempt));
  if (previous && previous.status !== "failed") return previous;
  if (previous) {
    attempt += 1;
    subscriptionWizard.save(user.id, { orderAttempt: attempt });
  }
  const customerId = await ensureBillingCustomer(user);
  const input: OrderInput = {
    request: { customerId, ...orderItems(draft, isDistributor(user)), paymentSourceId, licenseAssignment: draft.organization, shippingAddress },
    organization: draft.organization,
    users: draft.users,
    tier: draft.tier,
    hosting: draft.hosting,
    offsiteAccess: draft.offsiteAccess,
    origin: draft.origin,
  };
  return enqueueJob({ kind: ORDER_JOB, ownerId: user.id, idempotencyKey: orderKey(draftId, attempt), input });
}


/** An estimate as the pages show it: plain numbers and ISO dates. */
export function toEstimateView(estimate: Estimate): EstimateView {
  return {
    lineItems: estimate.lineItems.map(({ description, quantity, unitAmount, amount }) => ({ description, quantity, unitAmount, amount })),
    discounts: estimate.discounts.map(({ description, amount }) => ({ description, amount })),
    subTotal: estimate.subTotal,
    total: estimate.total,
    amountDue: estimate.amountDue,
    nextBilling: estimate.nextBilling ? { at: estimate.nextBilling.at.toISOString(), amount: estimate.nextBilling.amount } : null,
  };
}

export const ESTIMATE_FAILED = "Failed to generate your order.";

/** The draft's estimate for a page, or the message to show in its place (spec 000 §8 "Estimate fails"). */
export async function estimateForPage(user: UserRecord, draft: SubscriptionDraft, withCoupon: boolean) {
  try {
    return { estimate: toEstimateView(await estimateOrder(user, draft, withCoupon)), estimateError: null };
  } catch (error) {
    if (!(error instanceof ProviderError)) throw error;
    return { estimate: null, estimateError: errorMessage(error, ESTIMATE_FAILED) };
  }
}

/**
 * Applies a coupon to the draft, or says why not (spec 000 §4 "Coupon", §5, §8): an invalid one is
 * removed from the draft.
 */
export async function applyCoupon(user: UserRecord, code: string): Promise<string | null> {
  const trimmed = code.trim();
  if (!trimmed) return COUPON_MESSAGES.empty;
  let rejection: string | null;
  try {
    const coupon = await getBilling().retrieveCoupon(trimmed);
    rejection = couponRejection(coupon, user.email);
  } catch (error) {
    if (!(error instanceof ProviderError)) throw error;
    rejection = error.kind === "final" ? COUPON_MESSAGES.invalid : errorMessage(error, COUPON_MESSAGES.invalid);
  }
  subscriptionWizard.save(user.id, { couponId: rejection ? null : trimmed });
  return rejection;
}

export function removeCoupon(user: UserRecord): string | null {
  if (!subscriptionWizard.peek(user.id).data.couponId) return COUPON_MESSAGES.noneToRemove;
  subscriptionWizard.save(user.id, { couponId: null });
  return null;
}
