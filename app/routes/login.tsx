import {
  json,
  redirect,
  type ActionFunctionArgs,
  type HeadersFunction,
  type LoaderFunctionArgs,
  type MetaFunction,
} from "@remix-run/node";
import { Form, useActionData, useSearchParams } from "@remix-run/react";
import { AuthenticityTokenInput } from "remix-utils/csrf/react";
import { parseLogin } from "~/domain/login";
import { safeRedirect } from "~/domain/redirects";
import { pageScriptHref } from "~/server/platform/delivery/page-scripts.server";
import { attemptSignIn, getUserId, INVALID_CREDENTIALS } from "~/server/accounts/auth.server";
import { validateCsrf } from "~/server/accounts/csrf.server";
import { readForm } from "~/server/platform/forms.server";
import { keepRetryAfter, signInPausedMessage, waitMessage } from "~/server/platform/throttle.server";
import { AuthPage, FormAlert } from "~/ui/auth-page";
import type { PlainPageData, PlainPageHandle } from "~/ui/page-script";
import { Link } from "~/ui/link";
import { PlainField } from "~/ui/plain-field";

export const meta: MetaFunction = () => [{ title: "Sign in · GateKeeper Portal" }];

/** The page everyone opens first loads no React, only its own small script (decision 138). */
export const handle: PlainPageHandle = { plainPage: true };

export async function loader({ request }: LoaderFunctionArgs) {
  if (await getUserId(request)) {
    throw redirect(safeRedirect(new URL(request.url).searchParams.get("redirectTo"), request.url));
  }
  return { pageScript: pageScriptHref("sign-in") } satisfies PlainPageData;
}

export async function action({ request, context }: ActionFunctionArgs) {
  const formData = await readForm(request);
  await validateCsrf(formData, request);
  const parsed = parseLogin(formData);
  // The password is never echoed back into the page.
  if ("errors" in parsed) return json({ fieldErrors: parsed.errors, email: parsed.email }, { status: 422 });
  const { email } = parsed.data;
  const outcome = await attemptSignIn(request, context, parsed.data);
  if ("signedIn" in outcome) return outcome.signedIn;
  if (outcome.refused === "credentials") return json({ formError: INVALID_CREDENTIALS, email }, { status: 401 });
  const { waitSeconds, accountPaused } = outcome;
  return json(
    {
      formError: accountPaused ? signInPausedMessage(waitSeconds) : waitMessage("failed sign-in attempts", waitSeconds),
      email,
      offerSignInLink: true,
    },
    { status: 429, headers: { "Retry-After": String(waitSeconds) } },
  );
}

/** The 429's Retry-After reaches the browser on the document and on single fetch's .data answer alike. */
export const headers: HeadersFunction = keepRetryAfter;

/**
 * Plain elements, drawn by the root's stylesheet. The page is rendered on the server only: its script
 * (app/ui/page-scripts/sign-in.ts) checks the fields on blur, and a post is a plain form post (decision 138).
 */
export default function Login() {
  const [searchParams] = useSearchParams();
  const actionData = useActionData<typeof action>();
  const formError = actionData && "formError" in actionData ? actionData.formError : null;
  const fieldErrors = actionData && "fieldErrors" in actionData ? actionData.fieldErrors : {};
  const fromHubs = searchParams.get("source") === "hubs";

  return (
    <AuthPage
      title="Sign in"
      lead={
        fromHubs
          ? "Sign in to see and deploy your GateKeeper Hubs."
          : "Sign in to the GateKeeper Portal to manage your licenses, Hubs and billing."
      }
    >
      {formError ? <FormAlert title="Could not sign in" message={formError} /> : null}
      {actionData && "offerSignInLink" in actionData ? (
        <SignInLinkOffer email={actionData.email} redirectTo={searchParams.get("redirectTo") ?? ""} />
      ) : null}
      <Form method="post" noValidate className="gk-stack" data-gap="sm">
        <AuthenticityTokenInput name="csrf" />
        <input type="hidden" name="redirectTo" value={searchParams.get("redirectTo") ?? ""} />
        <PlainField
          name="email"
          label="Email"
          type="email"
          autoComplete="username"
          required
          defaultValue={actionData?.email ?? ""}
          error={fieldErrors.email}
        />
        <PlainField
          name="password"
          label="Password"
          type="password"
          autoComplete="current-password"
          required
          error={fieldErrors.password}
        />
        <button type="submit" className="gk-button gk-button-block" data-variant="filled">
          Sign in
        </button>
      </Form>
      <p>
        <Link className="gk-link" to="/forgot-password">
          Forgot your password?
        </Link>
      </p>
      <p>
        New to GateKeeper?{" "}
        <Link className="gk-link" to="/signup">
          Create an account
        </Link>
      </p>
    </AuthPage>
  );
}

/**
 * While sign-in is refused, the way in that does not wait: a one-time link mailed to the account's address
 * (app/routes/login_.link.tsx). The email comes along, so it is one click.
 */
function SignInLinkOffer({ email, redirectTo }: { email: string; redirectTo: string }) {
  return (
    <Form method="post" action="/login/link" className="gk-stack" data-gap="sm">
      <AuthenticityTokenInput name="csrf" />
      <input type="hidden" name="email" value={email} />
      <input type="hidden" name="redirectTo" value={redirectTo} />
      <p className="gk-dimmed">
        We can email a one-time sign-in link to the account&apos;s address. It signs you in without waiting.
      </p>
      <button type="submit" className="gk-button gk-button-block" data-variant="light">
        Email me a sign-in link
      </button>
    </Form>
  );
}
