/**
 * Remix's <Scripts> writes a <link rel="modulepreload"> per script of the page. Chromium's preload scanner
 * finds them at once and fetches them alongside the stylesheets, sharing a slow link's bandwidth, so the
 * first paint (which waits for the stylesheets) waited for JavaScript too (decision 063). This rewrites
 * them as inert links and puts one inline script after them that adds a module preload to <head> for
 * each. The parser runs an inline script only once the stylesheets above it have arrived, so the scripts
 * are fetched right after the CSS, all at once, before the page's module script asks for them. (Changing
 * an inert link's rel does not make Chromium fetch it: new elements are needed.) React does not compare
 * attributes when it hydrates in production, so the inert links hydrate as Remix's.
 */
const PRELOAD = '<link rel="modulepreload"';
const DEFERRED = '<link data-after-css="modulepreload"';
/** Remix's first script after its preloads; the restoring script goes just before it. */
const SCRIPT = "<script";
const restore = (nonce: string | undefined) =>
  `<script${nonce ? ` nonce="${nonce}"` : ""}>for(const l of document.querySelectorAll("link[data-after-css]")){const p=document.createElement("link");p.rel="modulepreload";p.href=l.href;document.head.append(p)}</script>`;

/** One page's whole HTML, its module preloads deferred; `nonce` is the page's CSP nonce. */
export function preloadScriptsAfterStylesheets(html: string, nonce: string | undefined): string {
  const rewritten = html.replaceAll(PRELOAD, DEFERRED);
  const first = rewritten.indexOf(DEFERRED);
  if (first < 0) return rewritten;
  const at = rewritten.indexOf(SCRIPT, first);
  if (at < 0) return rewritten + restore(nonce);
  return rewritten.slice(0, at) + restore(nonce) + rewritten.slice(at);
}
