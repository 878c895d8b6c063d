/**
 * The mail port: how the portal hands a finished message to whatever delivers it. The embedded adapter keeps
 * it in the outbox table (read at /admin/outbox); the real one gives it to the SMTP server in SMTP_URL.
 * Failures are ProviderErrors of the shared kinds: final (the server refused the message for good), retryable
 * (nothing was delivered: try again later) and unknown (the message went out and the answer was lost).
 */
export interface OutgoingMail {
  /** `<id@domain>`, derived from the job that sends it: the same on every try, so the mail is one message. */
  messageId: string;
  from: string;
  to: string;
  subject: string;
  /** Every message has both parts. */
  text: string;
  html: string;
}

export interface Mailer {
  /**
   * Delivers the message as given: sender, recipient, subject, both parts and the Message-ID. Sending it again
   * with the same Message-ID is no error and reads as the same message: the outbox keeps its one row; SMTP, which
   * cannot ask whether the server kept the first, hands over a copy that mail systems know by its Message-ID.
   */
  send(mail: OutgoingMail): Promise<void>;
}
