import { Text, Title } from "~/ui/typography";
import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { Form, useLoaderData } from "@remix-run/react";
import { AuthenticityTokenInput } from "remix-utils/csrf/react";
import { useHydrated } from "remix-utils/use-hydrated";
import { subscriptionStepUrl } from "~/domain/subscription-steps";
import { readMemberForm, requireMember } from "~/server/accounts/access.server";
import { estimateDraft, estimateForPage, subscriptionWizard } from "~/server/orders/new-subscription-wizard.server";
import { Button } from "~/ui/button";
import { Group, Stack } from "~/ui/layout";
import { PageErrorBoundary } from "~/ui/page";
import { EstimateOrError } from "~/ui/wizard/order-summary";
import { StepActions } from "~/ui/wizard/step-actions";

export async function loader({ request }: LoaderFunctionArgs) {
  const member = await requireMember(request, "purchase");
  const { data } = await subscriptionWizard.load(member, "review");
  return json({
    organization: data.organization,
    ...(await estimateForPage(() => estimateDraft(member.organization, data, { withCoupon: false }))),
  });
}

export async function action({ request }: ActionFunctionArgs) {
  const { member } = await readMemberForm(request, "purchase");
  return subscriptionWizard.complete(member, "review", {});
}

export default function ReviewStep() {
  const { organization, estimate, estimateError } = useLoaderData<typeof loader>();
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
        previousTo={subscriptionStepUrl("support")}
        nextLabel="Next: Billing"
        disabledReason={estimate ? null : "The order could not be estimated. Please try again later."}
      />
    </Form>
  );
}

export const ErrorBoundary = PageErrorBoundary;
