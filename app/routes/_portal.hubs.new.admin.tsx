import { Text } from "~/ui/typography";
import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { AuthenticityTokenInput } from "remix-utils/csrf/react";
import { cloudHubStepUrl } from "~/domain/cloud-hub-steps";
import { administratorValidator } from "~/domain/cloud-hub-validators";
import { readMemberForm, requireMember } from "~/server/accounts/access.server";
import { cloudHubWizard, readAdministrator } from "~/server/cloud-hubs/cloud-hub-wizard.server";
import { HubAdministratorFields } from "~/ui/hubs/administrator-fields";
import { Stack } from "~/ui/layout";
import { PageErrorBoundary } from "~/ui/page";
import { StepActions } from "~/ui/wizard/step-actions";
import { ValidatedForm } from "~/ui/validated-form";

export async function loader({ request }: LoaderFunctionArgs) {
  const member = await requireMember(request, "hubs.deploy");
  const { data } = await cloudHubWizard.load(member, "admin");
  const defaults = data.administrator ?? {
    userName: "",
    firstName: member.user.firstName,
    lastName: member.user.lastName,
    phoneNumber: "",
    email: member.user.email,
  };
  return json({ defaults, passwordKept: Boolean(data.sealedPassword) });
}

/** The typed password is sealed before it is stored, and never sent back to the page, not even with an error. */
export async function action({ request }: ActionFunctionArgs) {
  const { member, formData } = await readMemberForm(request, "hubs.deploy");
  const posted = await readAdministrator(formData);
  return posted.ok ? cloudHubWizard.complete(member, "admin", posted.values) : posted.response;
}

export default function AdminStep() {
  const { defaults, passwordKept } = useLoaderData<typeof loader>();
  return (
    <ValidatedForm validator={administratorValidator} method="post" defaultValues={defaults} noValidate>
      <AuthenticityTokenInput name="csrf" />
      <Stack gap="md">
        <Text>The administrator account of your new Hub. You sign in to the Hub with it.</Text>
        <HubAdministratorFields passwordKept={passwordKept} />
      </Stack>
      <StepActions previousTo={cloudHubStepUrl("license")} nextLabel="Next: Review" />
    </ValidatedForm>
  );
}

export const ErrorBoundary = PageErrorBoundary;
