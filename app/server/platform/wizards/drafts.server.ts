import { randomUUID } from "node:crypto";
import { and, eq, sql } from "drizzle-orm";
import { drafts } from "~/server/platform/database/tables.server";
import { db } from "~/server/platform/database/db.server";

export interface StoredDraft {
  id: string;
  data: Record<string, unknown>;
}

/**
 * Whose draft: a wizard's draft is one member's, in one organization. Two members each have their own; one person
 * in two organizations has one in each. (Any member satisfies it: `{ user, organization }`.)
 */
export interface DraftOwner {
  user: { id: string };
  organization: { id: string };
}

const draftOf = db
  .select({ id: drafts.id, data: drafts.data })
  .from(drafts)
  .where(
    and(
      eq(drafts.ownerId, sql.placeholder("ownerId")),
      eq(drafts.userId, sql.placeholder("userId")),
      eq(drafts.wizard, sql.placeholder("wizard")),
    ),
  )
  .prepare("draft_of");

/** The member's draft of a wizard, or null when they have none (read by every wizard step's layout and page). */
export async function findDraft({ user, organization }: DraftOwner, wizard: string): Promise<StoredDraft | null> {
  const [draft] = await draftOf.execute({ ownerId: organization.id, userId: user.id, wizard });
  return draft ?? null;
}

/** Creates or replaces the member's draft of a wizard; its id stays the same for the draft's lifetime. */
export async function writeDraft(
  { user, organization }: DraftOwner,
  wizard: string,
  data: Record<string, unknown>,
): Promise<StoredDraft> {
  const [row] = await db
    .insert(drafts)
    .values({ id: randomUUID(), ownerId: organization.id, userId: user.id, wizard, data })
    .onConflictDoUpdate({
      target: [drafts.ownerId, drafts.userId, drafts.wizard],
      set: { data, updatedAt: new Date() },
    })
    .returning({ id: drafts.id, data: drafts.data });
  return row;
}

export async function deleteDraft({ user, organization }: DraftOwner, wizard: string): Promise<void> {
  await db
    .delete(drafts)
    .where(and(eq(drafts.ownerId, organization.id), eq(drafts.userId, user.id), eq(drafts.wizard, wizard)));
}

/** Deletes one draft by id (an order clearing the draft it came from, not one started since). */
export async function deleteDraftById(ownerId: string, draftId: string): Promise<void> {
  await db.delete(drafts).where(and(eq(drafts.ownerId, ownerId), eq(drafts.id, draftId)));
}
