import { redirect } from "@remix-run/node";
import { assertMay, mayDo, memberGuard, type Scope } from "~/server/accounts/index.server";
import { customerChoices, customerOf, requireCustomer } from "~/server/resellers/index.server";
import { buysAtResellerPrices, type Action } from "~/domain/access-policy";
import type { OrganizationKind } from "~db/schema";
import { estimateView } from "~/domain/estimate";
import { QUOTE_FOR_NEW_CUSTOMER } from "~/domain/quotes";
import {
  checkSubscriptionDraft,
  cycleSchema,
  planStepSchema,
  SUBSCRIBE_PATH,
  subscriptionDraftSchema,
  SUBSCRIPTION_STEPS,
  type SubscriptionDraft,
} from "~/domain/new-subscription";
import {
  customerSearch,
  NEW_CUSTOMER,
  quoteOfQuery,
  quoteOrderQuery,
  STEP_TITLES,
  subscriptionStepUrl,
} from "~/domain/subscription-steps";
import { firstIncompleteBefore } from "~/domain/wizard";
import { hostingAddonId, idFor, offsiteAccessAddonId, planId } from "~/domain/subscription";
import {
  errorMessage,
  getBilling,
  ProviderError,
  type BillingProvider,
  type Estimate,
} from "~/server/billing/index.server";
import { defineWizard, wizardLayout } from "~/server/platform/wizards/kit.server";
import { ESTIMATE_FAILED } from "./placing.server";
import { lockedDraft, lockedStepRedirect, LOCKED_STEPS, quoteLockOf, type QuoteLock } from "./quote-orders.server";

/**
 * One draft per member and customer: a distributor's order for an end customer (`?customer=` on every step, its id
 * or NEW_CUSTOMER) has a draft of its own, so a bookmarked step for one customer reopens that customer's draft.
 */
const definition = defineWizard({
  draftName: ({ customer }: { customer: string | null }) =>
    customer ? `new-subscription:customer:${customer}` : "new-subscription",
  steps: SUBSCRIPTION_STEPS,
  stepTitles: STEP_TITLES,
  basePath: () => SUBSCRIBE_PATH,
  search: ({ customer }: { customer: string | null }) => customerSearch(customer),
  schema: subscriptionDraftSchema,
  check: checkSubscriptionDraft,
});

/** The wizard of an order for no end customer (a customer's own license). */
export const subscriptionWizard = definition.at({ customer: null });

/** Whom an order is for: an organization's own license, an end customer of the distributor, or a new one. */
export type OrderCustomer = { kind: "none" } | { kind: "existing"; id: string; name: string } | { kind: "new" };

export type SubscriptionWizard = typeof subscriptionWizard;

/** The wizard of an order's draft, and whom it is for (subscriptionWizardFor). */
export interface OrderDraft {
  wizard: SubscriptionWizard;
  customer: OrderCustomer;
  /** The accepted quote the order is of, whose lines it is locked to; null for any other order. */
  quote: QuoteLock | null;
}

/** The order of an organization's own license. */
export const OWN_ORDER: OrderDraft = { wizard: subscriptionWizard, customer: { kind: "none" }, quote: null };

/**
 * The wizard of a quote's order: its draft always holds the quote's order (whatever was stored), the steps that
 * choose the order are done and lead to Billing (so their bookmarked URLs still work, and no form can change the
 * order), and every step of a quote that cannot be ordered leads to the quote's page, which says why.
 */
function lockedWizard(wizard: SubscriptionWizard, lock: QuoteLock): SubscriptionWizard {
  const read: SubscriptionWizard["read"] = async (owner, initial) => {
    const draft = await wizard.read(owner, initial);
    return { ...draft, data: lockedDraft(lock, draft.data) };
  };
  const billingUrl = wizard.urlOf("billing");
  return {
    ...wizard,
    read,
    async load(owner, step) {
      const moved = lockedStepRedirect(lock, step, billingUrl);
      if (moved) throw moved;
      const draft = await read(owner);
      const missing = firstIncompleteBefore(wizard.steps, step, draft.data.completed);
      if (missing) throw redirect(wizard.urlOf(missing));
      return draft;
    },
    async complete(owner, step, changes) {
      return lockedStepRedirect(lock, step, billingUrl) ?? wizard.complete(owner, step, changes);
    },
    // The steps that chose the order are the quote's: the stepper shows them done and links only Billing back.
    layout: (owner, pathname) => wizard.layout(owner, pathname, LOCKED_STEPS),
  };
}

