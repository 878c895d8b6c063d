import { Alert } from "@mantine-parts/components/Alert/Alert.mjs";
import { Button } from "@mantine-parts/components/Button/Button.mjs";
import { Stack } from "@mantine-parts/components/Stack/Stack.mjs";
import { withZod } from "@remix-validated-form/with-zod";
import { json, redirect, type ActionFunctionArgs, type LinksFunction, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { useActionData, useSearchParams } from "@remix-run/react";
import { ValidatedForm, validationError } from "remix-validated-form";
import { AuthenticityTokenInput } from "remix-utils/csrf/react";
import { loginSchema } from "~/domain/login";
import { safeRedirect } from "~/domain/redirects";
import { checkCredentials, getUserId, INVALID_CREDENTIALS, isKnownDevice, signIn } from "~/server/auth.server";
import { validateCsrf } from "~/server/csrf.server";
import { readForm } from "~/server/forms.server";
import { reserveSignInAttempt, waitMessage } from "~/server/throttle.server";
import { TextField } from "~/ui/fields";
import { FORM_STYLES } from "~/ui/stylesheets";

const validator = withZod(loginSchema);

export const links: LinksFunction = () => [FORM_STYLES];

export const meta: MetaFunction = () => [{ title: "Sign in · GateKeeper Portal" }];

export async function loader({ request }: LoaderFunctionArgs) {
  if (await getUserId(request)) {
    throw redirect(safeRedirect(new URL(request.url).searchParams.get("redirectTo"), request.url));
  }
  return null;
}

export async function action({ request, context }: ActionFunctionArgs) {
  const formData = await readForm(request);
  await validateCsrf(formData, request);
  const result = await validator.validate(formData);
  // The password is never echoed back into the page.
  if (result.error) return validationError(result.error, { email: result.submittedData.email });
  const { email, password, redirectTo } = result.data;

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
  return signIn(request, userId, email, redirectTo ?? null);
}

export default function Login() {
  const [searchParams] = useSearchParams();
  const actionData = useActionData<typeof action>();
  const formError = actionData && "formError" in actionData ? actionData.formError : null;
  const fromHubs = searchParams.get("source") === "hubs";

  return (
    <main className="gk-auth-page">
      <div className="gk-auth-card">
        <Stack gap="md">
          <div>
            <h1>Sign in</h1>
            <p className="gk-dimmed">
              {fromHubs
                ? "Sign in to see and deploy your GateKeeper Hubs."
                : "Sign in to the GateKeeper Portal to manage your licenses, Hubs and billing."}
            </p>
          </div>
          {formError ? (
            <Alert color="red" role="alert" title="Could not sign in">
              {formError}
            </Alert>
          ) : null}
          <ValidatedForm
            validator={validator}
            method="post"
            noValidate
            defaultValues={{ email: actionData && "email" in actionData ? actionData.email : "" }}
          >
            <Stack gap="sm">
              <AuthenticityTokenInput name="csrf" />
              <input type="hidden" name="redirectTo" value={searchParams.get("redirectTo") ?? ""} />
              <TextField name="email" label="Email" type="email" autoComplete="username" required />
              <TextField name="password" label="Password" type="password" autoComplete="current-password" required />
              <Button type="submit" fullWidth mt="xs">
                Sign in
              </Button>
            </Stack>
          </ValidatedForm>
        </Stack>
      </div>
    </main>
  );
}
