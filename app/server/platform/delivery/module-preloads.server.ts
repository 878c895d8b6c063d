/**
 * Remix's <Scripts> writes a <link rel="modulepreload"> per script of the page at the end of <body>.
 * Chromium's preload scanner finds them at once and fetches them alongside the stylesheets, sharing a slow
 * link's bandwidth, so the first paint (which waits for the stylesheets) waited for JavaScript too
 * (decision 063). This rewrites them as inert links and puts one inline script at the end of <head> that
 * adds a module preload for each. The parser runs an inline script only once the stylesheets above it have
 * arrived, so the scripts are fetched right after the CSS, all at once, while the rest of the page is still
 * arriving (a page whose stylesheets are inline, decision 130, starts them as soon as its <head> is in).
 * React does not compare attributes when it hydrates in production, so the inert links hydrate as Remix's,
 * and it leaves extra nodes at the end of <head> alone.
 *
 * A page whose stylesheets are inline (decision 130) has no stylesheet to wait for: the root starts its
 * preloads at the top of <head> (`EarlyModulePreloads`, decision 136), so its inert links get no script here.
 */
const PRELOAD_START = '<link rel="modulepreload" href="';
const PRELOAD = new RegExp(`${PRELOAD_START}([^"]+)"/>`, "g");
const deferred = (href: string) => `<link data-after-css="modulepreload" href="${href}"/>`;
const HEAD_END = "</head>";

/** The page's script URLs as a script literal; `<` escaped so that no URL can close the script element. */
const scriptList = (hrefs: string[]) => JSON.stringify(hrefs).replaceAll("<", "\\u003c");
const preloadAfterStylesheets = (hrefs: string[], nonce: string | undefined) =>
  `<script${nonce ? ` nonce="${nonce}"` : ""}>for(const h of ${scriptList(hrefs)}){const p=document.createElement("link");p.rel="modulepreload";p.href=h;document.head.append(p)}</script>`;

/**
 * One page's whole HTML with its module preloads made inert, and started after its stylesheets unless they
 * are inline; `nonce` is the page's CSP nonce.
 */
export function deferModulePreloads(
  html: string,
  nonce: string | undefined,
  { stylesheetsInline }: { stylesheetsInline: boolean },
): string {
  const headEnd = html.indexOf(HEAD_END);
  if (headEnd < 0) return html;
  // The preloads come after the page's content, which can only hold the tag escaped: the rewrite starts at the
  // first one, and a long page's rows are not scanned by the pattern.
  const firstPreload = html.indexOf(PRELOAD_START, headEnd);
  if (firstPreload < 0) return html;
  // One pass: each preload is collected and made inert at once.
  const hrefs: string[] = [];
  const rewritten = html.slice(firstPreload).replace(PRELOAD, (_preload, href: string) => {
    hrefs.push(href);
    return deferred(href);
  });
  if (hrefs.length === 0) return html;
  return (
    html.slice(0, headEnd) +
    (stylesheetsInline ? "" : preloadAfterStylesheets(hrefs, nonce)) +
    html.slice(headEnd, firstPreload) +
    rewritten
  );
}