/**
 * The order of the member's organization's quote `quoteId` (the buying roles only; another's is 404), for the end
 * customer it was made for, if it is still the distributor's.
 */
async function quoteOrderDraft(member: Scope, quoteId: string): Promise<OrderDraft> {
  const lock = await quoteLockOf(member, quoteId);
  assertMay(member, lock.customerId ? "customers.purchase" : "purchase");
  const found = lock.customerId ? await requireCustomer(member.organization.id, lock.customerId) : null;
  return {
    wizard: lockedWizard(definition.at({ customer: quoteOrderQuery(quoteId) }), lock),
    customer: found ? { kind: "existing", id: found.id, name: found.name } : { kind: "none" },
    quote: lock,
  };
}

/**
 * The wizard of an order for `customer` (the `?customer=` of its URL: an end customer's id, or NEW_CUSTOMER): only a
 * member whom the access policy lets buy for end customers (else 403 with the reason), and only for the
 * distributor's own customers (another's, or an unknown id, is a 404).
 */
export async function subscriptionWizardFor(member: Scope, customer: string | null): Promise<OrderDraft> {
  if (customer === null) return OWN_ORDER;
  const quoteId = quoteOfQuery(customer);
  if (quoteId !== null) return quoteOrderDraft(member, quoteId);
  assertMay(member, "customers.purchase");
  if (customer === NEW_CUSTOMER) return { wizard: definition.at({ customer }), customer: { kind: "new" }, quote: null };
  const found = await requireCustomer(member.organization.id, customer);
  return {
    wizard: definition.at({ customer: found.id }),
    customer: { kind: "existing", id: found.id, name: found.name },
    quote: null,
  };
}

/**
 * The right a step of the wizard checks: buying, or buying for an end customer when its URL names one (so that
 * a refusal gives that right's reason).
 */
export function purchaseRight(request: Request): Action {
  const customer = new URL(request.url).searchParams.get("customer");
  if (customer === null) return "purchase";
  // A quote's order is the quotes' right; its wizard checks the buying right as well.
  return quoteOfQuery(customer) === null ? "customers.purchase" : "quotes.manage";
}

/** The wizard of the request's URL (its `?customer=`). */
export const subscriptionWizardOf = (member: Scope, request: Request) =>
  subscriptionWizardFor(member, new URL(request.url).searchParams.get("customer"));

/**
 * The plan step's choice of customer, for a member who buys for the distributor's end customers: its customers by
 * name (the URL's among them), and whether there are more; null for everyone else, whose step asks for the
 * organization's name instead.
 */
export async function planStepCustomers(member: Scope, customer: OrderCustomer) {
  if (!mayDo(member, "customers.purchase")) return null;
  return customerChoices(member.organization.id, customer.kind === "existing" ? customer : null);
}

export const CHOOSE_CUSTOMER = "Please choose the customer the license is for.";

/**
 * The plan step's post as the wizard validates it: a distributor's member chooses an end customer (`customer`, its
 * id, or NEW_CUSTOMER with the new one's name typed into `organization`), and the license's organization is that
 * customer's name; an organization's own quote (`newQuote`) is for the organization, whatever name was posted.
 * The wizard of the chosen customer's draft, and the organization the server decided (null: the typed one), or the
 * field error.
 */
