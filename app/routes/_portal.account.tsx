import { SimpleGrid } from "@mantine-parts/components/SimpleGrid/SimpleGrid.mjs";
import { Stack } from "@mantine-parts/components/Stack/Stack.mjs";
import { Text } from "@mantine-parts/components/Text/Text.mjs";
import { json, type ActionFunctionArgs, type LinksFunction, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Outlet, useActionData, useLoaderData } from "@remix-run/react";
import { validationError, type ValidationErrorResponseData } from "remix-validated-form";
import { unmetPasswordRequirements } from "~/domain/profile";
import { splitPhone } from "~/domain/phone";
import { loadAccountBilling } from "~/server/account-billing.server";
import { requireUser } from "~/server/auth.server";
import { readUserForm } from "~/server/forms.server";
import { redirectWithToast } from "~/server/session.server";
import { changePassword, updateProfile, type UserRecord } from "~/server/users.server";
import { PasswordForm, ProfileForm, passwordValidator, profileValidator } from "~/ui/account/profile-forms";
import { AddressPanels } from "~/ui/billing/address-panels";
import { BillingProfileCard } from "~/ui/billing/billing-profile-card";
import { BillingProfilePending } from "~/ui/billing/drawer";
import { PaymentMethodsSection } from "~/ui/billing/payment-methods";
import { documentTitle, PageErrorBoundary } from "~/ui/page";
import { ALL_PARTS_STYLES } from "~/ui/stylesheets";

export const links: LinksFunction = () => [ALL_PARTS_STYLES];

export const handle = { title: "Account" };
export const meta: MetaFunction = () => documentTitle("Account");

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const phone = splitPhone(user.phone);
  return json({
    ...(await loadAccountBilling(user)),
    profile: {
      firstName: user.firstName,
      lastName: user.lastName,
      company: user.company,
      phone_country: phone.country,
      phone: phone.national,
    },
  });
}

export async function action({ request }: ActionFunctionArgs) {
  const { user, formData } = await readUserForm(request);
  switch (formData.get("subaction")) {
    case "profile":
      return saveProfile(request, user, formData);
    case "password":
      return savePassword(request, user, formData);
    default:
      throw json({ message: "This form is not known on the account page." }, { status: 400 });
  }
}

async function saveProfile(request: Request, user: UserRecord, formData: FormData) {
  const result = await profileValidator.validate(formData);
  if (result.error) return validationError(result.error, result.submittedData);
  updateProfile(user.id, result.data);
  return redirectWithToast(request, "/account", { kind: "success", message: "Your profile was saved." });
}

type PasswordErrorData = ValidationErrorResponseData & { unmet?: string[] };

async function savePassword(request: Request, user: UserRecord, formData: FormData) {
  const result = await passwordValidator.validate(formData);
  // Passwords are never written back into the page; the unmet requirements are, for the checklist.
  if (result.error) {
    const unmet = unmetPasswordRequirements(String(formData.get("new_password") ?? ""));
    return json<PasswordErrorData>({ ...result.error, unmet }, { status: 422 });
  }
  if (!(await changePassword(user.id, result.data.old_password, result.data.new_password))) {
    return validationError({
      // The form's id ties the error to it; without it remix-validated-form takes the post for a success and resets the form.
      formId: "password",
      subaction: "password",
      fieldErrors: { old_password: "The current password is incorrect." },
    });
  }
  return redirectWithToast(request, "/account", { kind: "success", message: "Your password was changed." });
}

/** The drawers (cards/new, cards/:sourceId/replace, profile, shipping) are child routes of this page. */
const DRAWER_BASE = "/account";

export default function Account() {
  const { profile, payment, billingProfile } = useLoaderData<typeof loader>();
  const actionData = useActionData<PasswordErrorData>();
  return (
    <Stack gap="lg" maw={1100}>
      <Text size="lg">Your payment method, billing profile, shipping address, profile and password.</Text>
      {payment.status === "ready" ? (
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
      ) : (
        <>
          <Text c="red.9" fw={600} role="alert">
            Error
          </Text>
          <BillingProfileCard profile={billingProfile} updateTo={`${DRAWER_BASE}/profile`} />
        </>
      )}
      <SimpleGrid cols={{ base: 1, md: 2 }} spacing="lg">
        <ProfileForm defaults={profile} />
        <PasswordForm unmetAfterSubmit={actionData?.subaction === "password" ? (actionData.unmet ?? null) : null} />
      </SimpleGrid>
      <Outlet />
      <BillingProfilePending drawerBase={DRAWER_BASE} />
    </Stack>
  );
}

export const ErrorBoundary = PageErrorBoundary;
