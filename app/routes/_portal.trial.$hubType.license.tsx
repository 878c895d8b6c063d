import { Stack } from "@mantine-parts/components/Stack/Stack.mjs";
import { Text } from "@mantine-parts/components/Text/Text.mjs";
import { withZod } from "@remix-validated-form/with-zod";
import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { AuthenticityTokenInput } from "remix-utils/csrf/react";
import { ValidatedForm, validationError } from "remix-validated-form";
import { isoDay, nextStepTitle, previousStepUrl, trialHubDefaults, trialHubStepSchema } from "~/domain/trial-wizard";
import { loadTrialStep, postTrialStep } from "~/server/wizards/trials.server";
import { PageErrorBoundary } from "~/ui/page";
import { TrialHubFields } from "~/ui/trials/trial-hub-fields";
import { StepActions } from "~/ui/wizard/step-actions";

/** The on-premise trial's License step: users, employees, duration and the hidden start date. */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const { hubType, draft } = await loadTrialStep(request, params, "license");
  const today = isoDay(new Date());
  return json({ hubType, today, defaults: trialHubDefaults(draft.data, today) });
}

export async function action({ request, params }: ActionFunctionArgs) {
  const { user, formData, wizard } = await postTrialStep(request, params, "license");
  const result = await withZod(trialHubStepSchema(isoDay(new Date()))).validate(formData);
  if (result.error) return validationError(result.error, result.submittedData);
  return wizard.complete(user.id, "license", result.data);
}

export default function LicenseStep() {
  const { hubType, today, defaults } = useLoaderData<typeof loader>();
  return (
    <ValidatedForm validator={withZod(trialHubStepSchema(today))} method="post" defaultValues={defaults} noValidate>
      <AuthenticityTokenInput name="csrf" />
      <Stack gap="md">
        <Text>Your trial license: the Ultimate plan for the users you try GateKeeper with, starting today.</Text>
        <TrialHubFields />
      </Stack>
      <StepActions previousTo={previousStepUrl(hubType, "license")} nextLabel={nextStepTitle(hubType, "license")} />
    </ValidatedForm>
  );
}

export const ErrorBoundary = PageErrorBoundary;
