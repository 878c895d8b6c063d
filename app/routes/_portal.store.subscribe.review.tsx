import { Text, Title } from "~/ui/typography";
import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { Form, useLoaderData } from "@remix-run/react";
import { AuthenticityTokenInput } from "remix-utils/csrf/react";
import { useHydrated } from "remix-utils/use-hydrated";
import { readMemberForm, requireMember } from "~/server/accounts/access.server";
import {
  estimateDraft,
  estimateForPage,
  purchaseRight,
  subscriptionWizardOf,
} from "~/server/orders/new-subscription-wizard.server";
import { Button } from "~/ui/button";
import { Group, Stack } from "~/ui/layout";
import { PageErrorBoundary } from "~/ui/page";
import { EstimateOrError } from "~/ui/wizard/order-summary";
import { StepActions } from "~/ui/wizard/step-actions";

export async function loader({ request }: LoaderFunctionArgs) {
  const member = await requireMember(request, purchaseRight(request));
  const { wizard } = await subscriptionWizardOf(member, request);
  const { data } = await wizard.load(member, "review");
  return json({
    previousTo: wizard.urlOf("support"),
    organization: data.organization,
    ...(await estimateForPage(() => estimateDraft(member.organization, data, { withCoupon: false }))),
  });
}

export async function action({ request }: ActionFunctionArgs) {
  const { member } = await readMemberForm(request, purchaseRight(request));
  const { wizard } = await subscriptionWizardOf(member, request);
  return wizard.complete(member, "review", {});
}

export default function ReviewStep() {
  const { previousTo, organization, estimate, estimateError } = useLoaderData<typeof loader>();
  const hydrated = useHydrated();
  return (
    <Form method="post">
      <AuthenticityTokenInput name="csrf" />
      <Stack gap="md" className="gk-printable">
        <Group justify="space-between">
          <Title order={3}>Review</Title>
          {hydrated ? (
            <Button variant="light" onClick={() => window.print()} className="gk-no-print">
              Print this out!
            </Button>
          ) : (
            <Text size="sm" className="gk-no-print">
              Print this out! Use your browser&apos;s Print command.
            </Text>
          )}
        </Group>
        <Text>
          Recurring license for <strong>{organization}</strong>
        </Text>
        <EstimateOrError estimate={estimate} error={estimateError} caption="Your order before any coupon" />
      </Stack>
      <StepActions
        previousTo={previousTo}
        nextLabel="Next: Billing"
        disabledReason={estimate ? null : "The order could not be estimated. Please try again later."}
      />
    </Form>
  );
}

export const ErrorBoundary = PageErrorBoundary;
