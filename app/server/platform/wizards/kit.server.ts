import { redirect, redirectDocument, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import type { z } from "zod";
import { firstIncompleteBefore, markCompleted, reachableSteps, stepAfter, type StepIssue } from "~/domain/wizard";
import type { Action } from "~/domain/access-policy";
import type { Guard } from "../guard.server";
import { deleteDraft, findDraft, writeDraft, type DraftOwner } from "./drafts.server";

/**
 * The wizard kit (decision 043): every wizard is a definition here, a few short route modules (one per
 * step, one layout) and its rules in app/domain.
 *
 * - A step's loader calls `load`: the draft with the step guard (a bookmarked step whose earlier steps are
 *   not done sends to the first one that is not). Reading never writes: a user with no draft gets the
 *   wizard's initial state in memory, and nothing is stored until a step's form is posted.
 * - A step's action validates its form and calls `complete` (save, mark done, go on) or `save` (stay).
 * - Every save runs the wizard's `check` over the whole draft: choices that became impossible are dropped,
 *   and a step that was done but no longer holds becomes incomplete with a notice saying why, so the guard
 *   and the stepper stop past it.
 * - Wizards with URL parameters (`/licenses/:subscriptionId/update/...`, or a query such as `?customer=` that every
 *   step's URL carries) keep one draft per parameter set.
 */
interface Progress<Step extends string> {
  completed: Step[];
  notices: StepIssue<Step>[];
}

export interface WizardDefinition<Step extends string, Data extends Progress<Step>, Params> {
  /** The drafts table's key for this wizard and these parameters. */
  draftName: (params: Params) => string;
  steps: readonly Step[];
  /** What the stepper calls each step. */
  stepTitles: Record<Step, string>;
  /** The URL of the steps, e.g. /store/subscribe; a step is `${basePath(params)}/${step}${search(params)}`. */
  basePath: (params: Params) => string;
  /** The query every step's URL carries (`?customer=…`), so a bookmarked step reopens its own draft; none if absent. */
  search?: (params: Params) => string;
  /** Parses a stored draft, filling defaults; a draft that no longer parses starts over. */
  schema: z.ZodType<Data, z.ZodTypeDef, unknown>;
  /** The whole draft against the wizard's rules: the draft with impossible choices dropped, and why. */
  check: (data: Data) => { data: Data; issues: StepIssue<Step>[] };
  /**
   * Steps a step's form goes on to as a new document rather than into the page on screen: a step whose page needs
   * what that page's document may not allow (Stripe.js, which loads only in a card page's document). Fetched into
   * the page, such a step would load, render, then load again as a document (for a card form, a second
   * SetupIntent). None unless given; asked of the draft as each step's completion saved it.
   */
  documentSteps?: (data: Data) => readonly Step[];
}

export interface LoadedDraft<Data> {
  /** The stored draft's id; null while nothing has been saved. */
  id: string | null;
  data: Data;
}

export function defineWizard<Step extends string, Data extends Progress<Step>, Params = Record<string, never>>(
  definition: WizardDefinition<Step, Data, Params>,
) {
  const { steps, stepTitles, schema, check } = definition;

  /** The draft with the rules applied: a done step with an issue is no longer done, and says why. */
  function checked(data: Data): Data {
    const { data: kept, issues } = check(data);
    const broken = issues.filter((issue) => kept.completed.includes(issue.step));
    if (broken.length === 0) return kept;
    const brokenSteps = new Set(broken.map((issue) => issue.step));
    const notices = [...kept.notices.filter((notice) => !brokenSteps.has(notice.step)), ...broken];
    return { ...kept, completed: kept.completed.filter((step) => !brokenSteps.has(step)), notices };
  }

  return {
    steps,
    /** The wizard bound to its URL parameters (none for the new-subscription wizard). */
    at(params: Params) {
      const name = definition.draftName(params);
      const search = definition.search?.(params) ?? "";
      const urlOf = (step: Step) => `${definition.basePath(params)}/${step}${search}`;

      /** The stored draft, or the initial state; never writes. */
      async function read(owner: DraftOwner, initial: () => unknown = () => ({})): Promise<LoadedDraft<Data>> {
        const stored = await findDraft(owner, name);
        const parsed = stored ? schema.safeParse(stored.data) : null;
        if (stored && parsed?.success) return { id: stored.id, data: checked(parsed.data) };
        return { id: null, data: schema.parse(initial()) };
      }

      async function write(owner: DraftOwner, data: Data): Promise<LoadedDraft<Data>> {
        const stored = await writeDraft(owner, name, checked(data) as unknown as Record<string, unknown>);
        return { id: stored.id, data: schema.parse(stored.data) };
      }

      return {
        steps,
        urlOf,
        read,
        /** The draft for a step, or a redirect to the first earlier step that is not done. */
        async load(owner: DraftOwner, step: Step, initial?: () => unknown): Promise<LoadedDraft<Data>> {
          const draft = await read(owner, initial);
          const missing = firstIncompleteBefore(steps, step, draft.data.completed);
          if (missing) throw redirect(urlOf(missing));
          return draft;
        },
        /**
         * What the wizard's layout shows for a URL under it: the step the URL names (any other URL under the
         * wizard goes to its first step), every step's link, the steps the stepper links to, and the current
         * step's notices. `settled` are steps done by design that cannot be gone back to (a quote's order is the
         * quote's): the stepper shows them done, links none of them, and links the done steps after them.
         */
        async layout(owner: DraftOwner, pathname: string, settled: readonly Step[] = []): Promise<WizardChrome> {
          const basePath = definition.basePath(params);
          const segment = pathname.startsWith(`${basePath}/`) ? pathname.slice(basePath.length + 1).split("/")[0] : "";
          const current = steps.find((step) => step === segment);
          if (!current) throw redirect(urlOf(steps[0]));
          const { data } = await read(owner);
          return {
            current,
            steps: steps.map((step) => ({ key: step, title: stepTitles[step], to: urlOf(step) })),
            reachable: reachableSteps(steps, [...settled, ...data.completed]).filter((step) => !settled.includes(step)),
            settled: [...settled],
            notices: data.notices.filter((notice) => notice.step === current).map((notice) => notice.message),
            closeAction: `${basePath}${search}`,
          };
        },
        /** Saves changes without moving on (a cycle switch, a coupon), keeping what the step already has. */
        async save(owner: DraftOwner, changes: Partial<Data>): Promise<LoadedDraft<Data>> {
          return write(owner, { ...(await read(owner)).data, ...changes });
        },
        /** Saves the step's values, marks it done (its notices read) and redirects to the next step. */
        async complete(owner: DraftOwner, step: Step, changes: Partial<Data>): Promise<Response> {
          const { data } = await read(owner);
          const saved = await write(owner, {
            ...data,
            ...changes,
            completed: markCompleted(data.completed, step),
            notices: data.notices.filter((notice) => notice.step !== step),
          });
          const next = stepAfter(steps, step);
          if (!next) return redirect(urlOf(step));
          const goOn = definition.documentSteps?.(saved.data).includes(next) ? redirectDocument : redirect;
          return goOn(urlOf(next));
        },
        /** Starts over: closing the wizard clears its draft. */
        clear(owner: DraftOwner): Promise<void> {
          return deleteDraft(owner, name);
        },
      };
    },
  };
}

/** What a wizard's layout route renders around the current step (ui/wizard/wizard-layout). */
export interface WizardChrome {
  current: string;
  steps: { key: string; title: string; to: string }[];
  /** The steps the stepper links to: those before the first one not done. */
  reachable: string[];
  /** Steps done by design that cannot be gone back to: shown done, not linked. */
  settled: string[];
  notices: string[];
  /** The layout's own URL, which Close posts to. */
  closeAction: string;
}

type RouteParams = LoaderFunctionArgs["params"];

/** A wizard as its layout route opened it for an actor, and what else the layout shows. */
interface WizardOpened<View> {
  wizard: {
    layout(owner: DraftOwner, pathname: string): Promise<WizardChrome>;
    clear(owner: DraftOwner): Promise<void>;
  };
  view: View;
}

const rightOf = (permission: Action | ((request: Request) => Action), request: Request) =>
  typeof permission === "function" ? permission(request) : permission;

/**
 * The loader and action of a wizard's layout route, one for every wizard. `permission` is what the guard must
 * allow the actor, or a function of the request that names it (a query can ask for a stricter right); every step
 * checks it too: a forbidden step is 403. `open` finds the wizard for the actor and the URL's parameters and query
 * (refusing one the wizard is not for) and what else the layout shows; the loader works out the step from the
 * URL, and Close (the action) clears the draft and goes back to `closeTo`.
 */
export function wizardLayout<Actor extends DraftOwner, View extends Record<string, unknown>>(
  guard: Guard<Actor>,
  permission: Action | ((request: Request) => Action),
  open: (actor: Actor, params: RouteParams, url: URL) => WizardOpened<View> | Promise<WizardOpened<View>>,
  closeTo: string,
) {
  return {
    async loader({ request, params }: LoaderFunctionArgs): Promise<View & WizardChrome> {
      const actor = await guard.require(request, rightOf(permission, request));
      const url = new URL(request.url);
      const { wizard, view } = await open(actor, params, url);
      return { ...view, ...(await wizard.layout(actor, url.pathname)) };
    },
    async action({ request, params }: ActionFunctionArgs) {
      const { actor } = await guard.readForm(request, rightOf(permission, request));
      await (await open(actor, params, new URL(request.url))).wizard.clear(actor);
      return redirect(closeTo);
    },
  };
}
