import { json } from "@remix-run/node";
import type { ContentPage } from "~/content/types";
import { assertMay, type Scope } from "~/server/accounts/index.server";

/** The entry for a key that is the record's own (never "constructor", "__proto__" or another inherited name). */
export function ownEntry<T>(record: Record<string, T>, key: string | undefined): T | undefined {
  return key !== undefined && Object.hasOwn(record, key) ? record[key] : undefined;
}

/** The page for a slug, or a 404; a page the member may not open (the access policy says why) is a 403. */
export function contentPageFor(pages: Record<string, ContentPage>, slug: string | undefined, member: Scope) {
  const page = ownEntry(pages, slug);
  if (!page) throw json({ message: "There is no such page." }, { status: 404 });
  if (page.needs) assertMay(member, page.needs);
  return json(page);
}
