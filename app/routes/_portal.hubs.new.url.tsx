import { Text } from "~/ui/typography";
import { portalNow } from "~/server/billing/index.server";
import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { useState } from "react";
import { AuthenticityTokenInput } from "remix-utils/csrf/react";
import { validationError } from "remix-validated-form";
import { FIX_THE_ERRORS, HUB_REGION_OPTIONS, regionFromForm } from "~/domain/cloud-hub-steps";
import { lazyValidator } from "~/domain/lazy-validator";
import { normalSubdomain } from "~/domain/hub-subdomain";
import { readMemberForm, requireMember } from "~/server/accounts/access.server";
import { env } from "~/server/platform/config/env.server";
import { selectableLicense } from "~/server/cloud-hubs/cloud-hub-licenses.server";
import { cloudHubWizard, subdomainUnavailable } from "~/server/cloud-hubs/cloud-hub-wizard.server";
import { RegionField, SubdomainField } from "~/ui/hubs/address-fields";
import { Stack } from "~/ui/layout";
import { PageErrorBoundary } from "~/ui/page";
import { useValid } from "~/ui/use-valid";
import { StepActions } from "~/ui/wizard/step-actions";
import { ValidatedForm } from "~/ui/validated-form";

const validator = lazyValidator(() => import("~/domain/cloud-hub").then((module) => module.urlStepSchema));

export async function loader({ request }: LoaderFunctionArgs) {
  const member = await requireMember(request, "hubs.deploy");
  const { data } = await cloudHubWizard.load(member, "url");
  // A purchase's success button names the new license; the form carries it, as a page read never writes.
  const license = new URL(request.url).searchParams.get("license");
  return json({
    host: env.HUB_HOST,
    license,
    defaults: {
      subdomain: data.subdomain,
      hubRegion: HUB_REGION_OPTIONS.find((option) => option.region === data.region)?.value ?? ("1" as const),
    },
  });
}

/** Next: the form's rules, then the service's availability check, then the License step. */
export async function action({ request }: ActionFunctionArgs) {
  const { member, formData } = await readMemberForm(request, "hubs.deploy");
  const result = await validator.validate(formData);
  if (result.error) return validationError(result.error, result.submittedData);
  const unavailable = await subdomainUnavailable(result.data.subdomain);
  if (unavailable) return validationError({ fieldErrors: { subdomain: unavailable } }, result.submittedData);
  const license = String(formData.get("license") ?? "");
  const preselected = (await selectableLicense(member.organization.id, license, await portalNow()))
    ? { licenseId: license }
    : {};
  return cloudHubWizard.complete(member, "url", {
    subdomain: result.data.subdomain,
    region: regionFromForm(result.data.hubRegion),
    ...preselected,
  });
}

export default function UrlStep() {
  const { host, license, defaults } = useLoaderData<typeof loader>();
  const [subdomain, setSubdomain] = useState(defaults.subdomain);
  // Live validity needs JavaScript; without it Next stays enabled and the server says what to fix.
  const valid = useValid(validator, { subdomain });
  return (
    <ValidatedForm validator={validator} method="post" defaultValues={defaults} noValidate>
      <AuthenticityTokenInput name="csrf" />
      {license ? <input type="hidden" name="license" value={license} /> : null}
      <Stack gap="md">
        <Text>
          Choose the address of your GateKeeper Cloud Hub. It cannot be changed later, so we recommend using part of
          your organization&apos;s name.
        </Text>
        <SubdomainField host={host} onChange={setSubdomain} />
        <Text size="sm" data-testid="hub-address">
          Your Hub&apos;s address: https://{normalSubdomain(subdomain) || "your-subdomain"}.{host}
        </Text>
        <RegionField />
      </Stack>
      <StepActions nextLabel="Next: License" disabledReason={valid ? null : FIX_THE_ERRORS} />
    </ValidatedForm>
  );
}

export const ErrorBoundary = PageErrorBoundary;
