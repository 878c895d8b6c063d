import { useMatches } from "@remix-run/react";
import { usePageModules } from "~/ui/page-modules";

/**
 * Starts fetching the page's scripts from the top of <head>, on a page whose stylesheets are inline (decision
 * 136): there is no stylesheet for them to wait for, and waiting for the end of <head> meant waiting for the
 * inline CSS to arrive. The links are inert, so a browser without JavaScript fetches nothing; the
 * script after them swaps each for a new `<link rel="modulepreload">` in its place (a changed `rel` fetches
 * nothing, decision 063). React matches elements by tag when it hydrates and, in production, leaves their
 * attributes alone, so the swapped links hydrate as these. Elements added rather than swapped would break
 * hydration here: React expects the root's own <meta> next.
 *
 * The list is the one Remix's <Scripts> preloads, in its order.
 */
const SWAP_FOR_MODULE_PRELOADS =
  'for(const l of document.querySelectorAll("link[data-early-modulepreload]")){const p=document.createElement("link");p.rel="modulepreload";p.href=l.getAttribute("href");l.replaceWith(p)}';

export function EarlyModulePreloads({ nonce }: { nonce: string | undefined }) {
  const hrefs = usePageModules(useMatches().map((match) => match.id));
  if (!hrefs.length) return null;
  return (
    <>
      {hrefs.map((href) => (
        <link key={href} data-early-modulepreload="" href={href} />
      ))}
      <script nonce={nonce} dangerouslySetInnerHTML={{ __html: SWAP_FOR_MODULE_PRELOADS }} />
    </>
  );
}
