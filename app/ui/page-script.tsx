import { useMatches } from "@remix-run/react";
import { usePageModules } from "~/ui/page-modules";
import type { PrefetchFile } from "~/ui/prefetch";

/**
 * A page that loads no React (decision 138): its route's `handle` is a `PlainPageHandle` and its loader
 * returns `pageScript`, the URL of its own small script (app/server/platform/delivery/page-scripts.server.ts). The root then
 * renders none of Remix's scripts, only that one. A type, not a shared constant: a value imported by both the
 * root and the route would be a script chunk of its own on every page.
 */
export type PlainPageHandle = { plainPage: true };
export type PlainPageData = { pageScript: string | null };

/** The matched plain page's data, or null when the page hydrates as usual. */
export function usePlainPage(): PlainPageData | null {
  const match = useMatches().find((candidate) => (candidate.handle as Partial<PlainPageHandle> | undefined)?.plainPage);
  if (!match) return null;
  return { pageScript: (match.data as Partial<PlainPageData> | null)?.pageScript ?? null };
}

/**
 * The plain page's script, if the build has one (not under `remix dev`). It names what the next pages need in `data-prefetch`, for the script to fetch into
 * the cache after `load`: the stylesheet files when this page had them inline (decision 130), and the scripts
 * every other page starts with (the entry and the root's), so the page after signing in hydrates from cache.
 */
export function PageScript({
  src,
  nonce,
  stylesheets,
}: {
  src: string | null;
  nonce: string | undefined;
  stylesheets: readonly string[];
}) {
  const scripts = usePageModules(["root"]);
  if (!src) return null;
  const files: PrefetchFile[] = [
    ...stylesheets.map((href) => ({ href, as: "style" as const })),
    ...scripts.map((href) => ({ href, as: "script" as const })),
  ];
  return <script type="module" src={src} nonce={nonce} data-prefetch={JSON.stringify(files)} />;
}
