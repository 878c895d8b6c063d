import { memberGuard, type Scope } from "~/server/accounts/index.server";
import type { DrawerMount } from "~/server/account-billing/index.server";
import { json } from "@remix-run/node";
import { buysAtResellerPrices } from "~/domain/access-policy";
import type { OrganizationKind } from "~db/schema";
import {
  LICENSE_CHANGED,
  planChangeProblem,
  planChoiceValue,
  SUBSCRIPTION_DATA_FAILED,
  UPDATE_STEPS,
  UPDATE_STEP_TITLES,
  updateBasePath,
  updateStepUrl,
  type UpdateBase,
  type UpdateStep,
} from "~/domain/license-update";
import { checkUpdateDraft, updateDraftSchema, type UpdateDraft } from "~/domain/license-update-forms";
import { CYCLES, cycleOf, displayName, PLAN_TIERS, planId, TIER_NAMES, tierOf, withCycle } from "~/domain/subscription";
import type { StepIssue } from "~/domain/wizard";
import {
  errorMessage,
  getBilling,
  ProviderError,
  type Estimate,
  type Subscription,
} from "~/server/billing/index.server";
import { licenseUpdate, type UpdateInput } from "./license-update-job.server";
import { recurringLicenseOf } from "~/server/subscriptions/index.server";
import { defineWizard, wizardLayout, type LoadedDraft } from "~/server/platform/wizards/kit.server";
import { checkedOrder, orderReviewOf, submitReviewedOrder, withPoNumber } from "./order-review.server";
import { ESTIMATE_FAILED, orderDigest, type Submission } from "./placing.server";

/** One draft per member and subscription: two licenses can be updated side by side. */
const definition = defineWizard({
  draftName: ({ subscriptionId }: { subscriptionId: string }) => `license-update:${subscriptionId}`,
  steps: UPDATE_STEPS,
  stepTitles: UPDATE_STEP_TITLES,
  basePath: ({ subscriptionId }: { subscriptionId: string }) => updateBasePath(subscriptionId),
  schema: updateDraftSchema,
  check: checkUpdateDraft,
});

export const licenseUpdateWizard = (subscriptionId: string) => definition.at({ subscriptionId });

const notFound = () => json({ message: "There is no such license." }, { status: 404 });

interface OwnLicense {
  license: NonNullable<Awaited<ReturnType<typeof recurringLicenseOf>>>;
  customerId: string;
}

/** The organization's recurring license behind the subscription; another organization's (or an unknown) one is 404. */
export async function requireOwnLicense({ organization }: Scope, subscriptionId: string): Promise<OwnLicense> {
  const license = await recurringLicenseOf(organization.id, subscriptionId);
  if (!license || !organization.billingCustomerId) throw notFound();
  return { license, customerId: organization.billingCustomerId };
}

/**
 * Where the account's drawers open over the update's payment step: they close to that step, and refuse another
 * organization's subscription (404) as the wizard does.
 */
export const updateDrawerMount = (subscriptionId: string): DrawerMount => ({
  closeTo: updateStepUrl(subscriptionId, "billing"),
  requireParent: (scope) => requireOwnLicense(scope, subscriptionId),
});

/** The wizard's layout route: a drawer over the Licenses page, for the organization's own license only. */
export const licenseUpdateWizardLayout = wizardLayout(
  memberGuard,
  "licenses.update",
  async (member, params) => {
    const subscriptionId = params.subscriptionId ?? "";
    const { license } = await requireOwnLicense(member, subscriptionId);
    return { wizard: licenseUpdateWizard(subscriptionId), view: { licenseName: license.name } };
  },
  "/licenses",
);

export type SubscriptionRead = { subscription: Subscription; base: UpdateBase } | { error: string };

/** The subscription as the billing provider has it now, or 'Failed to get subscription data...'. */
async function subscriptionOf(customerId: string, subscriptionId: string): Promise<SubscriptionRead> {
  try {
    const subscription = await getBilling().retrieveSubscription(customerId, subscriptionId);
    const tier = tierOf(subscription.planId);
    const cycle = cycleOf(subscription.planId);
    if (!tier || !cycle) return { error: SUBSCRIPTION_DATA_FAILED };
    return { subscription, base: { tier, cycle, quantity: subscription.planQuantity } };
  } catch (error) {
    if (!(error instanceof ProviderError)) throw error;
    return { error: errorMessage(error, SUBSCRIPTION_DATA_FAILED) };
  }
}

/** The organization's own subscription as the provider has it now (404 for anyone else's). */
export async function readSubscription(scope: Scope, subscriptionId: string): Promise<SubscriptionRead> {
  return subscriptionOf((await requireOwnLicense(scope, subscriptionId)).customerId, subscriptionId);
}

const sameBase = (a: UpdateBase, b: UpdateBase) =>
  a.tier === b.tier && a.cycle === b.cycle && a.quantity === b.quantity;

/** Why the draft's choice no longer applies: the subscription moved on since the Product step. */
export const baseMoved = (draft: UpdateDraft, live: UpdateBase) =>
  draft.base && !sameBase(draft.base, live) ? LICENSE_CHANGED : null;

/** The plans the New Plan selector offers, this customer's ids, each with why it cannot be chosen (or null). */
export async function planOptions(customer: { customerType: OrganizationKind }, base: UpdateBase) {
  const plans = await getBilling().listPlans();
  const reseller = buysAtResellerPrices(customer);
  return CYCLES.flatMap((cycle) =>
    PLAN_TIERS.map((tier) => {
      const plan = plans.find((item) => item.id === planId(tier, cycle, reseller));
      if (!plan) throw new Error(`The catalogue has no plan ${planId(tier, cycle, reseller)}.`);
      return {
        value: planChoiceValue({ tier, cycle }),
        name: displayName(plan.name),
        description: plan.description,
        price: plan.price,
        period: plan.period,
        problem: planChangeProblem(base, { tier, cycle }),
      };
    }),
  );
}

