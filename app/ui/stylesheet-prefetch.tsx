import { useEffect } from "react";
import { prefetchAfterLoad } from "~/ui/prefetch";

/**
 * Asks the browser to fetch the build's stylesheet files into its cache, for the pages after this one: this
 * page came with its stylesheets inline (decision 130). With JavaScript it waits for the page's `load`, so
 * the files never share a slow link with the page's own scripts; without it, the links inside <noscript>
 * are read at the end of the page, where no script is waiting.
 */
export function StylesheetPrefetch({ hrefs }: { hrefs: readonly string[] }) {
  useEffect(() => prefetchAfterLoad(hrefs.map((href) => ({ href, as: "style" }))), [hrefs]);

  if (!hrefs.length) return null;
  return (
    <noscript>
      {hrefs.map((href) => (
        <link key={href} rel="prefetch" as="style" href={href} />
      ))}
    </noscript>
  );
}
