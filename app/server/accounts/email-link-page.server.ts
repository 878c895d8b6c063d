import { json, type AppLoadContext } from "@remix-run/node";
import { loginFieldError } from "~/domain/login";
import { MAX_EMAIL_LENGTH } from "~/domain/text-limits";
import { readForm } from "~/server/platform/forms.server";
import { waitMessage } from "~/server/platform/throttle.server";
import { validateCsrf } from "./csrf.server";
import { queueEmailLink, type EmailLink } from "./email-link-job.server";

/**
 * A page whose form takes one email address and mails it a link (a password reset, a sign-in link). Its answer,
 * and the work done before it, are the same whether or not an account has the address (email-link-job.server),
 * so it tells no stranger which addresses have accounts; which limit counts the requests and which link is mailed
 * are the page's own.
 */
export type EmailLinkPage = {
  /** Counts the request per address and per client, whether or not an account has the address: 0, or the seconds to wait. */
  throttle: (context: AppLoadContext | undefined, email: string) => Promise<number>;
  /** What a throttled answer says there were too many of ("password reset requests"). */
  requests: string;
  link: EmailLink;
  /** Where a sign-in link leads once signed in, from the page's other fields. */
  redirectTo?: (form: FormData) => string | null;
};

/** The loader's data: the address a link to the page carries (`?email=`) fills the field. */
export function emailLinkPageData(request: Request) {
  const email = new URL(request.url).searchParams.get("email") ?? "";
  return { pageScript: null, email: email.slice(0, MAX_EMAIL_LENGTH) };
}

/**
 * The post: CSRF, then the address (422 with its message), then the page's throttle (429 with Retry-After), then
 * the job that mails the link. The typed address comes back each time, so the form without JavaScript keeps it.
 */
export async function emailLinkAction(request: Request, context: AppLoadContext | undefined, page: EmailLinkPage) {
  const formData = await readForm(request);
  await validateCsrf(formData, request);
  const email = String(formData.get("email") ?? "").trim();
  const problem = loginFieldError("email", email);
  if (problem) return json({ fieldError: problem, email: email.slice(0, MAX_EMAIL_LENGTH) }, { status: 422 });
  const waitSeconds = await page.throttle(context, email);
  if (waitSeconds > 0) {
    return json(
      { formError: waitMessage(page.requests, waitSeconds), email },
      { status: 429, headers: { "Retry-After": String(waitSeconds) } },
    );
  }
  await queueEmailLink(request, { link: page.link, email, redirectTo: page.redirectTo?.(formData) });
  return json({ sent: true as const, email });
}
