import { json, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { AuthenticityTokenInput } from "remix-utils/csrf/react";
import { parseAccountForm, signUpSchema } from "~/domain/accounts";
import { getUserId } from "~/server/accounts/auth.server";
import { COUNTRY_OPTIONS } from "~/server/account-billing/contact-options.server";
import { validateCsrf } from "~/server/accounts/csrf.server";
import { VERIFICATION_HOURS } from "~/server/accounts/email-verification.server";
import { readForm } from "~/server/platform/forms.server";
import { signUp } from "~/server/accounts/sign-up.server";
import { waitMessage } from "~/server/platform/throttle.server";
import { AuthPage, FormAlert, FormDone, NewPasswordFields, PlainSelect } from "~/ui/auth-page";
import { Link } from "~/ui/link";
import type { PlainPageData, PlainPageHandle } from "~/ui/page-script";
import { PlainField } from "~/ui/plain-field";

export const meta: MetaFunction = () => [{ title: "Create an account · GateKeeper Portal" }];

/** Like the sign-in page, a page that loads no React: its post is a plain form post. */
export const handle: PlainPageHandle = { plainPage: true };

export async function loader({ request }: LoaderFunctionArgs) {
  if (await getUserId(request)) throw redirect("/home");
  return { pageScript: null, countries: COUNTRY_OPTIONS } satisfies PlainPageData & {
    countries: typeof COUNTRY_OPTIONS;
  };
}

/**
 * A new organization and its Owner. The answer is the same whether or not the address has an account: the
 * verification link, or a note to the address's owner, goes by mail, and nobody is signed in here.
 */
export async function action({ request, context }: ActionFunctionArgs) {
  const formData = await readForm(request);
  await validateCsrf(formData, request);
  const parsed = parseAccountForm(signUpSchema, formData);
  if (!parsed.ok) return json(parsed, { status: 422 });
  const outcome = await signUp(request, context, parsed.data);
  if ("waitSeconds" in outcome) {
    const { new_password: _password, confirm_password: _confirm, ...typed } = parsed.data;
    void _password;
    void _confirm;
    return json(
      { formError: waitMessage("sign-ups", outcome.waitSeconds), typed },
      { status: 429, headers: { "Retry-After": String(outcome.waitSeconds) } },
    );
  }
  return json({ sent: true as const, email: parsed.data.email });
}

export default function SignUp() {
  const { countries } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  if (actionData && "sent" in actionData) {
    return (
      <AuthPage title="Check your email">
        <FormDone>
          <p>
            We have sent a message to <strong>{actionData.email}</strong>. Open the link in it within{" "}
            {VERIFICATION_HOURS} hours to verify your address, then sign in.
          </p>
          <p className="gk-dimmed">No message? Look in your spam folder, or sign in and ask for the link again.</p>
        </FormDone>
        <Link className="gk-link" to="/login">
          Go to sign in
        </Link>
      </AuthPage>
    );
  }
  const errors: Record<string, string> = actionData && "errors" in actionData ? actionData.errors : {};
  const typed: Record<string, string> = actionData && "typed" in actionData ? actionData.typed : {};
  const unmet = actionData && "unmet" in actionData ? actionData.unmet : null;
  return (
    <AuthPage
      title="Create an account"
      lead="Your company's GateKeeper Portal account: buy and manage licenses, deploy Hubs and invite your team."
    >
      {actionData && "formError" in actionData ? (
        <FormAlert title="Could not create the account" message={actionData.formError} />
      ) : null}
      <Form method="post" noValidate className="gk-stack" data-gap="sm">
        <AuthenticityTokenInput name="csrf" />
        <PlainField
          name="firstName"
          label="First name"
          autoComplete="given-name"
          required
          defaultValue={typed.firstName}
          error={errors.firstName}
        />
        <PlainField
          name="lastName"
          label="Last name"
          autoComplete="family-name"
          required
          defaultValue={typed.lastName}
          error={errors.lastName}
        />
        <PlainField
          name="company"
          label="Company"
          autoComplete="organization"
          required
          defaultValue={typed.company}
          error={errors.company}
        />
        <PlainField
          name="email"
          label="Email"
          type="email"
          autoComplete="email"
          required
          defaultValue={typed.email}
          error={errors.email}
        />
        <NewPasswordFields errors={errors} unmet={unmet} />
        <PlainSelect
          name="country"
          label="Country"
          autoComplete="country"
          required
          options={countries}
          placeholder="Select your country"
          defaultValue={typed.country}
          error={errors.country}
        />
        <button type="submit" className="gk-button gk-button-block" data-variant="filled">
          Create account
        </button>
      </Form>
      <p>
        Already have an account?{" "}
        <Link className="gk-link" to="/login">
          Sign in
        </Link>
      </p>
    </AuthPage>
  );
}
