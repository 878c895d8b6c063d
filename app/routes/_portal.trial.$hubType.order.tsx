import { Text } from "~/ui/typography";
import { json, redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { Form, useLoaderData, useNavigation } from "@remix-run/react";
import { AuthenticityTokenInput } from "remix-utils/csrf/react";
import { formatCents } from "~/domain/format";
import { isTrialHubType, previousStepUrl, trialStepUrl } from "~/domain/trial-steps";
import { readMemberForm } from "~/server/accounts/access.server";
import { redirectWithToast } from "~/server/accounts/session.server";
import {
  buildTrial,
  loadTrialStep,
  trialCustomerQuery,
  trialOrder,
  trialRight,
} from "~/server/trials/trial-wizard.server";
import { Button, LinkButton } from "~/ui/button";
import { Group, Stack } from "~/ui/layout";
import { PageErrorBoundary } from "~/ui/page";

export const TRIAL_CHANGED =
  "Your trial's details changed since you reviewed them. Please review them and confirm again.";

/** The Order step's confirmation: 'Build My Trial' posts the trial's key. */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const { member, hubType, draft, customerId } = await loadTrialStep(request, params, "order");
  const { quote, key } = await trialOrder(member, hubType, draft, customerId);
  return json({ hubType, customerId, key, total: quote.total });
}

/** 'Build My Trial': the trial runs as a job, once; the page follows it, however often the button is pressed. */
export async function action({ request, params }: ActionFunctionArgs) {
  const { member, formData } = await readMemberForm(request, trialRight(request));
  const customerId = trialCustomerQuery(request);
  const placement = await buildTrial(member, params.hubType, String(formData.get("trialKey") ?? ""), customerId);
  if ("usedUp" in placement) return redirect("/trial");
  if ("placed" in placement) return redirect(`/trial/runs/${placement.placed.id}`);
  const review = isTrialHubType(params.hubType) ? trialStepUrl(params.hubType, "review", customerId) : "/trial";
  return redirectWithToast(request, review, { kind: "error", message: TRIAL_CHANGED });
}

export default function OrderStep() {
  const { hubType, customerId, key, total } = useLoaderData<typeof loader>();
  const busy = useNavigation().state === "submitting";
  return (
    <Form method="post">
      <AuthenticityTokenInput name="csrf" />
      {key ? <input type="hidden" name="trialKey" value={key} /> : null}
      <Stack gap="md">
        <Text>
          {total > 0
            ? `We create your trial license and order your hardware: ${formatCents(total)} is charged to your card.`
            : "We create your trial license; nothing is charged."}
        </Text>
        <Text size="sm">
          Building your trial takes a moment. Please keep this window open to follow it; if it closes, the trial is
          still built, and only once.
        </Text>
        <Group justify="space-between">
          <LinkButton to={previousStepUrl(hubType, "order", customerId) ?? "/trial"} variant="default">
            Previous
          </LinkButton>
          <Button type="submit" name="intent" value="build" disabled={!key} loading={busy}>
            Build My Trial
          </Button>
        </Group>
      </Stack>
    </Form>
  );
}

export const ErrorBoundary = PageErrorBoundary;
