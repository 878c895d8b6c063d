import { json, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, useLoaderData } from "@remix-run/react";
import { Link } from "~/ui/link";
import { AuthenticityTokenInput } from "remix-utils/csrf/react";
import { signIn } from "~/server/accounts/auth.server";
import { validateCsrf } from "~/server/accounts/csrf.server";
import { readForm } from "~/server/platform/forms.server";
import { redeemSignInLink, signInLinkAccount } from "~/server/accounts/sign-in-links.server";
import type { PlainPageData, PlainPageHandle } from "~/ui/page-script";

export const meta: MetaFunction = () => [{ title: "Sign in with a link · GateKeeper Portal" }];

export const handle: PlainPageHandle = { plainPage: true };

const usedUp = () => json({ pageScript: null, account: null }, { status: 410 });

/**
 * Opening the link only asks to confirm: mail programs and link scanners open links by themselves, and must
 * not spend a single-use link on nobody. The Sign in button's post uses it.
 */
export async function loader({ params }: LoaderFunctionArgs) {
  const account = await signInLinkAccount(params.token ?? "");
  if (!account) return usedUp();
  return json({ pageScript: null, account } satisfies PlainPageData & { account: { email: string } | null });
}

export async function action({ request, params }: ActionFunctionArgs) {
  await validateCsrf(await readForm(request), request);
  const granted = await redeemSignInLink(params.token ?? "");
  if (!granted) return usedUp();
  return signIn(request, granted.userId, granted.redirectTo);
}

export default function SignInWithLink() {
  const { account } = useLoaderData<typeof loader>();
  return (
    <main className="gk-auth-page">
      <div className="gk-auth-card gk-stack">
        <h1>Sign in with a link</h1>
        {account ? (
          <Form method="post" className="gk-stack" data-gap="sm">
            <AuthenticityTokenInput name="csrf" />
            <p>
              Sign in to the GateKeeper Portal as <strong>{account.email}</strong>. This browser is then one you signed
              in from, so a pause on new browsers no longer applies to it.
            </p>
            <button type="submit" className="gk-button gk-button-block" data-variant="filled">
              Sign in
            </button>
          </Form>
        ) : (
          <div className="gk-alert" role="alert">
            <p className="gk-alert-title">This sign-in link cannot be used</p>
            <p>It has expired or has already been used. You can ask for a new one on the sign-in page.</p>
          </div>
        )}
        <Link className="gk-link" to="/login">
          Go to the sign-in page
        </Link>
      </div>
    </main>
  );
}
