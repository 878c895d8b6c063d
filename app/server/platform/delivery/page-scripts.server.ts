import { readFileSync } from "node:fs";
import path from "node:path";
import { z } from "zod";

/**
 * The URLs of the plain pages' scripts (decision 138), which scripts/build-page-scripts.mjs builds after
 * `remix build` and lists in build/page-scripts.json. Without that list (a test, or `remix dev`, which does
 * not build them) a plain page has no script and works as it does without JavaScript.
 */
const LIST = path.join(process.cwd(), "build", "page-scripts.json");
const pageScriptList = z.record(z.string().startsWith("/build/"));

export type PageScriptName = "sign-in";

let hrefs: Record<string, string> | undefined;

export function pageScriptHref(name: PageScriptName): string | null {
  hrefs ??= readList();
  return hrefs[name] ?? null;
}

function readList(): Record<string, string> {
  let text: string;
  try {
    text = readFileSync(LIST, "utf8");
  } catch {
    return {};
  }
  return pageScriptList.parse(JSON.parse(text));
}
