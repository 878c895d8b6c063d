import { randomUUID } from "node:crypto";
import { env } from "~/server/platform/config/env.server";
import { enqueueJob } from "~/server/platform/jobs/runner.server";
import { mailMessages } from "~/server/platform/metrics.server";
import { observedCalls } from "~/server/platform/provider-calls.server";
import { composeMail, type MailContent } from "./compose.server";
import { outboxMailer } from "./outbox/adapter.server";
import type { Mailer } from "./port.server";
import { messageIdFor, sendMailJob } from "./send-job.server";
import { nodemailerSdk, smtpMailer } from "./smtp/adapter.server";

/**
 * The mail port, shaped as billing/ and hubs/ are: the port (port.server.ts), an embedded adapter (outbox/: a
 * table an administrator reads at /admin/outbox) and a real one (smtp/: nodemailer to SMTP_URL), one contract
 * suite over both (tests/mail/contract.ts), and this index, which picks the adapter and is what the rest of the
 * portal imports. Mail's own piece is the durable send job (send-job.server.ts), which needs the picker while this
 * index needs the job to queue mail: so the job takes its mailer as a function, and this index makes it with the
 * picker (sendMail below), and neither imports the other both ways.
 */

export type { MailContent } from "./compose.server";
export * from "./port.server";
export { outboxMessage, outboxPage, type OutboxMessage } from "./outbox/adapter.server";

let mailer: Mailer | undefined;

/** The configured mail adapter: SMTP when SMTP_URL is set, else the embedded outbox. */
export function getMailer(): Mailer {
  mailer ??= env.SMTP_URL
    ? observedCalls("smtp", smtpMailer(env.SMTP_URL), { embedded: false })
    : observedCalls("outbox", outboxMailer, { embedded: true });
  return mailer;
}

/** Starts loading nodemailer in the background when mail goes out through SMTP. */
export function preloadMailSdk(): void {
  if (env.SMTP_URL) nodemailerSdk.preload();
}

/** Whether mail goes out through SMTP (the outbox then keeps nothing). */
export const mailLeavesThePortal = () => Boolean(env.SMTP_URL);

/** The send job, sending through the configured adapter. */
export const sendMail = sendMailJob(getMailer);

/**
 * The origin links in mail are built on: PUBLIC_URL (required once mail leaves the portal), else the request's,
 * which scripts/server.mjs built on a Host that is a host name.
 */
export const linkOrigin = (request: Request) => env.PUBLIC_URL ?? new URL(request.url).origin;

/**
 * The origin links in mail queued by the portal itself, with no request to read it from (a scheduled reminder):
 * PUBLIC_URL, else this process's own port. Without PUBLIC_URL no mail leaves the portal (SMTP requires it), so
 * only the outbox's copies, read on this machine, carry the local address.
 */
export const scheduledLinkOrigin = () => env.PUBLIC_URL ?? `http://localhost:${env.PORT}`;

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
  mailMessages.inc({ outcome: "queued" });
  return { jobId: job.id, messageId: messageIdFor(job.id, from) };
}
