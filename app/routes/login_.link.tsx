import type { ActionFunctionArgs, HeadersFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { emailLinkAction, emailLinkPageData } from "~/server/accounts/email-link-page.server";
import { SIGN_IN_LINK_MINUTES } from "~/server/accounts/sign-in-links.server";
import { keepRetryAfter, takeSignInLinkRequest } from "~/server/platform/throttle.server";
import { AuthPage, EmailLinkForm } from "~/ui/auth-page";
import type { PlainPageData, PlainPageHandle } from "~/ui/page-script";

export const meta: MetaFunction = () => [{ title: "Email me a sign-in link · GateKeeper Portal" }];

/** Like the sign-in page it comes from, a page that loads no React, and here no script at all. */
export const handle: PlainPageHandle = { plainPage: true };

export function loader({ request }: LoaderFunctionArgs) {
  return emailLinkPageData(request) satisfies PlainPageData;
}

/** Mails a one-time sign-in link, leading back to `redirectTo`, to the account with this address, if there is one. */
export function action({ request, context }: ActionFunctionArgs) {
  return emailLinkAction(request, context, {
    throttle: takeSignInLinkRequest,
    requests: "sign-in link requests",
    link: "sign-in",
    redirectTo: (form) => String(form.get("redirectTo") ?? "").slice(0, 2000) || null,
  });
}

export const headers: HeadersFunction = keepRetryAfter;

export default function SignInLinkRequest() {
  const { email } = useLoaderData<typeof loader>();
  const answer = useActionData<typeof action>();
  return (
    <AuthPage
      title="Email me a sign-in link"
      lead={
        <>
          A link that signs you in once, without your password, sent to your account&apos;s address. It works for{" "}
          {SIGN_IN_LINK_MINUTES} minutes.
        </>
      }
    >
      <EmailLinkForm
        answer={answer}
        email={email}
        submit="Email me a sign-in link"
        sent={(address) => (
          <>
            If an account uses <strong>{address}</strong>, we have sent it a sign-in link. Open it in this browser
            within {SIGN_IN_LINK_MINUTES} minutes.
          </>
        )}
      />
    </AuthPage>
  );
}
