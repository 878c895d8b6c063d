import {
  json,
  type ActionFunctionArgs,
  type HeadersFunction,
  type LoaderFunctionArgs,
  type MetaFunction,
} from "@remix-run/node";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { AuthenticityTokenInput } from "remix-utils/csrf/react";
import { loginFieldError } from "~/domain/login";
import { validateCsrf } from "~/server/accounts/csrf.server";
import { readForm } from "~/server/platform/forms.server";
import { requestPasswordReset, RESET_LINK_MINUTES } from "~/server/accounts/password-reset.server";
import { keepRetryAfter, waitMessage } from "~/server/platform/throttle.server";
import { AuthPage, FormAlert, FormDone } from "~/ui/auth-page";
import { Link } from "~/ui/link";
import type { PlainPageData, PlainPageHandle } from "~/ui/page-script";
import { PlainField } from "~/ui/plain-field";

export const meta: MetaFunction = () => [{ title: "Forgot your password? · GateKeeper Portal" }];

export const handle: PlainPageHandle = { plainPage: true };

export function loader({ request }: LoaderFunctionArgs) {
  const email = new URL(request.url).searchParams.get("email") ?? "";
  return { pageScript: null, email: email.slice(0, 254) } satisfies PlainPageData & { email: string };
}

/**
 * Mails a link to set a new password to the account with this address, if there is one: the page says the same
 * either way, so it tells no stranger which addresses have accounts. Throttled per address and per client.
 */
export async function action({ request, context }: ActionFunctionArgs) {
  const formData = await readForm(request);
  await validateCsrf(formData, request);
  const email = String(formData.get("email") ?? "").trim();
  const problem = loginFieldError("email", email);
  if (problem) return json({ fieldError: problem, email: email.slice(0, 254) }, { status: 422 });
  const waitSeconds = await requestPasswordReset(request, context, email.toLowerCase());
  if (waitSeconds > 0) {
    return json(
      { formError: waitMessage("password reset requests", waitSeconds), email },
      { status: 429, headers: { "Retry-After": String(waitSeconds) } },
    );
  }
  return json({ sent: true as const, email });
}

export const headers: HeadersFunction = keepRetryAfter;

export default function ForgotPassword() {
  const { email: requestedEmail } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const email = actionData?.email ?? requestedEmail;
  return (
    <AuthPage
      title="Forgot your password?"
      lead={`We will email you a link to set a new one. It works once, within ${RESET_LINK_MINUTES} minutes.`}
    >
      {actionData && "sent" in actionData ? (
        <FormDone>
          <p>
            If an account uses <strong>{actionData.email}</strong>, we have sent it a link to set a new password. It
            works within {RESET_LINK_MINUTES} minutes.
          </p>
        </FormDone>
      ) : null}
      {actionData && "formError" in actionData ? (
        <FormAlert title="Could not send a link" message={actionData.formError} />
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
          Email me a link
        </button>
      </Form>
      <Link className="gk-link" to="/login">
        Back to sign in
      </Link>
    </AuthPage>
  );
}
