import addressparser from "nodemailer/lib/addressparser";
import { z } from "zod";
import type { JobKind } from "~/server/platform/jobs/runner.server";
import { mailMessages } from "~/server/platform/metrics.server";
import type { Mailer, OutgoingMail } from "./port.server";

/** A message as its job keeps it: whole, so a retry sends exactly what was queued. */
const mailInput = z.object({
  from: z.string(),
  to: z.string(),
  subject: z.string(),
  text: z.string(),
  html: z.string(),
});
export type MailInput = z.infer<typeof mailInput>;

/**
 * The Message-ID of the job's message: the job's id at the sender's domain. Every try of the job sends the same
 * one, so the outbox keeps one row and a receiving mail system sees one message.
 */
export function messageIdFor(jobId: string, from: string): string {
  const [sender] = addressparser(from, { flatten: true });
  const domain = sender?.address.split("@")[1] || "localhost";
  return `<${jobId}@${domain}>`;
}

export const outgoingMail = (jobId: string, input: MailInput): OutgoingMail => ({
  ...input,
  messageId: messageIdFor(jobId, input.from),
});

/**
 * Sending one message, as a durable job: the runner retries a failure with backoff (a lost answer too: the
 * message goes again with its Message-ID), so a slow or absent mail server delays mail but never loses it,
 * and never holds up the request that queued it. It takes the mailer as a function, called when the step runs:
 * the index's picker (the index imports this module to queue mail, so this one does not import the index).
 */
export const sendMailJob = (mailer: () => Mailer): JobKind<MailInput, { send: null }> => ({
  name: "mail",
  input: mailInput,
  steps: [
    {
      name: "send",
      async run({ id, input }) {
        try {
          await mailer().send(outgoingMail(id, input));
        } catch (error) {
          mailMessages.inc({ outcome: "failed" });
          throw error;
        }
        mailMessages.inc({ outcome: "sent" });
        return null;
      },
    },
  ],
  failure: (step) => ({ step, title: "Mail not sent", message: "The message could not be sent." }),
});
