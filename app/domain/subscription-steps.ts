/**
 * The new-subscription wizard's steps: names, titles and URLs. No zod here: the wizard's layout and the
 * steps without a form of their own (review, order) load this, not the step schemas in new-subscription.ts
 * (decision 062).
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
