import { randomUUID } from "node:crypto";
import { z } from "zod";
import { linkOrigin } from "~/server/mail/index.server";
import { enqueueJob, type JobKind } from "~/server/platform/jobs/runner.server";
import { mailPasswordReset } from "./password-reset.server";
import { mailSignInLink } from "./sign-in-links.server";
import { findUserByEmail } from "./users.server";

/**
 * The links mailed to an address that anyone may type (a password reset, a sign-in link). The page looks nothing
 * up: it queues this job for every request it accepts, so the request makes the same statements and takes the
 * same time whether or not an account has the address (decision 195). The job, owned by no organization, looks
 * the address up and mails the account its link, or sends nothing; then it forgets the typed address.
 */
export const EMAIL_LINKS = ["password-reset", "sign-in"] as const;
export type EmailLink = (typeof EMAIL_LINKS)[number];

const emailLinkInput = z.object({
  link: z.enum(EMAIL_LINKS),
  email: z.string(),
  /** The origin the link is built on, as the request that asked for it had it (the mail port's linkOrigin). */
  origin: z.string(),
  /** Where a sign-in link leads once signed in. */
  redirectTo: z.string().nullable(),
});
type EmailLinkInput = z.infer<typeof emailLinkInput>;

export const emailLinkJob: JobKind<EmailLinkInput, { mail: { mailed: boolean } }, null> = {
  name: "email-link",
  input: emailLinkInput,
  steps: [
    {
      name: "mail",
      async run({ id, input, forget }) {
        const user = await findUserByEmail(input.email);
        // The mail is queued once per job (its key), however often this step runs.
        const key = `email-link:${id}`;
        if (user && input.link === "password-reset") await mailPasswordReset(user, { origin: input.origin, key });
        if (user && input.link === "sign-in") {
          await mailSignInLink(user, { origin: input.origin, redirectTo: input.redirectTo, key });
        }
        await forget("email");
        return { mailed: user !== undefined };
      },
    },
  ],
  failure: (step) => ({ step, title: "Mail not sent", message: "The link could not be mailed." }),
};

/** Queues the job that mails `link` to the account with this address, if there is one. */
export async function queueEmailLink(
  request: Request,
  { link, email, redirectTo = null }: { link: EmailLink; email: string; redirectTo?: string | null },
): Promise<void> {
  await enqueueJob(emailLinkJob, {
    ownerId: null,
    idempotencyKey: `email-link:${randomUUID()}`,
    input: { link, email, origin: linkOrigin(request), redirectTo },
  });
}
