import {
  json,
  type ActionFunctionArgs,
  type HeadersFunction,
  type LoaderFunctionArgs,
  type MetaFunction,
} from "@remix-run/node";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { Link } from "~/ui/link";
import { AuthenticityTokenInput } from "remix-utils/csrf/react";
import { loginFieldError } from "~/domain/login";
import { validateCsrf } from "~/server/accounts/csrf.server";
import { readForm } from "~/server/platform/forms.server";
import { requestSignInLink, SIGN_IN_LINK_MINUTES } from "~/server/accounts/sign-in-links.server";
import { keepRetryAfter, waitMessage } from "~/server/platform/throttle.server";
import type { PlainPageData, PlainPageHandle } from "~/ui/page-script";
import { PlainField } from "~/ui/plain-field";

export const meta: MetaFunction = () => [{ title: "Email me a sign-in link · GateKeeper Portal" }];

/** Like the sign-in page it comes from, a page that loads no React, and here no script at all. */
export const handle: PlainPageHandle = { plainPage: true };

export function loader({ request }: LoaderFunctionArgs) {
  const email = new URL(request.url).searchParams.get("email") ?? "";
  return { pageScript: null, email: email.slice(0, 254) } satisfies PlainPageData & { email: string };
}

/**
 * Mails a one-time sign-in link to the account with this address, if there is one; the page says the same
 * either way, so it tells no stranger which addresses have accounts.
 */
export async function action({ request, context }: ActionFunctionArgs) {
  const formData = await readForm(request);
  await validateCsrf(formData, request);
  const email = String(formData.get("email") ?? "").trim();
  const redirectTo = String(formData.get("redirectTo") ?? "").slice(0, 2000) || null;
  const problem = loginFieldError("email", email);
  if (problem) return json({ fieldError: problem, email: email.slice(0, 254) }, { status: 422 });
  const waitSeconds = await requestSignInLink(request, context, { email, redirectTo });
  if (waitSeconds > 0) {
    return json(
      { formError: waitMessage("sign-in link requests", waitSeconds), email },
      { status: 429, headers: { "Retry-After": String(waitSeconds) } },
    );
  }
  return json({ sent: true as const, email });
}

export const headers: HeadersFunction = keepRetryAfter;

export default function SignInLinkRequest() {
  const { email: requestedEmail } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const email = actionData?.email ?? requestedEmail;
  return (
    <main className="gk-auth-page">
      <div className="gk-auth-card gk-stack">
        <div>
          <h1>Email me a sign-in link</h1>
          <p className="gk-dimmed">
            A link that signs you in once, without your password, sent to your account&apos;s address. It works for{" "}
            {SIGN_IN_LINK_MINUTES} minutes.
          </p>
        </div>
        {actionData && "sent" in actionData ? (
          <div className="gk-stack" data-gap="sm" role="status">
            <p>
              If an account uses <strong>{actionData.email}</strong>, we have sent it a sign-in link. Open it in this
              browser within {SIGN_IN_LINK_MINUTES} minutes.
            </p>
          </div>
        ) : null}
        {actionData && "formError" in actionData ? (
          <div className="gk-alert" role="alert">
            <p className="gk-alert-title">Could not send a link</p>
            <p>{actionData.formError}</p>
          </div>
        ) : null}
        <Form method="post" noValidate className="gk-stack" data-gap="sm">
          <AuthenticityTokenInput name="csrf" />
          <PlainField
            name="email"
            label="Email"
            type="email"
            autoComplete="username"
            required
            defaultValue={email}
            error={actionData && "fieldError" in actionData ? actionData.fieldError : undefined}
          />
          <button type="submit" className="gk-button gk-button-block" data-variant="filled">
            Email me a sign-in link
          </button>
        </Form>
        <Link className="gk-link" to="/login">
          Back to sign in
        </Link>
      </div>
    </main>
  );
}
