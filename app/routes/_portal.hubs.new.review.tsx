import { Text } from "~/ui/typography";
import { portalNow } from "~/server/billing/index.server";
import { json, redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData, useSearchParams } from "@remix-run/react";
import { CONFIRM_DEPLOYMENT, FAILED_TO_FETCH_LICENSE, regionLabel } from "~/domain/cloud-hub-steps";
import { cloudHubStepUrl } from "~/domain/cloud-hub-steps";
import { formatDate } from "~/domain/format";
import { readMemberForm, requireMember } from "~/server/accounts/access.server";
import { env } from "~/server/platform/config/env.server";
import { redirectWithToast } from "~/server/accounts/session.server";
import { selectableLicense } from "~/server/cloud-hubs/cloud-hub-licenses.server";
import { cloudHubWizard, deploy, deploymentKey } from "~/server/cloud-hubs/cloud-hub-wizard.server";
import { Button, LinkButton } from "~/ui/button";
import { Alert, Group, Stack } from "~/ui/layout";
import { PageErrorBoundary } from "~/ui/page";
import { ConfirmDialog } from "~/ui/wizard/confirm-dialog";
import { SummaryTable } from "~/ui/wizard/summary-table";

const REVIEW_URL = cloudHubStepUrl("review");
export const DEPLOYMENT_CHANGED =
  "Your Hub's details changed since you reviewed them. Please review them and confirm again.";

export async function loader({ request }: LoaderFunctionArgs) {
  const member = await requireMember(request, "hubs.deploy");
  const { data } = await cloudHubWizard.load(member, "review");
  const license = data.licenseId
    ? await selectableLicense(member.organization.id, data.licenseId, await portalNow())
    : null;
  return json({
    address: `https://${data.subdomain}.${env.HUB_HOST}`,
    region: regionLabel(data.region),
    administrator: data.administrator,
    license: license
      ? {
          name: license.name,
          planType: license.planType,
          nodes: license.nodes,
          validFrom: license.validFrom.toISOString(),
          validTo: license.validTo.toISOString(),
        }
      : null,
    deploymentKey: await deploymentKey(member),
  });
}

/** 'Yes, Deploy': the deployment runs as a job; the page follows it. */
export async function action({ request }: ActionFunctionArgs) {
  const { member, formData } = await readMemberForm(request, "hubs.deploy");
  const placement = await deploy(member, String(formData.get("deploymentKey") ?? ""));
  if ("placed" in placement) return redirect(`/hubs/deployments/${placement.placed.id}`);
  // The license is no longer one a Hub can be made from (another deployment holds it): choose another.
  if ("refused" in placement) {
    return redirectWithToast(request, cloudHubStepUrl("license"), { kind: "error", message: placement.refused });
  }
  return redirectWithToast(request, REVIEW_URL, { kind: "error", message: DEPLOYMENT_CHANGED });
}

export default function ReviewStep() {
  const { address, region, administrator, license, deploymentKey } = useLoaderData<typeof loader>();
  const [searchParams] = useSearchParams();
  const rows: [string, string][] = [
    ["Hub URL", address],
    ["Hosting region", region],
    ...(license
      ? ([
          ["License organization", license.name],
          ["Plan", license.planType],
          ["Users", String(license.nodes)],
          ["Valid from", formatDate(license.validFrom)],
          ["Valid to", formatDate(license.validTo)],
        ] as [string, string][])
      : []),
    ...(administrator
      ? ([
          ["Admin name", `${administrator.firstName} ${administrator.lastName}`],
          ["Username", administrator.userName],
          ["Email", administrator.email],
          ["Phone", administrator.phoneNumber || "None"],
        ] as [string, string][])
      : []),
  ];
  return (
    <Stack gap="md">
      {license ? null : (
        <Alert color="red" role="alert">
          {FAILED_TO_FETCH_LICENSE}
        </Alert>
      )}
      <SummaryTable label="Your new Hub" rows={rows} />
      <Group justify="space-between" mt="md">
        <LinkButton to={cloudHubStepUrl("admin")} variant="default">
          Previous
        </LinkButton>
        {deploymentKey ? (
          <LinkButton to={`${REVIEW_URL}?confirm=1`}>Submit</LinkButton>
        ) : (
          <Button disabled>Submit</Button>
        )}
      </Group>
      {searchParams.get("confirm") && deploymentKey ? (
        <ConfirmDialog
          title={CONFIRM_DEPLOYMENT}
          confirmLabel="Yes, Deploy"
          busyLabel="Deploying your Hub..."
          cancelLabel="Go Back"
          cancelTo={REVIEW_URL}
          intent="deploy"
          fields={{ deploymentKey }}
        >
          <Text span fw={700}>
            This is IRREVERSIBLE:
          </Text>{" "}
          the Hub is created at {address} with this license, and its address cannot be changed later.
        </ConfirmDialog>
      ) : null}
    </Stack>
  );
}

export const ErrorBoundary = PageErrorBoundary;
