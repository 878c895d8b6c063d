import { count, desc, eq } from "drizzle-orm";
import { outbox } from "~/server/database/tables.server";
import { db } from "../db.server";
import type { Mailer } from "./port.server";

/**
 * The embedded mail adapter (no SMTP_URL): each message is kept in the outbox table, where a GateKeeper
 * administrator reads it (/admin/outbox), so every flow that mails can be tried on a fresh clone. A send
 * repeated after a lost answer carries the same Message-ID and finds the row the first one made.
 */
export const outboxMailer: Mailer = {
  async send(mail) {
    db.insert(outbox).values(mail).onConflictDoNothing({ target: outbox.messageId }).run();
  },
};

export type OutboxMessage = typeof outbox.$inferSelect;

/** One page of the kept mail, newest first, with how many there are. */
export function outboxPage(page: number, pageSize: number): { total: number; messages: OutboxMessage[] } {
  const total = db.select({ total: count() }).from(outbox).get()?.total ?? 0;
  const messages = db
    .select()
    .from(outbox)
    .orderBy(desc(outbox.id))
    .limit(pageSize)
    .offset((page - 1) * pageSize)
    .all();
  return { total, messages };
}

/** One kept message, or null. */
export function outboxMessage(id: number): OutboxMessage | null {
  return db.select().from(outbox).where(eq(outbox.id, id)).get() ?? null;
}
