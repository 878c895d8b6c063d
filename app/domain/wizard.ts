import { z } from "zod";

/**
 * The step order of any wizard (new subscription, update, cloud Hub, trials): each step is a URL, and a
 * bookmarked step whose earlier steps are not done sends the user to the first one that is not.
 */
export function firstIncompleteBefore<Step extends string>(
  steps: readonly Step[],
  step: Step,
  completed: readonly Step[],
): Step | null {
  return steps.slice(0, steps.indexOf(step)).find((earlier) => !completed.includes(earlier)) ?? null;
}

export function stepAfter<Step extends string>(steps: readonly Step[], step: Step): Step | null {
  return steps[steps.indexOf(step) + 1] ?? null;
}

/** The steps marked done, with `step` added (once). */
export function markCompleted<Step extends string>(completed: readonly Step[], step: Step): Step[] {
  return completed.includes(step) ? [...completed] : [...completed, step];
}

/** Why a step that was done no longer holds; the step becomes incomplete and shows the message. */
export interface StepIssue<Step extends string> {
  step: Step;
  message: string;
}

/** The progress fields every wizard's draft has: the steps done, and the notices waiting at steps. */
export function wizardProgressFields<Step extends string>(steps: readonly [Step, ...Step[]]) {
  return {
    completed: z.array(z.enum(steps)).default([]),
    notices: z.array(z.object({ step: z.enum(steps), message: z.string() })).default([]),
  };
}

/**
 * The done steps a user can reach: those before the first step not done. The stepper links only to
 * these, so a later step that was done but no longer holds is not skipped to.
 */
export function reachableSteps<Step extends string>(steps: readonly Step[], completed: readonly Step[]): Step[] {
  const firstOpen = steps.findIndex((step) => !completed.includes(step));
  return firstOpen === -1 ? [...steps] : steps.slice(0, firstOpen);
}
