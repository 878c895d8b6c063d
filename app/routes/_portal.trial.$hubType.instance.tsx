import { Text } from "~/ui/typography";
import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { useMemo } from "react";
import { AuthenticityTokenInput } from "remix-utils/csrf/react";
import { validationError } from "remix-validated-form";
import { HUB_REGION_OPTIONS, regionFromForm } from "~/domain/cloud-hub-steps";
import { lazyValidator } from "~/domain/lazy-validator";
import { isoDay, nextStepTitle, previousStepUrl, trialHubDefaults } from "~/domain/trial-steps";
import { env } from "~/server/platform/config/env.server";
import { subdomainUnavailable } from "~/server/cloud-hubs/cloud-hub-wizard.server";
import { loadTrialStep, postTrialStep } from "~/server/trials/trial-wizard.server";
import { RegionField, SubdomainField } from "~/ui/hubs/address-fields";
import { Stack } from "~/ui/layout";
import { PageErrorBoundary } from "~/ui/page";
import { TrialHubFields } from "~/ui/trials/trial-hub-fields";
import { StepActions } from "~/ui/wizard/step-actions";
import { ValidatedForm } from "~/ui/validated-form";

/** The cloud trial's Hub Instance step: the trial's figures, and the Hub's address and region (the Hub wizard's rules). */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const { hubType, draft, customerId } = await loadTrialStep(request, params, "instance");
  const today = isoDay(new Date());
  const region = HUB_REGION_OPTIONS.find((option) => option.region === draft.data.region)?.value ?? "1";
  return json({
    hubType,
    customerId,
    today,
    host: env.HUB_HOST,
    defaults: { ...trialHubDefaults(draft.data, today), subdomain: draft.data.subdomain, hubRegion: region },
  });
}

/** The Hub Instance step's rules; `today` bounds the start date. */
const instanceStepValidator = (today: string) =>
  lazyValidator(() => import("~/domain/trial-wizard").then((module) => module.trialInstanceStepSchema(today)));

/** Next: the form's rules, then the Hub service's availability check, as in the Hub wizard. */
export async function action({ request, params }: ActionFunctionArgs) {
  const { member, formData, wizard } = await postTrialStep(request, params, "instance");
  const result = await instanceStepValidator(isoDay(new Date())).validate(formData);
  if (result.error) return validationError(result.error, result.submittedData);
  const unavailable = await subdomainUnavailable(result.data.subdomain);
  if (unavailable) return validationError({ fieldErrors: { subdomain: unavailable } }, result.submittedData);
  const { hubRegion, ...values } = result.data;
  return wizard.complete(member, "instance", { ...values, region: regionFromForm(hubRegion) });
}

export default function InstanceStep() {
  const { hubType, customerId, today, host, defaults } = useLoaderData<typeof loader>();
  const validator = useMemo(() => instanceStepValidator(today), [today]);
  return (
    <ValidatedForm validator={validator} method="post" defaultValues={defaults} noValidate>
      <AuthenticityTokenInput name="csrf" />
      <Stack gap="md">
        <TrialHubFields />
        <Text>
          Choose your Hub&apos;s address. It cannot be changed later, so we recommend using part of your
          organization&apos;s name.
        </Text>
        <SubdomainField host={host} />
        <RegionField />
      </Stack>
      <StepActions
        previousTo={previousStepUrl(hubType, "instance", customerId)}
        nextLabel={nextStepTitle(hubType, "instance")}
      />
    </ValidatedForm>
  );
}

export const ErrorBoundary = PageErrorBoundary;
