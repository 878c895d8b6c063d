import { json, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, useLoaderData } from "@remix-run/react";
import { AuthenticityTokenInput } from "remix-utils/csrf/react";
import { getUserId } from "~/server/accounts/auth.server";
import { validateCsrf } from "~/server/accounts/csrf.server";
import { verificationLinkAddress, verifyEmail } from "~/server/accounts/email-verification.server";
import { readForm } from "~/server/platform/forms.server";
import { redirectWithToast } from "~/server/accounts/session.server";
import { AuthPage, FormAlert } from "~/ui/auth-page";
import { Link } from "~/ui/link";
import type { PlainPageData, PlainPageHandle } from "~/ui/page-script";

export const meta: MetaFunction = () => [{ title: "Verify your email address · GateKeeper Portal" }];

export const handle: PlainPageHandle = { plainPage: true };

export const LINK_NOT_VALID =
  "This link is not valid any more: it was used already, or it is older than 24 hours. Sign in and ask for a new one.";

/**
 * The link from the verification mail. Opening it only shows a button: a mail scanner that follows links must
 * not use up the link; the person's click (a post) verifies the address.
 */
export async function loader({ params }: LoaderFunctionArgs) {
  const email = await verificationLinkAddress(params.token ?? "");
  return { pageScript: null, email } satisfies PlainPageData & { email: string | null };
}

export async function action({ request, params }: ActionFunctionArgs) {
  const formData = await readForm(request);
  await validateCsrf(formData, request);
  const userId = await verifyEmail(params.token ?? "");
  if (!userId) return json({ error: LINK_NOT_VALID }, { status: 410 });
  const signedIn = (await getUserId(request)) === userId;
  return redirectWithToast(request, signedIn ? "/home" : "/login", {
    kind: "success",
    message: signedIn
      ? "Your email address is verified. You can buy, start trials and invite people now."
      : "Your email address is verified. Sign in to continue.",
  });
}

export default function VerifyEmail() {
  const { email } = useLoaderData<typeof loader>();
  return (
    <AuthPage title="Verify your email address">
      {email ? (
        <Form method="post" className="gk-stack" data-gap="sm">
          <AuthenticityTokenInput name="csrf" />
          <p>
            Confirm that <strong>{email}</strong> is your address.
          </p>
          <button type="submit" className="gk-button gk-button-block" data-variant="filled">
            Verify my email address
          </button>
        </Form>
      ) : (
        <FormAlert title="Could not verify the address" message={LINK_NOT_VALID} />
      )}
      <Link className="gk-link" to="/login">
        Go to sign in
      </Link>
    </AuthPage>
  );
}
