import { z } from "zod";
import {
  ADDED_USERS_NOT_A_NUMBER,
  parsePlanChoice,
  UPDATE_STEPS,
  updateProblems,
  type UpdateBase,
  type UpdateStep,
} from "./license-update";
import { wholeNumberField } from "./fields";
import { SELECT_PAYMENT_METHOD } from "./payment-step";
import { CYCLES, PLAN_TIERS, type Cycle } from "./subscription";
import { wizardProgressFields, type StepIssue } from "./wizard";

const cycle = z.enum(CYCLES as [Cycle, ...Cycle[]]);

/**
 * The update's draft as the server keeps it between steps. `base` is the subscription the Product step was
 * chosen against: the order adds users to that, and is refused if the subscription moved on since.
 */
export const updateDraftSchema = z.object({
  base: z
    .object({ tier: z.enum(PLAN_TIERS), cycle, quantity: z.number().int().min(1) })
    .nullable()
    .default(null),
  tier: z.enum(PLAN_TIERS).default("core"),
  cycle: cycle.default("monthly"),
  addedUsers: z.number().int().default(0),
  paymentSourceId: z.string().nullable().default(null),
  couponId: z.string().nullable().default(null),
  ...wizardProgressFields(UPDATE_STEPS),
});

export type UpdateDraft = z.infer<typeof updateDraftSchema>;

/** Additional Users as posted: empty means 0; fewer than 0 is left to the update's rule ('Cannot reduce…'). */
const addedUsers = wholeNumberField(ADDED_USERS_NOT_A_NUMBER, { min: -100000, max: 100000 });

const PLAN_REQUIRED = "Please choose a plan.";

/** The Product step's form against the subscription it updates: the plan choice and the users added. */
function productFormSchema(base: UpdateBase) {
  return z
    .object({
      plan: z.string().refine((value) => parsePlanChoice(value) !== null, PLAN_REQUIRED),
      addedUsers,
    })
    .superRefine(({ plan, addedUsers: added }, ctx) => {
      const choice = parsePlanChoice(plan);
      if (!choice) return;
      for (const problem of updateProblems(base, { ...choice, addedUsers: added })) {
        ctx.addIssue({ code: z.ZodIssueCode.custom, path: [problem.field], message: problem.message });
      }
    });
}

/** The same form, as the draft keeps the choice: tier, cycle and the users added. */
export function productStepSchema(base: UpdateBase) {
  return productFormSchema(base).transform(({ plan, addedUsers: added }, ctx) => {
    const choice = parsePlanChoice(plan);
    if (choice) return { ...choice, addedUsers: added };
    ctx.addIssue({ code: z.ZodIssueCode.custom, path: ["plan"], message: PLAN_REQUIRED });
    return z.NEVER;
  });
}

/** The whole draft: the Product step's choice against its base, and a card for the Billing step. */
export function checkUpdateDraft(draft: UpdateDraft): { data: UpdateDraft; issues: StepIssue<UpdateStep>[] } {
  const issues: StepIssue<UpdateStep>[] = draft.base
    ? updateProblems(draft.base, draft).map((problem) => ({ step: "product" as const, message: problem.message }))
    : [{ step: "product", message: "Please choose the update." }];
  if (!draft.paymentSourceId) issues.push({ step: "billing", message: SELECT_PAYMENT_METHOD });
  return { data: draft, issues };
}
