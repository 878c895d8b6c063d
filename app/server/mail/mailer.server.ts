import { env } from "~/server/platform/config/env.server";
import { outboxMailer } from "~/server/mail/outbox/adapter.server";
import type { Mailer } from "./port.server";
import { smtpMailer } from "~/server/mail/smtp/adapter.server";

let mailer: Mailer | undefined;

/** The configured mail adapter: SMTP when SMTP_URL is set, else the embedded outbox. */
export function getMailer(): Mailer {
  mailer ??= env.SMTP_URL ? smtpMailer(env.SMTP_URL) : outboxMailer;
  return mailer;
}

/** Whether mail goes out through SMTP (the outbox then keeps nothing). */
export const mailLeavesThePortal = () => Boolean(env.SMTP_URL);
