import { json } from "@remix-run/node";
import type { ContentPage } from "~/content/types";
import { isDistributor } from "~/domain/customers";

/** The entry for a key that is the record's own (never "constructor", "__proto__" or another inherited name). */
export function ownEntry<T>(record: Record<string, T>, key: string | undefined): T | undefined {
  return key !== undefined && Object.hasOwn(record, key) ? record[key] : undefined;
}

/** The page for a slug, or a 404; distributor-only pages answer 403 to every other organization's members. */
export function contentPageFor(
  pages: Record<string, ContentPage>,
  slug: string | undefined,
  organization: { customerType: string },
) {
  const page = ownEntry(pages, slug);
  if (!page) throw json({ message: "There is no such page." }, { status: 404 });
  if (page.distributorOnly && !isDistributor(organization)) {
    throw json({ message: "This document is only for GateKeeper distributors." }, { status: 403 });
  }
  return json(page);
}
