import { randomUUID } from "node:crypto";
import { and, eq, sql } from "drizzle-orm";
import { drafts } from "~db/schema";
import { db } from "./db.server";

export interface StoredDraft {
  id: string;
  data: Record<string, unknown>;
}

/** The user's draft of a wizard, or null when they have none. */
const draftOf = db
  .select({ id: drafts.id, data: drafts.data })
  .from(drafts)
  .where(and(eq(drafts.ownerId, sql.placeholder("ownerId")), eq(drafts.wizard, sql.placeholder("wizard"))))
  .prepare();

/** The user's draft of a wizard, or null when they have none (read by every wizard step's layout and page). */
export function findDraft(ownerId: string, wizard: string): StoredDraft | null {
  return draftOf.get({ ownerId, wizard }) ?? null;
}

/** Creates or replaces the user's draft of a wizard; its id stays the same for the draft's lifetime. */
export function writeDraft(ownerId: string, wizard: string, data: Record<string, unknown>): StoredDraft {
  const row = db
    .insert(drafts)
    .values({ id: randomUUID(), ownerId, wizard, data })
    .onConflictDoUpdate({
      target: [drafts.ownerId, drafts.wizard],
      set: { data, updatedAt: sql`(unixepoch('subsec') * 1000)` },
    })
    .returning({ id: drafts.id, data: drafts.data })
    .get();
  return row;
}

export function deleteDraft(ownerId: string, wizard: string): void {
  db.delete(drafts)
    .where(and(eq(drafts.ownerId, ownerId), eq(drafts.wizard, wizard)))
    .run();
}

/** Deletes one draft by id (an order clearing the draft it came from, not one started since). */
export function deleteDraftById(ownerId: string, draftId: string): void {
  db.delete(drafts)
    .where(and(eq(drafts.ownerId, ownerId), eq(drafts.id, draftId)))
    .run();
}
