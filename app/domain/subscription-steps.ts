/**
 * The new-subscription wizard's steps: names, titles, URLs, field names and the messages its pages show. No zod
 * here: the pages load this, and the step schemas in new-subscription.ts only when a form is validated
 * (decisions 062 and 105).
 */

/** The seven steps of the new-subscription wizard, in order; each is a URL under /store/subscribe. */
export const SUBSCRIPTION_STEPS = ["plan", "hosting", "hardware", "support", "review", "billing", "order"] as const;
export type SubscriptionStep = (typeof SUBSCRIPTION_STEPS)[number];

export const SUBSCRIBE_PATH = "/store/subscribe";

/** A distributor's order for an end customer it adds with the order: `?customer=new`. */
export const NEW_CUSTOMER = "new";

/**
 * The query of a distributor's order for an end customer, which every step's URL carries (an end customer's id, or
 * NEW_CUSTOMER): a bookmarked step reopens that customer's draft. Empty for an order of no customer.
 */
export const customerSearch = (customer: string | null | undefined) =>
  customer ? `?customer=${encodeURIComponent(customer)}` : "";

/** The `?customer=` of the draft an order's licensee was chosen in: its id, NEW_CUSTOMER, or none. */
export const orderCustomerQuery = (licensee: { customerId: string } | { newCustomer: string } | null) =>
  licensee === null ? null : "customerId" in licensee ? licensee.customerId : NEW_CUSTOMER;

/**
 * The `?customer=` of a quote's order (decision 220): `quote-<quote id>`, a draft of its own whose order is the
 * quote's. No end customer's id has this form (they are UUIDs).
 */
const QUOTE_ORDER_PREFIX = "quote-";
export const quoteOrderQuery = (quoteId: string) => `${QUOTE_ORDER_PREFIX}${quoteId}`;

/** The quote a `?customer=` orders, or null when it is no quote's order. */
export const quoteOfQuery = (customer: string | null) =>
  customer?.startsWith(QUOTE_ORDER_PREFIX) ? customer.slice(QUOTE_ORDER_PREFIX.length) : null;

/**
 * The plan step run as the spec's `new-quote` action ('Make a quote'), for an organization's own license: the quote
 * is for the organization itself, so the step asks no organization name (the server fills in the organization's own).
 * A distributor's plan step names the end customer by choosing it, whatever the action.
 */
export const asNewQuote = (stepUrl: string) => `${stepUrl}${stepUrl.includes("?") ? "&" : "?"}action=new-quote`;

/** Whether a plan step's URL (its page, or the post of its form) is the `new-quote` action's. */
export const isNewQuote = (url: string) => new URL(url, "http://portal").searchParams.get("action") === "new-quote";

/** A step's URL (the browser builds links with it, so it lives here rather than in the server's wizard). */
export const subscriptionStepUrl = (step: SubscriptionStep, customer?: string | null) =>
  `${SUBSCRIBE_PATH}/${step}${customerSearch(customer)}`;

/** Where 'Make a quote' starts: the plan step of the organization's own license, as the `new-quote` action. */
export const NEW_QUOTE_PLAN_URL = asNewQuote(subscriptionStepUrl("plan"));

export const STEP_TITLES: Record<SubscriptionStep, string> = {
  plan: "Plan",
  hosting: "Hosting",
  hardware: "Hardware",
  support: "Support",
  review: "Review",
  billing: "Billing",
  order: "Order",
};

export const FIX_ERRORS = "Please fix the errors.";
export const CLOUD_HUB_NEEDS_CLOUD_HOSTING =
  "A license for a cloud Hub is hosted in GateKeeper Cloud: please choose cloud hosting.";

export const quantityField = (id: string) => `quantity-${id}`;
export const addonField = (id: string) => `addon-${id}`;
