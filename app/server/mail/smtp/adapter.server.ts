import type { Transporter } from "nodemailer";
import { onFirstUse } from "~/server/platform/on-first-use.server";
import { ProviderError } from "~/server/platform/provider-errors.server";
import type { Mailer } from "../port.server";

/** What nodemailer's errors carry beyond a message. */
interface SmtpFailure {
  code?: string;
  /** The SMTP server's reply code, when it answered. */
  responseCode?: number;
}

/**
 * Connections that broke off once the exchange had begun (the server closed it, or stopped answering): the
 * message may have been sent whole and only the answer lost.
 */
const BROKEN_OFF = new Set(["ECONNECTION", "ETIMEDOUT"]);

/**
 * A failure as the job runner acts on it. A 5xx reply is a refusal for good (no such mailbox, a message the
 * server will never take); a 4xx, or no connection at all, delivered nothing and may pass later. A connection
 * that broke off is unknown: the server may have taken the message, so the retry sends it again with the same
 * Message-ID, by which mail systems recognize one message.
 */
export function smtpFailure(error: unknown): ProviderError {
  const { code, responseCode } = (error ?? {}) as SmtpFailure;
  const message = error instanceof Error ? error.message : String(error);
  if (responseCode !== undefined && responseCode >= 500) return new ProviderError(message, { kind: "final", code });
  if (responseCode !== undefined && responseCode >= 400) return new ProviderError(message, { kind: "retryable", code });
  return new ProviderError(message, { kind: code && BROKEN_OFF.has(code) ? "unknown" : "retryable", code });
}

/** nodemailer, loaded on the first send or by the start-up's preload. */
export const nodemailerSdk = onFirstUse(() => import("nodemailer").then((module) => module.default));

/**
 * The real mail adapter: nodemailer to the SMTP server SMTP_URL names (`smtp://user:password@host:port`, or
 * `smtps://` for TLS from the start). Over smtp:// nodemailer upgrades with STARTTLS whenever the server offers
 * it. One connection per message: the portal sends a few messages an hour, not a newsletter.
 */
export function smtpMailer(url: string): Mailer {
  let transport: Transporter | undefined;
  return {
    async send(mail) {
      // A job's step waits for the send: a server that stops answering fails the try within a minute, not ten.
      transport ??= (await nodemailerSdk()).createTransport({
        url,
        connectionTimeout: 30_000,
        greetingTimeout: 30_000,
        socketTimeout: 60_000,
      });
      try {
        await transport.sendMail({
          messageId: mail.messageId,
          from: mail.from,
          to: mail.to,
          subject: mail.subject,
          text: mail.text,
          html: mail.html,
        });
      } catch (error) {
        throw smtpFailure(error);
      }
    },
  };
}
