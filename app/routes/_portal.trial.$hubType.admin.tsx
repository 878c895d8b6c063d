import { Text } from "~/ui/typography";
import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { AuthenticityTokenInput } from "remix-utils/csrf/react";
import { isHubPhone } from "~/domain/cloud-hub-steps";
import { administratorValidator } from "~/domain/cloud-hub-validators";
import { nextStepTitle, previousStepUrl, userNameFrom } from "~/domain/trial-steps";
import { readAdministrator } from "~/server/cloud-hubs/cloud-hub-wizard.server";
import { loadTrialStep, postTrialStep } from "~/server/trials/trial-wizard.server";
import { HubAdministratorFields } from "~/ui/hubs/administrator-fields";
import { Stack } from "~/ui/layout";
import { PageErrorBoundary } from "~/ui/page";
import { StepActions } from "~/ui/wizard/step-actions";
import { ValidatedForm } from "~/ui/validated-form";

/** The cloud trial's Hub Admin step, prefilled from the profile with a username made of the names. */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const { user, hubType, draft, customerId } = await loadTrialStep(request, params, "admin");
  const { firstName, lastName, email, phone } = user;
  // The profile's phone is kept when the Hub takes its form (international numbers often do not fit it).
  const phoneNumber = isHubPhone(phone) ? phone : "";
  const defaults = draft.data.administrator ?? {
    userName: userNameFrom(firstName, lastName),
    firstName,
    lastName,
    phoneNumber,
    email,
  };
  return json({ hubType, customerId, defaults, passwordKept: Boolean(draft.data.sealedPassword) });
}

export async function action({ request, params }: ActionFunctionArgs) {
  const { member, formData, wizard } = await postTrialStep(request, params, "admin");
  const posted = await readAdministrator(formData);
  return posted.ok ? wizard.complete(member, "admin", posted.values) : posted.response;
}

export default function AdminStep() {
  const { hubType, customerId, defaults, passwordKept } = useLoaderData<typeof loader>();
  return (
    <ValidatedForm validator={administratorValidator} method="post" defaultValues={defaults} noValidate>
      <AuthenticityTokenInput name="csrf" />
      <Stack gap="md">
        <Text>The administrator account of your trial Hub. You sign in to the Hub with it.</Text>
        <HubAdministratorFields passwordKept={passwordKept} />
      </Stack>
      <StepActions
        previousTo={previousStepUrl(hubType, "admin", customerId)}
        nextLabel={nextStepTitle(hubType, "admin")}
      />
    </ValidatedForm>
  );
}

export const ErrorBoundary = PageErrorBoundary;
