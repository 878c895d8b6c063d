import { Text } from "~/ui/typography";
import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { AuthenticityTokenInput } from "remix-utils/csrf/react";
import { validationError } from "remix-validated-form";
import { lazyValidator } from "~/domain/lazy-validator";
import { nextStepTitle, previousStepUrl } from "~/domain/trial-steps";
import { COUNTRY_OPTIONS } from "~/server/account-billing/contact-options.server";
import { loadTrialStep, postTrialStep } from "~/server/trials/trial-wizard.server";
import { CountryField } from "~/ui/contact-fields";
import { TextField } from "~/ui/fields";
import { SimpleGrid, Stack } from "~/ui/layout";
import { PageErrorBoundary } from "~/ui/page";
import { StepActions } from "~/ui/wizard/step-actions";
import { ValidatedForm } from "~/ui/validated-form";

const validator = lazyValidator(() => import("~/domain/trial-wizard").then((module) => module.trialAddressSchema));

/** Where the trial's hardware is shipped, starting from the profile and its shipping address. */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const { user, organization, hubType, draft, customerId } = await loadTrialStep(request, params, "address");
  const shipping = organization.shippingAddress;
  const defaults = draft.data.address ?? {
    name: `${user.firstName} ${user.lastName}`.trim(),
    company: organization.name,
    street: shipping?.line1 ?? "",
    city: shipping?.city ?? "",
    state: shipping?.state ?? "",
    zipcode: shipping?.zip ?? "",
    country: shipping?.country ?? "",
  };
  return json({ hubType, customerId, defaults, countries: COUNTRY_OPTIONS });
}

export async function action({ request, params }: ActionFunctionArgs) {
  const { member, formData, wizard } = await postTrialStep(request, params, "address");
  const result = await validator.validate(formData);
  if (result.error) return validationError(result.error, result.submittedData);
  return wizard.complete(member, "address", { address: result.data });
}

export default function AddressStep() {
  const { hubType, customerId, defaults, countries } = useLoaderData<typeof loader>();
  return (
    <ValidatedForm validator={validator} method="post" defaultValues={defaults} noValidate>
      <AuthenticityTokenInput name="csrf" />
      <Stack gap="md">
        <Text>Where should we ship your trial hardware?</Text>
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          <TextField name="name" label="Name" required autoComplete="name" />
          <TextField name="company" label="Company" required autoComplete="organization" />
          <TextField name="street" label="Street" required autoComplete="address-line1" />
          <TextField name="city" label="City" required autoComplete="address-level2" />
          <TextField name="state" label="State" required autoComplete="address-level1" />
          <TextField name="zipcode" label="ZIP code" required autoComplete="postal-code" />
          <CountryField name="country" label="Country" required autoComplete="country" countries={countries} />
        </SimpleGrid>
      </Stack>
      <StepActions
        previousTo={previousStepUrl(hubType, "address", customerId)}
        nextLabel={nextStepTitle(hubType, "address")}
      />
    </ValidatedForm>
  );
}

export const ErrorBoundary = PageErrorBoundary;
