/**
 * The new-subscription wizard's steps: names, titles, URLs, field names and the messages its pages show. No zod
 * here: the pages load this, and the step schemas in new-subscription.ts only when a form is validated
 * (decisions 062 and 105).
 */

/** The seven steps of the new-subscription wizard, in order; each is a URL under /store/subscribe. */
export const SUBSCRIPTION_STEPS = ["plan", "hosting", "hardware", "support", "review", "billing", "order"] as const;
export type SubscriptionStep = (typeof SUBSCRIPTION_STEPS)[number];

export const SUBSCRIBE_PATH = "/store/subscribe";

/** A step's URL (the browser builds links with it, so it lives here rather than in the server's wizard). */
export const subscriptionStepUrl = (step: SubscriptionStep) => `${SUBSCRIBE_PATH}/${step}`;

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
