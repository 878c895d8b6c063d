import { PLAN_TIERS, type Cycle, type Tier } from "./subscription";

/**
 * The update-license wizard: add
 * users to a recurring license or move it to a higher tier. Its steps, titles and rules, free of schemas,
 * so that the wizard's layout loads none (the forms' schemas are in license-update-forms.ts).
 */
export const UPDATE_STEPS = ["product", "billing", "review"] as const;
export type UpdateStep = (typeof UPDATE_STEPS)[number];

export const UPDATE_STEP_TITLES: Record<UpdateStep, string> = {
  product: "Product",
  billing: "Billing",
  review: "Review & Order",
};

export const updateBasePath = (subscriptionId: string) => `/licenses/${encodeURIComponent(subscriptionId)}/update`;
export const updateStepUrl = (subscriptionId: string, step: UpdateStep) => `${updateBasePath(subscriptionId)}/${step}`;

export const UPDATE_INFO =
  "You need to upgrade the plan or increase the number of users to update the recurring license.";
export const CANNOT_REDUCE_USERS = "Cannot reduce the number of users.";
export const NO_CHANGES = "Did not make any subscription changes.";
export const YEARLY_TO_MONTHLY = "Yearly plan cannot be changed to monthly.";
export const ADDED_USERS_NOT_A_NUMBER = "Please enter a whole number of users to add.";
export const SUBSCRIPTION_DATA_FAILED = "Failed to get subscription data...";
export const UPDATE_FAILED = "Failed to update recurring license.";
export const LICENSE_CHANGED =
  "Your recurring license changed since you chose this update (perhaps in another tab), so nothing was charged. Please choose the update again.";

const TIER_NAMES: Record<Tier, string> = { core: "Core", advanced: "Advanced", ultimate: "Ultimate" };

/** A plan as the update compares it: its tier and its billing cycle. */
export interface PlanChoice {
  tier: Tier;
  cycle: Cycle;
}

/** The plan choice's form value, e.g. "advanced-yearly", and back. */
export const planChoiceValue = (plan: PlanChoice) => `${plan.tier}-${plan.cycle}`;

export function parsePlanChoice(value: string): PlanChoice | null {
  const [tier, cycle] = value.split("-");
  const knownTier = PLAN_TIERS.find((candidate) => candidate === tier);
  return knownTier && (cycle === "monthly" || cycle === "yearly") ? { tier: knownTier, cycle } : null;
}

const tierRank = (tier: Tier) => PLAN_TIERS.indexOf(tier);

/** Names joined as a person says them: "Advanced or Ultimate", "Core, Advanced or Ultimate". */
const orList = (names: string[]) =>
  names.length < 2 ? names.join("") : `${names.slice(0, -1).join(", ")} or ${names[names.length - 1]}`;

/**
 * Why the plan cannot change from one to the other: a yearly plan never becomes monthly, and
 * only the same or a higher tier is allowed. Null when the change is allowed.
 */
export function planChangeProblem(from: PlanChoice, to: PlanChoice): string | null {
  if (from.cycle === "yearly" && to.cycle === "monthly") return YEARLY_TO_MONTHLY;
  if (tierRank(to.tier) < tierRank(from.tier)) {
    const allowed = PLAN_TIERS.filter((tier) => tierRank(tier) >= tierRank(from.tier)).map((tier) => TIER_NAMES[tier]);
    return `You can only switch to ${orList(allowed)}.`;
  }
  return null;
}

/** The subscription the update starts from, as it was when the Product step was saved. */
export interface UpdateBase extends PlanChoice {
  quantity: number;
}

/** What the Product step chose. */
export interface UpdateChoice extends PlanChoice {
  addedUsers: number;
}

export type ProductField = "plan" | "addedUsers";

/** Every reason the chosen update cannot be made, by field. */
export function updateProblems(base: UpdateBase, choice: UpdateChoice): { field: ProductField; message: string }[] {
  const problems: { field: ProductField; message: string }[] = [];
  if (choice.addedUsers < 0) problems.push({ field: "addedUsers", message: CANNOT_REDUCE_USERS });
  const planProblem = planChangeProblem(base, choice);
  if (planProblem) problems.push({ field: "plan", message: planProblem });
  if (choice.tier === base.tier && choice.cycle === base.cycle && choice.addedUsers === 0) {
    problems.push({ field: "addedUsers", message: NO_CHANGES });
  }
  return problems;
}