/** The change the draft asks for, in the billing port's terms: recurring add-ons follow the new cycle. */
function changeOf(
  customer: { customerType: OrganizationKind },
  draft: UpdateDraft,
  base: UpdateBase,
  subscription: Subscription,
) {
  return {
    planId: planId(draft.tier, draft.cycle, buysAtResellerPrices(customer)),
    planQuantity: base.quantity + draft.addedUsers,
    addons: subscription.addons.map((addon) => ({ id: withCycle(addon.id, draft.cycle), quantity: addon.quantity })),
    couponIds: draft.couponId ? [draft.couponId] : [],
  };
}

/**
 * The Review & Order step and the Update: the draft's update as it stands now, checked against what lies
 * outside the draft (the subscription as it is, the card, the addresses, the coupon), priced, and digested
 * for the confirmation. The loader and the update compute it the same way.
 */
async function currentUpdate(scope: Scope, own: OwnLicense, subscriptionId: string, draft: LoadedDraft<UpdateDraft>) {
  // Independent provider reads: asked at once.
  const [read, checked] = await Promise.all([
    subscriptionOf(own.customerId, subscriptionId),
    checkedOrder(scope, draft.data),
  ]);
  const { data, payment: ready } = checked;
  const problems: StepIssue<UpdateStep>[] = [];
  if ("error" in read) problems.push({ step: "product", message: read.error });
  const moved = "base" in read ? baseMoved(data, read.base) : null;
  if (moved) problems.push({ step: "product", message: moved });
  problems.push(...checked.problems);
  let estimate: Estimate | null = null;
  let estimateError: string | null = null;
  let input: UpdateInput | null = null;
  const base = data.base;
  if ("subscription" in read && base) {
    const { subscription } = read;
    const change = changeOf(scope.organization, data, base, subscription);
    // Shipping falls back to billing when it has no street line.
    const billingAddress = ready?.billingAddress ?? undefined;
    const shippingAddress = ready?.shippingAddress?.line1 ? ready.shippingAddress : billingAddress;
    const request: UpdateInput["request"] = {
      customerId: subscription.customerId,
      subscriptionId,
      from: { planId: subscription.planId, planQuantity: subscription.planQuantity },
      ...change,
      paymentSourceId: data.paymentSourceId ?? "",
      billingAddress,
      shippingAddress,
    };
    try {
      estimate = await getBilling().estimateSubscriptionUpdate(subscription.customerId, subscriptionId, change);
    } catch (error) {
      if (!(error instanceof ProviderError)) throw error;
      estimateError = errorMessage(error, ESTIMATE_FAILED);
    }
    if (estimate && problems.length === 0 && draft.id) {
      input = {
        draftId: draft.id,
        digest: orderDigest(request, estimate),
        request,
        licenseName: own.license.name,
        tier: data.tier,
      };
    }
  }
  return { ...checked, read, estimate, estimateError, problems, input };
}

/** What the Review & Order step shows, and the confirmation's key (null while the update cannot be made). */
export async function updateReview(scope: Scope, subscriptionId: string) {
  const own = await requireOwnLicense(scope, subscriptionId);
  const wizard = licenseUpdateWizard(subscriptionId);
  const draft = await wizard.load(scope, "review");
  const [update, plans, addonList] = await Promise.all([
    currentUpdate(scope, own, subscriptionId, draft),
    getBilling().listPlans(),
    getBilling().listAddons(),
  ]);
  const plan = plans.find(
    (item) => item.id === planId(update.data.tier, update.data.cycle, buysAtResellerPrices(scope.organization)),
  );
  const addons = "subscription" in update.read ? update.read.subscription.addons : [];
  const addonNames = new Map(addonList.map((addon) => [addon.id, displayName(addon.name)]));
  return {
    licenseName: own.license.name,
    recurring: plan
      ? {
          name: displayName(plan.name),
          users: (update.data.base?.quantity ?? 0) + update.data.addedUsers,
          unitPrice: plan.price,
          period: plan.period,
          addedUsers: update.data.addedUsers,
        }
      : null,
    addons: addons.map((addon) => {
      const id = withCycle(addon.id, update.data.cycle);
      return { id, name: addonNames.get(id) ?? id, quantity: addon.quantity };
    }),
    ...orderReviewOf(licenseUpdate, draft.id, update, wizard.urlOf),
  };
}

/**
 * 'Update': the update the confirmation was for, made once; a second post finds the first. The PO number typed on
 * the review goes with it (not into its digest: it changes no price).
 */
export function submitUpdate(
  scope: Scope,
  subscriptionId: string,
  postedKey: string,
  poNumber: string | null = null,
): Promise<Submission> {
  return submitReviewedOrder(licenseUpdate, {
    scope,
    wizard: licenseUpdateWizard(subscriptionId),
    reviewStep: "review",
    postedKey,
    price: async (draft) =>
      withPoNumber(
        await currentUpdate(scope, await requireOwnLicense(scope, subscriptionId), subscriptionId, draft),
        poNumber,
      ),
    activity: ({ licenseName, tier, request }) => ({
      action: "license.update_placed",
      summary: `Ordered a change of the license ${licenseName}: GateKeeper ${TIER_NAMES[tier]}, ${request.planQuantity} users (was ${request.from.planQuantity}).`,
    }),
  });
}
