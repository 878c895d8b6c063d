import { Title } from "~/ui/typography";
import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { Form, useLoaderData } from "@remix-run/react";
import { AuthenticityTokenInput } from "remix-utils/csrf/react";
import { regionLabel } from "~/domain/cloud-hub-steps";
import { formatCents, formatDate } from "~/domain/format";
import { hardwareCount, previousStepUrl, SEVEN_DAYS_NOTICE, trialValidity } from "~/domain/trial-steps";
import { env } from "~/server/platform/config/env.server";
import { quoteTrialHardware } from "~/server/trials/trials.server";
import { loadTrialStep, postTrialStep } from "~/server/trials/trial-wizard.server";
import { Button, LinkButton } from "~/ui/button";
import { Alert, Group, Stack } from "~/ui/layout";
import { PageErrorBoundary } from "~/ui/page";
import { SummaryTable } from "~/ui/wizard/summary-table";

/** The trial's Review: everything chosen, the license's dates and what the hardware costs. */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const { organization, hubType, draft, customerId } = await loadTrialStep(request, params, "review");
  const { data } = draft;
  const quote = await quoteTrialHardware(organization, data);
  const validity = data.startDate ? trialValidity(data.startDate, data.duration) : null;
  const rows: [string, string][] = [
    ...(hubType === "cloud"
      ? ([
          ["Hub URL", `https://${data.subdomain}.${env.HUB_HOST}`],
          ["Hosting region", regionLabel(data.region)],
          [
            "Hub administrator",
            data.administrator
              ? `${data.administrator.firstName} ${data.administrator.lastName} (${data.administrator.userName})`
              : "",
          ],
        ] as [string, string][])
      : ([["Hub", "On-Premise GateKeeper Hub"]] as [string, string][])),
    ["Plan", "Ultimate (trial)"],
    ["Users", String(data.nodes ?? "")],
    ["Total employees", String(data.employees ?? "")],
    ["Duration", `${data.duration} days`],
    ["License valid from", validity ? formatDate(validity.validFrom) : ""],
    ["License valid to", validity ? formatDate(validity.validTo) : ""],
  ];
  const hardware: [string, string][] = [
    ...quote.lines
      .filter((line) => line.quantity > 0)
      .map((line): [string, string] => [line.name, `${line.quantity} × ${formatCents(line.unitPrice)}`]),
    ...(quote.shipping ? ([["Shipping", formatCents(quote.shipping)]] as [string, string][]) : []),
    ["Charged to your card", formatCents(quote.total)],
  ];
  const address = data.address;
  const shipTo = address
    ? `${address.name}, ${address.company}, ${address.street}, ${address.city}, ${address.state} ${address.zipcode}, ${address.country}`
    : "";
  return json({ hubType, customerId, rows, hardware, shipTo, ordersHardware: hardwareCount(data) > 0 });
}

/** 'Order Confirmation': on to the Order step. */
export async function action({ request, params }: ActionFunctionArgs) {
  const { member, wizard } = await postTrialStep(request, params, "review");
  return wizard.complete(member, "review", {});
}

export default function ReviewStep() {
  const { hubType, customerId, rows, hardware, shipTo, ordersHardware } = useLoaderData<typeof loader>();
  return (
    <Form method="post">
      <AuthenticityTokenInput name="csrf" />
      <Stack gap="md">
        <SummaryTable label="Your trial" rows={rows} />
        <Title order={3} size="h5">
          Hardware
        </Title>
        {ordersHardware ? (
          <>
            <SummaryTable label="Your hardware" rows={[...hardware, ["Ship to", shipTo]]} />
            <Alert color="blue">{SEVEN_DAYS_NOTICE}</Alert>
          </>
        ) : (
          <SummaryTable label="Your hardware" rows={[["Hardware", "None: nothing is charged"]]} />
        )}
        <Group justify="space-between">
          <LinkButton to={previousStepUrl(hubType, "review", customerId) ?? "/trial"} variant="default">
            Previous
          </LinkButton>
          <Button type="submit" name="intent" value="next">
            Order Confirmation
          </Button>
        </Group>
      </Stack>
    </Form>
  );
}

export const ErrorBoundary = PageErrorBoundary;
