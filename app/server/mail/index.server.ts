import { randomUUID } from "node:crypto";
import { env } from "~/server/platform/config/env.server";
import { enqueueJob } from "~/server/platform/jobs/runner.server";
import { composeMail, type MailContent } from "./compose.server";
import { messageIdFor, sendMail } from "./send-job.server";

export type { MailContent } from "./compose.server";
export { mailLeavesThePortal } from "./mailer.server";
export { outboxMessage, outboxPage, type OutboxMessage } from "~/server/mail/outbox/adapter.server";

/**
 * The origin links in mail are built on: PUBLIC_URL (required once mail leaves the portal), else the request's,
 * which scripts/server.mjs built on a Host that is a host name.
 */
export const linkOrigin = (request: Request) => env.PUBLIC_URL ?? new URL(request.url).origin;

export interface Mail {
  /**
   * The organization the message is about (the one that invites someone; for a person's own mail, their first
   * organization, mailOwnerOf in organizations.server): the send job is that organization's, and goes with it.
   */
  accountId: string;
  to: string;
  subject: string;
  /** Plain text only: both parts are made from it (compose.server), everything escaped for the HTML one. */
  content: MailContent;
  /** Queues one message per key (a double submit); a fresh key by default. */
  key?: string;
}

/**
 * Queues a message: a durable job sends it (SMTP, or the outbox without SMTP_URL), retried with backoff and
 * sent once. Returns at once, with the job and the message's Message-ID.
 */
export async function queueMail(mail: Mail): Promise<{ jobId: string; messageId: string }> {
  const from = env.MAIL_FROM;
  const job = await enqueueJob(sendMail, {
    ownerId: mail.accountId,
    idempotencyKey: `mail:${mail.key ?? randomUUID()}`,
    input: { from, to: mail.to, subject: mail.subject, ...composeMail(mail.subject, mail.content) },
  });
  return { jobId: job.id, messageId: messageIdFor(job.id, from) };
}
