import type { Action } from "~/domain/access-policy";

/**
 * What the platform's page kits (a wizard's layout, a job's progress page) need of the portal's access policy: the
 * signed-in actor allowed to do an action, checked on the server, and why one may not. The accounts capability
 * hands its guard in, so the kits know no capability.
 */
export interface Guard<Actor> {
  /** The actor allowed to do `action` (anyone signed in when none is named); otherwise the page's refusal, thrown. */
  require(request: Request, action?: Action): Promise<Actor>;
  /** The same for a posted form: the actor and the form, its CSRF token checked. */
  readForm(request: Request, action: Action): Promise<{ actor: Actor; formData: FormData }>;
  /** Why the actor may not do `action`, or null when they may: what a disabled button says. */
  whyNot(actor: Actor, action: Action): string | null;
}
