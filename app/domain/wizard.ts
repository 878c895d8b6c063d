/**
 * The step order of any wizard (new subscription, update, cloud Hub, trials): each step is a URL, and a
 * bookmarked step whose earlier steps are not done sends the user to the first one that is not.
 */
export function firstIncompleteBefore<Step extends string>(steps: readonly Step[], step: Step, completed: readonly Step[]): Step | null {
  return steps.slice(0, steps.indexOf(step)).find((earlier) => !completed.includes(earlier)) ?? null;
}

export function stepAfter<Step extends string>(steps: readonly Step[], step: Step): Step | null {
  return steps[steps.indexOf(step) + 1] ?? null;
}

export function stepBefore<Step extends string>(steps: readonly Step[], step: Step): Step | null {
  return steps[steps.indexOf(step) - 1] ?? null;
}

/** The steps marked done, with `step` added (once). */
export function markCompleted<Step extends string>(completed: readonly Step[], step: Step): Step[] {
  return completed.includes(step) ? [...completed] : [...completed, step];
}