export async function planStepCustomer(
  member: Scope,
  formData: FormData,
  { newQuote }: { newQuote: boolean },
): Promise<{ wizard: SubscriptionWizard; organization: string | null } | { error: string }> {
  if (!mayDo(member, "customers.purchase"))
    return { wizard: subscriptionWizard, organization: newQuote ? member.organization.name : null };
  const chosen = String(formData.get("customer") ?? "");
  if (chosen === NEW_CUSTOMER) {
    // A quote is made for a customer already added (Save as quote refuses a new one): the field says so at once.
    if (newQuote) return { error: QUOTE_FOR_NEW_CUSTOMER };
    return { wizard: definition.at({ customer: chosen }), organization: null };
  }
  // A customer that is not the distributor's (a forged post) is no choice: the field asks again.
  const customer = chosen ? await customerOf(member.organization.id, chosen) : null;
  if (!customer) return { error: CHOOSE_CUSTOMER };
  return { wizard: definition.at({ customer: customer.id }), organization: customer.name };
}

/** The Billing step's URL of the request's order (its `?customer=`): where the step's drawers close to. */
export const billingStepOf = (request: Request) =>
  subscriptionStepUrl("billing", new URL(request.url).searchParams.get("customer"));

/** The wizard's layout route: a drawer over the Store; Close goes back to it. */
export const subscriptionWizardLayout = wizardLayout(
  memberGuard,
  purchaseRight,
  async (member, _params, url) => ({
    wizard: (await subscriptionWizardFor(member, url.searchParams.get("customer"))).wizard,
    view: {},
  }),
  "/store",
);

/**
 * The plan step's cycle buttons (intent "cycle-monthly" or "cycle-yearly"): the draft's new cycle with whatever
 * of the typed plan fields is valid, so switching keeps what was typed; null for any other intent.
 */
export function cycleSwitch(intent: string, formData: FormData): Partial<SubscriptionDraft> | null {
  const cycle = cycleSchema.safeParse(intent.replace(/^cycle-/, ""));
  if (!intent.startsWith("cycle-") || !cycle.success) return null;
  const typed = planStepSchema.partial().safeParse(Object.fromEntries(formData));
  return { cycle: cycle.data, ...(typed.success ? typed.data : {}) };
}

const quantities = (byListId: Record<string, number>, reseller: boolean) =>
  Object.entries(byListId)
    .filter(([, quantity]) => quantity > 0)
    .map(([id, quantity]) => ({ id: idFor(id, reseller), quantity }));

/** The order the draft describes, in the billing port's terms (for its estimate and its creation). */
export function orderItems(draft: SubscriptionDraft, reseller: boolean) {
  return {
    planId: planId(draft.tier, draft.cycle, reseller),
    planQuantity: draft.users,
    // The hosting add-on, and offsite access when chosen, each with quantity 1.
    addons: [
      { id: hostingAddonId(draft.hosting, draft.cycle, reseller), quantity: 1 },
      ...(draft.offsiteAccess ? [{ id: offsiteAccessAddonId(draft.cycle, reseller), quantity: 1 }] : []),
    ],
    oneTimeAddons: quantities(draft.support, reseller),
    hardware: quantities(draft.hardware, reseller),
    couponIds: draft.couponId ? [draft.couponId] : [],
  };
}

/**
 * What the draft's items cost, before the customer's own balance and addresses come in (the Review step):
 * made without a billing customer, so that a page read never has to create one. `billing` is the configured
 * provider, or the embedded engine of a transaction (the demo seed's).
 */
export function estimateDraft(
  customer: { customerType: OrganizationKind },
  draft: SubscriptionDraft,
  options: { withCoupon: boolean },
  billing: Pick<BillingProvider, "estimateNewSubscription"> = getBilling(),
): Promise<Estimate> {
  const items = orderItems(draft, buysAtResellerPrices(customer));
  return billing.estimateNewSubscription({
    ...items,
    couponIds: options.withCoupon ? items.couponIds : [],
  });
}

/** An estimate for a page, or the message to show in its place. */
export async function estimateForPage(estimate: () => Promise<Estimate>) {
  try {
    return { estimate: estimateView(await estimate()), estimateError: null };
  } catch (error) {
    if (!(error instanceof ProviderError)) throw error;
    return { estimate: null, estimateError: errorMessage(error, ESTIMATE_FAILED) };
  }
}
