import { describe, expect, it } from "vitest";
import {
  CANNOT_REDUCE_USERS,
  NO_CHANGES,
  planChangeProblem,
  updateProblems,
  YEARLY_TO_MONTHLY,
  type UpdateBase,
} from "~/domain/license-update";
import { checkUpdateDraft, productStepSchema, updateDraftSchema } from "~/domain/license-update-forms";

const coreMonthly10: UpdateBase = { tier: "core", cycle: "monthly", quantity: 10 };

describe("which plan changes an update allows", () => {
  it("never moves a yearly plan to monthly", () => {
    expect(planChangeProblem({ tier: "core", cycle: "yearly" }, { tier: "ultimate", cycle: "monthly" })).toBe(
      YEARLY_TO_MONTHLY,
    );
    expect(planChangeProblem({ tier: "core", cycle: "monthly" }, { tier: "core", cycle: "yearly" })).toBeNull();
  });

  it("allows the same or a higher tier, and names them otherwise", () => {
    expect(planChangeProblem({ tier: "core", cycle: "monthly" }, { tier: "advanced", cycle: "monthly" })).toBeNull();
    expect(planChangeProblem({ tier: "advanced", cycle: "monthly" }, { tier: "core", cycle: "monthly" })).toBe(
      "You can only switch to Advanced or Ultimate.",
    );
    expect(planChangeProblem({ tier: "ultimate", cycle: "yearly" }, { tier: "advanced", cycle: "yearly" })).toBe(
      "You can only switch to Ultimate.",
    );
  });
});

describe("the Product step", () => {
  it("says what is wrong with fewer users, no change, and a refused plan, on their fields", () => {
    expect(updateProblems(coreMonthly10, { tier: "core", cycle: "monthly", addedUsers: -1 })).toEqual([
      { field: "addedUsers", message: CANNOT_REDUCE_USERS },
    ]);
    expect(updateProblems(coreMonthly10, { tier: "core", cycle: "monthly", addedUsers: 0 })).toEqual([
      { field: "addedUsers", message: NO_CHANGES },
    ]);
    expect(updateProblems(coreMonthly10, { tier: "core", cycle: "monthly", addedUsers: 5 })).toEqual([]);
    expect(updateProblems(coreMonthly10, { tier: "advanced", cycle: "monthly", addedUsers: 0 })).toEqual([]);
  });

  it("reads the posted form: empty means no users added, decimals are refused, and the choice comes out as tier and cycle", () => {
    const schema = productStepSchema(coreMonthly10);
    expect(schema.safeParse({ plan: "advanced-yearly", addedUsers: "" })).toMatchObject({
      success: true,
      data: { tier: "advanced", cycle: "yearly", addedUsers: 0 },
    });
    expect(schema.safeParse({ plan: "core-monthly", addedUsers: "5" })).toMatchObject({
      success: true,
      data: { addedUsers: 5 },
    });
    const messages = (input: Record<string, string>) => {
      const result = schema.safeParse(input);
      return result.success ? [] : result.error.issues.map((issue) => [issue.path.join("."), issue.message]);
    };
    expect(messages({ plan: "core-monthly", addedUsers: "-3" })).toEqual([["addedUsers", CANNOT_REDUCE_USERS]]);
    expect(messages({ plan: "core-monthly", addedUsers: "2.5" })).toEqual([
      ["addedUsers", "Please enter a whole number of users to add."],
    ]);
    expect(messages({ plan: "gold-weekly", addedUsers: "1" })).toEqual([["plan", "Please choose a plan."]]);
    expect(
      productStepSchema({ tier: "advanced", cycle: "yearly", quantity: 3 }).safeParse({
        plan: "advanced-monthly",
        addedUsers: "1",
      }).success,
    ).toBe(false);
  });

  it("is undone when a stored draft no longer holds, and Billing needs a card", () => {
    const draft = updateDraftSchema.parse({
      base: coreMonthly10,
      tier: "core",
      cycle: "monthly",
      addedUsers: 0,
      completed: ["product"],
    });
    expect(checkUpdateDraft(draft).issues).toEqual([
      { step: "product", message: NO_CHANGES },
      { step: "billing", message: "Please select a payment method." },
    ]);
  });
});
