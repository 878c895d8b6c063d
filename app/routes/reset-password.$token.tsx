import { json, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { AuthenticityTokenInput } from "remix-utils/csrf/react";
import { newPasswordSchema, parseAccountForm } from "~/domain/accounts";
import { validateCsrf } from "~/server/accounts/csrf.server";
import { readForm } from "~/server/platform/forms.server";
import { resetLinkAddress, resetPassword } from "~/server/accounts/password-reset.server";
import { redirectWithToast } from "~/server/accounts/session.server";
import { AuthPage, FormAlert, NewPasswordFields } from "~/ui/auth-page";
import { Link } from "~/ui/link";
import type { PlainPageData, PlainPageHandle } from "~/ui/page-script";

export const meta: MetaFunction = () => [{ title: "Set a new password · GateKeeper Portal" }];

export const handle: PlainPageHandle = { plainPage: true };

export const RESET_LINK_NOT_VALID =
  "This link is not valid any more: it was used already, or it is older than an hour. Ask for a new one.";

export async function loader({ params }: LoaderFunctionArgs) {
  return { pageScript: null, email: await resetLinkAddress(params.token ?? "") } satisfies PlainPageData & {
    email: string | null;
  };
}

/** The new password, with the profile's rules: every session of the account ends, and a notice is mailed. */
export async function action({ request, params }: ActionFunctionArgs) {
  const formData = await readForm(request);
  await validateCsrf(formData, request);
  const parsed = parseAccountForm(newPasswordSchema, formData);
  if (!parsed.ok) return json(parsed, { status: 422 });
  const userId = await resetPassword(request, params.token ?? "", parsed.data.new_password);
  if (!userId) return json({ linkError: RESET_LINK_NOT_VALID }, { status: 410 });
  return redirectWithToast(request, "/login", {
    kind: "success",
    message: "Your password was changed, and every browser was signed out. Sign in with the new password.",
  });
}

export default function ResetPassword() {
  const { email } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const linkError = !email
    ? RESET_LINK_NOT_VALID
    : actionData && "linkError" in actionData
      ? actionData.linkError
      : null;
  if (linkError) {
    return (
      <AuthPage title="Set a new password">
        <FormAlert title="Could not set a new password" message={linkError} />
        <Link className="gk-link" to="/forgot-password">
          Ask for a new link
        </Link>
      </AuthPage>
    );
  }
  return (
    <AuthPage title="Set a new password" lead={`For ${email}. Setting it signs you out everywhere.`}>
      <Form method="post" noValidate className="gk-stack" data-gap="sm">
        <AuthenticityTokenInput name="csrf" />
        <NewPasswordFields
          errors={actionData && "errors" in actionData ? actionData.errors : {}}
          unmet={actionData && "unmet" in actionData ? actionData.unmet : null}
        />
        <button type="submit" className="gk-button gk-button-block" data-variant="filled">
          Set new password
        </button>
      </Form>
    </AuthPage>
  );
}
