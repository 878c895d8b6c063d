import { Anchor, Text } from "~/ui/typography";
import {
  json,
  type ActionFunctionArgs,
  type LinksFunction,
  type LoaderFunctionArgs,
  type SerializeFrom,
} from "@remix-run/node";
import { Outlet, useActionData, useLoaderData } from "@remix-run/react";
import { validationError, type ValidationErrorResponseData } from "remix-validated-form";
import { unmetPasswordRequirements } from "~/domain/password-requirements";
import { currentMember, whyNot } from "~/server/accounts/access.server";
import { loadAccountBilling, paymentForPage } from "~/server/account-billing/billing-details.server";
import { requireSession, signOutEverywhereElse, readUserForm } from "~/server/accounts/auth.server";
import { DIAL_CODE_OPTIONS, phoneFormValues } from "~/server/account-billing/contact-options.server";
import { listSessions, redirectWithToast, type SessionRecord } from "~/server/accounts/session.server";
import { releasePasswordChange, reservePasswordChange, waitMessage } from "~/server/platform/throttle.server";
import { changePassword, updateProfile, type UserRecord } from "~/server/accounts/users.server";
import { PasswordForm, ProfileForm, passwordValidator, profileValidator } from "~/ui/account/profile-forms";
import { SessionsCard } from "~/ui/account/sessions";
import { AddressPanels } from "~/ui/billing/address-panels";
import { BillingProfileCard } from "~/ui/billing/billing-profile-card";
import { BillingProfilePending } from "~/ui/billing/drawer";
import { PaymentMethodsSection } from "~/ui/billing/payment-methods";
import { Group, SimpleGrid, Stack } from "~/ui/layout";
import { PageErrorBoundary, pageMeta } from "~/ui/page";
import { FORM_STYLES } from "~/ui/stylesheets";

export const links: LinksFunction = () => FORM_STYLES;

export const handle = { title: "Account" };
export const meta = pageMeta("Account");

/**
 * The person's own profile, password and sessions, and (for an Owner or a Billing admin) the organization's
 * card, billing profile and addresses. Other roles see why those are not theirs to see.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const { user, session: current } = await requireSession(request);
  const member = await currentMember(request);
  const billingRefused = member ? whyNot(member, "billing.manage") : null;
  const billing = member && billingRefused === null ? await loadAccountBilling(member) : null;
  return json({
    sessions: (await listSessions(user.id)).map((session) => ({
      // The row id is a hash of the cookie's token; the page shows only a prefix of it, as a list key.
      id: session.id.slice(0, 12),
      current: session.id === current.id,
      userAgent: session.userAgent,
      createdAt: session.createdAt.toISOString(),
      lastSeenAt: session.lastSeenAt.toISOString(),
    })),
    billing: billing && { payment: paymentForPage(billing.payment), billingProfile: billing.billingProfile },
    billingRefused,
    profile: {
      firstName: user.firstName,
      lastName: user.lastName,
      company: user.company,
      ...phoneFormValues(user.phone),
    },
    dialCodes: DIAL_CODE_OPTIONS,
  });
}

export async function action({ request }: ActionFunctionArgs) {
  const { user, session, formData } = await readUserForm(request);
  switch (formData.get("subaction")) {
    case "profile":
      return saveProfile(request, user, formData);
    case "password":
      return savePassword(request, user, session, formData);
    case "sign-out-others":
      await signOutEverywhereElse(request, user.id, session.id);
      return redirectWithToast(request, "/account", {
        kind: "success",
        message: "You were signed out everywhere else.",
      });
    default:
      throw json({ message: "This form is not known on the account page." }, { status: 400 });
  }
}

async function saveProfile(request: Request, user: UserRecord, formData: FormData) {
  const result = await profileValidator.validate(formData);
  if (result.error) return validationError(result.error, result.submittedData);
  await updateProfile(user.id, result.data);
  return redirectWithToast(request, "/account", { kind: "success", message: "Your profile was saved." });
}

type PasswordErrorData = ValidationErrorResponseData & { unmet?: string[] };

async function savePassword(request: Request, user: UserRecord, session: SessionRecord, formData: FormData) {
  const result = await passwordValidator.validate(formData);
  // Passwords are never written back into the page; the unmet requirements are, for the checklist.
  if (result.error) {
    const unmet = unmetPasswordRequirements(String(formData.get("new_password") ?? ""));
    return json<PasswordErrorData>({ ...result.error, unmet }, { status: 422 });
  }
  const oldPasswordError = (message: string) =>
    validationError({
      // The form's id ties the error to it; without it remix-validated-form takes the post for a success and resets the form.
      formId: "password",
      subaction: "password",
      fieldErrors: { old_password: message },
    });
  // Throttled like sign-in: a stolen session must not become a way to guess the password.
  const waitSeconds = await reservePasswordChange(user.id);
  if (waitSeconds > 0) return oldPasswordError(waitMessage("password change attempts", waitSeconds));
  if (!(await changePassword(user.id, result.data.old_password, result.data.new_password))) {
    return oldPasswordError("The current password is incorrect.");
  }
  await releasePasswordChange(user.id);
  // Whoever else holds a session (perhaps the reason for the change) is signed out.
  await signOutEverywhereElse(request, user.id, session.id);
  return redirectWithToast(request, "/account", { kind: "success", message: "Your password was changed." });
}

/** The drawers (cards/new, cards/:sourceId/replace, profile, shipping) are child routes of this page. */
const DRAWER_BASE = "/account";

export default function Account() {
  const { profile, dialCodes, billing, billingRefused, sessions } = useLoaderData<typeof loader>();
  const actionData = useActionData<PasswordErrorData>();
  return (
    <Stack gap="lg" maw={1100}>
      <Group justify="space-between">
        <Text size="lg">
          {billing
            ? "Your organization's payment method, billing profile and shipping address; your profile and password."
            : "Your profile, password and where you are signed in."}
        </Text>
        {billing ? <Anchor to="/account/invoices">Invoices</Anchor> : null}
      </Group>
      {billingRefused ? <Text>{billingRefused}</Text> : null}
      {billing ? <BillingSections {...billing} /> : null}
      <SimpleGrid cols={{ base: 1, md: 2 }} spacing="lg">
        <ProfileForm defaults={profile} dialCodes={dialCodes} />
        <PasswordForm unmetAfterSubmit={actionData?.subaction === "password" ? (actionData.unmet ?? null) : null} />
      </SimpleGrid>
      <SessionsCard sessions={sessions} />
      <Outlet />
      <BillingProfilePending drawerBase={DRAWER_BASE} />
    </Stack>
  );
}

type BillingData = NonNullable<SerializeFrom<typeof loader>["billing"]>;

/** The organization's card, billing profile and addresses, or 'Error' when the provider could not be read. */
function BillingSections({ payment, billingProfile }: BillingData) {
  if (payment.status !== "ready") {
    return (
      <>
        <Text c="red.9" fw={600} role="alert">
          Error
        </Text>
        <BillingProfileCard profile={billingProfile} updateTo={`${DRAWER_BASE}/profile`} />
      </>
    );
  }
  return (
    <>
      <PaymentMethodsSection sources={payment.sources} drawerBase={DRAWER_BASE} />
      <BillingProfileCard profile={billingProfile} updateTo={`${DRAWER_BASE}/profile`} />
      <AddressPanels
        billing={payment.billingAddress}
        shipping={payment.shippingAddress}
        profileTo={`${DRAWER_BASE}/profile`}
        shippingTo={`${DRAWER_BASE}/shipping`}
      />
    </>
  );
}

export const ErrorBoundary = PageErrorBoundary;
