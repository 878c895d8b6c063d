/** A file for the pages after this one: a stylesheet or a script. */
export type PrefetchFile = { href: string; as: "style" | "script" };

/**
 * Asks the browser to fetch files into its cache for the pages after this one, once this page has loaded, so
 * they never share a slow link with what this page still needs. Returns what undoes the waiting.
 */
export function prefetchAfterLoad(files: readonly PrefetchFile[]): () => void {
  if (!files.length) return () => {};
  const prefetch = () => {
    for (const file of files) {
      const link = document.createElement("link");
      link.rel = "prefetch";
      link.as = file.as;
      link.href = file.href;
      document.head.append(link);
    }
  };
  if (document.readyState === "complete") {
    prefetch();
    return () => {};
  }
  window.addEventListener("load", prefetch, { once: true });
  return () => window.removeEventListener("load", prefetch);
}
