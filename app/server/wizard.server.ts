import { redirect } from "@remix-run/node";
import type { z } from "zod";
import { firstIncompleteBefore, markCompleted, stepAfter } from "~/domain/wizard";
import { deleteDraft, findDraft, writeDraft } from "./drafts.server";

/**
 * The step-route pattern every wizard uses (DESIGN §1.2–1.3): a step's loader calls `load`, which reads
 * the server-side draft and sends a bookmarked step whose earlier steps are not done to the first one
 * that is not; a step's action validates its form and calls `complete`, which saves and redirects to the
 * next step. Refresh, Back and a second tab all read the same draft.
 */
export interface WizardDefinition<Step extends string, Schema extends z.ZodType<{ completed: Step[] }, z.ZodTypeDef, unknown>> {
  /** The drafts table's key for this wizard. */
  name: string;
  steps: readonly Step[];
  /** URL of the steps, e.g. /store/subscribe; a step is `${basePath}/${step}`. */
  basePath: string;
  /** Parses a stored draft, filling defaults; a draft that no longer parses starts over. */
  schema: Schema;
}

export interface LoadedDraft<Data> {
  id: string;
  data: Data;
}

export function defineWizard<Step extends string, Schema extends z.ZodType<{ completed: Step[] }, z.ZodTypeDef, unknown>>(
  definition: WizardDefinition<Step, Schema>,
) {
  type Data = z.infer<Schema>;
  const { name, steps, basePath, schema } = definition;
  const urlOf = (step: Step) => `${basePath}/${step}`;

  function read(ownerId: string): LoadedDraft<Data> {
    const stored = findDraft(ownerId, name);
    const parsed = schema.safeParse(stored?.data ?? {});
    if (stored && parsed.success) return { id: stored.id, data: parsed.data };
    return write(ownerId, schema.parse({}) as Data);
  }

  function write(ownerId: string, data: Data): LoadedDraft<Data> {
    const stored = writeDraft(ownerId, name, data as Record<string, unknown>);
    return { id: stored.id, data };
  }

  return {
    steps,
    urlOf,
    /** The draft without the step guard, e.g. for the stepper of the wizard's layout. */
    peek: read,
    /** The draft for a step, or a redirect to the first earlier step that is not done. */
    load(ownerId: string, step: Step): LoadedDraft<Data> {
      const draft = read(ownerId);
      const missing = firstIncompleteBefore(steps, step, draft.data.completed);
      if (missing) throw redirect(urlOf(missing));
      return draft;
    },
    /** Saves changes without moving on (a cycle switch, a coupon), keeping what the step already has. */
    save(ownerId: string, changes: Partial<Data>): LoadedDraft<Data> {
      return write(ownerId, { ...read(ownerId).data, ...changes });
    },
    /** Saves the step's values, marks it done and redirects to the next step. */
    complete(ownerId: string, step: Step, changes: Partial<Data>) {
      const draft = read(ownerId);
      write(ownerId, { ...draft.data, ...changes, completed: markCompleted(draft.data.completed, step) });
      const next = stepAfter(steps, step);
      return redirect(next ? urlOf(next) : urlOf(step));
    },
    /** Starts over: closing the wizard clears its draft. */
    clear(ownerId: string): void {
      deleteDraft(ownerId, name);
    },
  };
}
