/** The directives a page may widen: where scripts come from, what it connects to, and what it frames. */
type Directive = "script-src" | "connect-src" | "frame-src";

/**
 * The policy scripts/server.mjs gives every page (`contentSecurityPolicy` in the load context), with `sources`
 * added for one page only: a page that needs another site's script names it in its own response's header, which
 * takes the place of the server's, so no other page lets that site in. A directive that allowed nothing
 * (`'none'`) allows just those sources. Without the server's policy (a loader called directly), null.
 */
export function widenedPolicy(policy: string | undefined, sources: Partial<Record<Directive, string[]>>) {
  if (!policy) return null;
  const directives = policy.split(";").map((directive) => directive.trim().split(/\s+/));
  for (const [name, added] of Object.entries(sources)) {
    const directive = directives.find(([existing]) => existing === name);
    // A directive the policy leaves out falls back to default-src, which is the portal's own origin.
    if (!directive) directives.push([name, "'self'", ...added]);
    else directive.splice(1, directive.length, ...directive.slice(1).filter((value) => value !== "'none'"), ...added);
  }
  return directives.map((directive) => directive.join(" ")).join("; ");
}
