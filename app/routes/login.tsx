import { json, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, useActionData, useSearchParams } from "@remix-run/react";
import { AuthenticityTokenInput } from "remix-utils/csrf/react";
import { parseLogin } from "~/domain/login";
import { safeRedirect } from "~/domain/redirects";
import { pageScriptHref } from "~/server/page-scripts.server";
import { checkCredentials, getUserId, INVALID_CREDENTIALS, isKnownDevice, signIn } from "~/server/auth.server";
import { validateCsrf } from "~/server/csrf.server";
import { readForm } from "~/server/forms.server";
import { reserveSignInAttempt, waitMessage } from "~/server/throttle.server";
import type { PlainPageData, PlainPageHandle } from "~/ui/page-script";
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
  const { email, password, redirectTo } = parsed.data;

  // A point is reserved before the password is checked, so parallel guesses are all counted.
  const attempt = await reserveSignInAttempt(context, email, { knownDevice: await isKnownDevice(request, email) });
  if (attempt.waitSeconds > 0) {
    return json(
      { formError: waitMessage("failed sign-in attempts", attempt.waitSeconds), email },
      { status: 429, headers: { "Retry-After": String(attempt.waitSeconds) } },
    );
  }

  const userId = await checkCredentials(request, email, password);
  if (!userId) {
    await attempt.failed();
    return json({ formError: INVALID_CREDENTIALS, email }, { status: 401 });
  }
  await attempt.succeeded();
  return signIn(request, userId, email, redirectTo);
}

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
    <main className="gk-auth-page">
      <div className="gk-auth-card gk-stack">
        <div>
          <h1>Sign in</h1>
          <p className="gk-dimmed">
            {fromHubs
              ? "Sign in to see and deploy your GateKeeper Hubs."
              : "Sign in to the GateKeeper Portal to manage your licenses, Hubs and billing."}
          </p>
        </div>
        {formError ? (
          <div className="gk-alert" role="alert">
            <p className="gk-alert-title">Could not sign in</p>
            <p>{formError}</p>
          </div>
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
      </div>
    </main>
  );
}
