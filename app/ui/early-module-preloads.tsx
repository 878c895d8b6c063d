import { UNSAFE_RemixContext, useMatches } from "@remix-run/react";
import { useContext } from "react";

/**
 * Starts fetching the page's scripts from the top of <head>, on a page whose stylesheets are inline (decision
 * 136): there is no stylesheet for them to wait for, and waiting for the end of <head> meant waiting for the
 * 5 kB of inline CSS to arrive. The links are inert, so a browser without JavaScript fetches nothing; the
 * script after them swaps each for a new `<link rel="modulepreload">` in its place (a changed `rel` fetches
 * nothing, decision 063). React matches elements by tag when it hydrates and, in production, leaves their
 * attributes alone, so the swapped links hydrate as these. Elements added rather than swapped would break
 * hydration here: React expects the root's own <meta> next.
 *
 * The list is the one Remix's <Scripts> preloads, in its order: the entry module, its imports, then each
 * matched route's imports and module. Remix has no public hook for its manifest, hence UNSAFE_RemixContext.
 */
const SWAP_FOR_MODULE_PRELOADS =
  'for(const l of document.querySelectorAll("link[data-early-modulepreload]")){const p=document.createElement("link");p.rel="modulepreload";p.href=l.getAttribute("href");l.replaceWith(p)}';

export function EarlyModulePreloads({ nonce }: { nonce: string | undefined }) {
  const remix = useContext(UNSAFE_RemixContext);
  const matches = useMatches();
  if (!remix) return null;
  const { manifest } = remix;
  const hrefs = new Set([manifest.entry.module, ...manifest.entry.imports]);
  for (const match of matches) {
    const route = manifest.routes[match.id];
    if (!route) continue;
    for (const href of [...(route.imports ?? []), route.module]) hrefs.add(href);
  }
  return (
    <>
      {[...hrefs].map((href) => (
        <link key={href} data-early-modulepreload="" href={href} />
      ))}
      <script nonce={nonce} dangerouslySetInnerHTML={{ __html: SWAP_FOR_MODULE_PRELOADS }} />
    </>
  );
}
