import { Text } from "~/ui/typography";
import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { useMemo } from "react";
import { AuthenticityTokenInput } from "remix-utils/csrf/react";
import { validationError } from "remix-validated-form";
import { lazyValidator } from "~/domain/lazy-validator";
import { isoDay, nextStepTitle, previousStepUrl, trialHubDefaults } from "~/domain/trial-steps";
import { loadTrialStep, postTrialStep } from "~/server/trials/trial-wizard.server";
import { Stack } from "~/ui/layout";
import { PageErrorBoundary } from "~/ui/page";
import { TrialHubFields } from "~/ui/trials/trial-hub-fields";
import { StepActions } from "~/ui/wizard/step-actions";
import { ValidatedForm } from "~/ui/validated-form";

/** The on-premise trial's License step: users, employees, duration and the hidden start date. */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const { hubType, draft, customerId } = await loadTrialStep(request, params, "license");
  const today = isoDay(new Date());
  return json({ hubType, customerId, today, defaults: trialHubDefaults(draft.data, today) });
}

/** The Hub step's rules; `today` bounds the start date. */
const hubStepValidator = (today: string) =>
  lazyValidator(() => import("~/domain/trial-wizard").then((module) => module.trialHubStepSchema(today)));

export async function action({ request, params }: ActionFunctionArgs) {
  const { member, formData, wizard } = await postTrialStep(request, params, "license");
  const result = await hubStepValidator(isoDay(new Date())).validate(formData);
  if (result.error) return validationError(result.error, result.submittedData);
  return wizard.complete(member, "license", result.data);
}

export default function LicenseStep() {
  const { hubType, customerId, today, defaults } = useLoaderData<typeof loader>();
  const validator = useMemo(() => hubStepValidator(today), [today]);
  return (
    <ValidatedForm validator={validator} method="post" defaultValues={defaults} noValidate>
      <AuthenticityTokenInput name="csrf" />
      <Stack gap="md">
        <Text>Your trial license: the Ultimate plan for the users you try GateKeeper with, starting today.</Text>
        <TrialHubFields />
      </Stack>
      <StepActions
        previousTo={previousStepUrl(hubType, "license", customerId)}
        nextLabel={nextStepTitle(hubType, "license")}
      />
    </ValidatedForm>
  );
}

export const ErrorBoundary = PageErrorBoundary;
