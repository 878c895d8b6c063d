import { UNSAFE_RemixContext } from "@remix-run/react";
import { useContext } from "react";

/**
 * The scripts a page of these routes runs, as Remix's <Scripts> preloads them and in its order: the entry
 * module, its imports, then each route's imports and module. Remix has no public hook for its manifest, hence
 * UNSAFE_RemixContext. Empty outside Remix (nothing to load).
 */
export function usePageModules(routeIds: readonly string[]): string[] {
  const remix = useContext(UNSAFE_RemixContext);
  if (!remix) return [];
  const { manifest } = remix;
  const hrefs = new Set([manifest.entry.module, ...manifest.entry.imports]);
  for (const id of routeIds) {
    const route = manifest.routes[id];
    if (!route) continue;
    for (const href of [...(route.imports ?? []), route.module]) hrefs.add(href);
  }
  return [...hrefs];
}
