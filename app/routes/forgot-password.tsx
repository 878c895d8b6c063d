import type { ActionFunctionArgs, HeadersFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { emailLinkAction, emailLinkPageData } from "~/server/accounts/email-link-page.server";
import { RESET_LINK_MINUTES } from "~/server/accounts/password-reset.server";
import { keepRetryAfter, takePasswordResetRequest } from "~/server/platform/throttle.server";
import { AuthPage, EmailLinkForm } from "~/ui/auth-page";
import type { PlainPageData, PlainPageHandle } from "~/ui/page-script";

export const meta: MetaFunction = () => [{ title: "Forgot your password? · GateKeeper Portal" }];

export const handle: PlainPageHandle = { plainPage: true };

export function loader({ request }: LoaderFunctionArgs) {
  return emailLinkPageData(request) satisfies PlainPageData;
}

/** Mails a link to set a new password to the account with this address, if there is one. */
export function action({ request, context }: ActionFunctionArgs) {
  return emailLinkAction(request, context, {
    throttle: takePasswordResetRequest,
    requests: "password reset requests",
    link: "password-reset",
  });
}

export const headers: HeadersFunction = keepRetryAfter;

export default function ForgotPassword() {
  const { email } = useLoaderData<typeof loader>();
  const answer = useActionData<typeof action>();
  return (
    <AuthPage
      title="Forgot your password?"
      lead={`We will email you a link to set a new one. It works once, within ${RESET_LINK_MINUTES} minutes.`}
    >
      <EmailLinkForm
        answer={answer}
        email={email}
        submit="Email me a link"
        sent={(address) => (
          <>
            If an account uses <strong>{address}</strong>, we have sent it a link to set a new password. It works within{" "}
            {RESET_LINK_MINUTES} minutes.
          </>
        )}
      />
    </AuthPage>
  );
}
