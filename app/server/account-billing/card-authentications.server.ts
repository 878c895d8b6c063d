import { and, eq, isNull } from "drizzle-orm";
import { db } from "~/server/platform/database/db.server";
import { cardAuthentications } from "~/server/platform/database/tables.server";

/**
 * The card saves that wait for the cardholder's bank, in the organization's name: kept when the bank asks,
 * read and used once when the cardholder comes back from the bank's page.
 */

export type CardAuthentication = typeof cardAuthentications.$inferSelect;

/** Keeps a save waiting for the bank; a double submit of the form (the same setup) keeps the first. */
export async function recordCardAuthentication(
  attempt: Omit<CardAuthentication, "createdAt" | "usedAt">,
): Promise<void> {
  await db.insert(cardAuthentications).values(attempt).onConflictDoNothing();
}

const ofOrganization = (organizationId: string, setupId: string) =>
  and(eq(cardAuthentications.setupId, setupId), eq(cardAuthentications.organizationId, organizationId));

/** The organization's save waiting on this setup; null when it is not the organization's. */
export async function cardAuthenticationOf(organizationId: string, setupId: string) {
  const [row] = await db.select().from(cardAuthentications).where(ofOrganization(organizationId, setupId));
  return row ?? null;
}

/**
 * Uses the save once: true for the one request that does, in one statement, so of two returns (a reload, a
 * second tab) only one saves the card.
 */
export async function claimCardAuthentication(organizationId: string, setupId: string): Promise<boolean> {
  const claimed = await db
    .update(cardAuthentications)
    .set({ usedAt: new Date() })
    .where(and(ofOrganization(organizationId, setupId), isNull(cardAuthentications.usedAt)))
    .returning({ setupId: cardAuthentications.setupId });
  return claimed.length > 0;
}
