import { json, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { AuthenticityTokenInput } from "remix-utils/csrf/react";
import { newMemberSchema, parseAccountForm } from "~/domain/accounts";
import { ROLE_NAMES } from "~/domain/access-policy";
import { signedIn, signIn } from "~/server/accounts/auth.server";
import { validateCsrf } from "~/server/accounts/csrf.server";
import { readForm } from "~/server/platform/forms.server";
import { acceptInvitation, invitationOffer, INVITATION_GONE } from "~/server/accounts/invitations.server";
import { hashPassword } from "~/server/platform/passwords.server";
import { chooseOrganization, redirectWithToast } from "~/server/accounts/session.server";
import { AuthPage, FormAlert, NewPasswordFields } from "~/ui/auth-page";
import { Link } from "~/ui/link";
import type { PlainPageData, PlainPageHandle } from "~/ui/page-script";
import { PlainField } from "~/ui/plain-field";

export const meta: MetaFunction = () => [{ title: "Invitation · GateKeeper Portal" }];

export const handle: PlainPageHandle = { plainPage: true };

/** The invitation's link: what it is, and the way to accept it for who opens it (signed in, with an account, new). */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const offer = await invitationOffer(params.token ?? "");
  const person = await signedIn(request);
  return {
    pageScript: null,
    offer: offer && { ...offer, roleName: ROLE_NAMES[offer.role] },
    signedInAs: person?.user.email ?? null,
    path: new URL(request.url).pathname,
  } satisfies PlainPageData & { offer: unknown; signedInAs: string | null; path: string };
}

export async function action({ request, params }: ActionFunctionArgs) {
  const formData = await readForm(request);
  await validateCsrf(formData, request);
  const token = params.token ?? "";
  const person = await signedIn(request);
  if (formData.get("intent") === "join") {
    if (!person) return json({ formError: "Sign in first, then accept the invitation." }, { status: 401 });
    const accepted = await acceptInvitation(token, { kind: "signed-in", user: person.user });
    if (!("joined" in accepted))
      return json({ formError: "refused" in accepted ? accepted.refused : INVITATION_GONE }, { status: 409 });
    await chooseOrganization(person.session.id, accepted.joined.organizationId);
    return redirectWithToast(request, "/home", { kind: "success", message: "You joined the organization." });
  }
  const parsed = parseAccountForm(newMemberSchema, formData);
  if (!parsed.ok) return json(parsed, { status: 422 });
  const accepted = await acceptInvitation(token, {
    kind: "new",
    firstName: parsed.data.firstName,
    lastName: parsed.data.lastName,
    passwordHash: await hashPassword(parsed.data.new_password),
  });
  if ("signInAs" in accepted) {
    return json(
      { formError: `An account already uses ${accepted.signInAs}: sign in to it, then open the link again.` },
      { status: 409 },
    );
  }
  if ("refused" in accepted) return json({ formError: accepted.refused }, { status: 409 });
  return signIn(request, accepted.joined.userId, "/home");
}

export default function Invitation() {
  const { offer, signedInAs, path } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const formError = actionData && "formError" in actionData ? actionData.formError : null;
  if (!offer) {
    return (
      <AuthPage title="Invitation">
        <FormAlert title="Could not accept the invitation" message={INVITATION_GONE} />
        <p className="gk-dimmed">Ask the person who invited you to send it again.</p>
        <Link className="gk-link" to="/login">
          Go to sign in
        </Link>
      </AuthPage>
    );
  }
  return (
    <AuthPage
      title={`Join ${offer.organizationName}`}
      lead={`${offer.invitedBy} invited ${offer.email} to ${offer.organizationName} on the GateKeeper Portal as ${offer.roleName}.`}
    >
      {formError ? <FormAlert title="Could not accept the invitation" message={formError} /> : null}
      {signedInAs && signedInAs.toLowerCase() === offer.email ? (
        <Form method="post" className="gk-stack" data-gap="sm">
          <AuthenticityTokenInput name="csrf" />
          <button type="submit" name="intent" value="join" className="gk-button gk-button-block" data-variant="filled">
            Join {offer.organizationName}
          </button>
        </Form>
      ) : signedInAs ? (
        <p>
          You are signed in as <strong>{signedInAs}</strong>, but the invitation is for <strong>{offer.email}</strong>.
          Sign out, then open the link again.
        </p>
      ) : offer.hasAccount ? (
        <p>
          An account already uses {offer.email}.{" "}
          <Link className="gk-link" to={`/login?redirectTo=${encodeURIComponent(path)}`}>
            Sign in to it
          </Link>
          , then accept the invitation here.
        </p>
      ) : (
        <Form method="post" noValidate className="gk-stack" data-gap="sm">
          <AuthenticityTokenInput name="csrf" />
          <p>Choose your name and a password. You sign in with {offer.email}.</p>
          <PlainField
            name="firstName"
            label="First name"
            autoComplete="given-name"
            required
            defaultValue={actionData && "typed" in actionData ? actionData.typed.firstName : undefined}
            error={actionData && "errors" in actionData ? actionData.errors.firstName : undefined}
          />
          <PlainField
            name="lastName"
            label="Last name"
            autoComplete="family-name"
            required
            defaultValue={actionData && "typed" in actionData ? actionData.typed.lastName : undefined}
            error={actionData && "errors" in actionData ? actionData.errors.lastName : undefined}
          />
          <NewPasswordFields
            errors={actionData && "errors" in actionData ? actionData.errors : {}}
            unmet={actionData && "unmet" in actionData ? actionData.unmet : null}
          />
          <button
            type="submit"
            name="intent"
            value="create"
            className="gk-button gk-button-block"
            data-variant="filled"
          >
            Create account and join
          </button>
        </Form>
      )}
    </AuthPage>
  );
}
