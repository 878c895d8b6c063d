import { count, desc, eq } from "drizzle-orm";
import { outbox } from "~/server/platform/database/tables.server";
import { db } from "~/server/platform/database/db.server";
import type { Mailer } from "../port.server";

/**
 * The embedded mail adapter (no SMTP_URL): each message is kept in the outbox table, where a GateKeeper
 * administrator reads it (/admin/outbox), so every flow that mails can be tried on a fresh clone. A send
 * repeated after a lost answer carries the same Message-ID and finds the row the first one made.
 */
export const outboxMailer: Mailer = {
  async send(mail) {
    await db.insert(outbox).values(mail).onConflictDoNothing({ target: outbox.messageId });
  },
};

export type OutboxMessage = typeof outbox.$inferSelect;

/** One page of the kept mail, newest first, with how many there are. */
export async function outboxPage(
  page: number,
  pageSize: number,
): Promise<{ total: number; messages: OutboxMessage[] }> {
  const [counted] = await db.select({ total: count() }).from(outbox);
  const messages = await db
    .select()
    .from(outbox)
    .orderBy(desc(outbox.id))
    .limit(pageSize)
    .offset((page - 1) * pageSize);
  const total = counted?.total ?? 0;
  return { total, messages };
}

/** One kept message, or null. */
export async function outboxMessage(id: number): Promise<OutboxMessage | null> {
  const [message] = await db.select().from(outbox).where(eq(outbox.id, id));
  return message ?? null;
}
