import { Text } from "~/ui/typography";
import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { Form, Outlet, useActionData, useLoaderData } from "@remix-run/react";
import { AuthenticityTokenInput } from "remix-utils/csrf/react";
import { hardwareCount, nextStepTitle, previousStepUrl, trialStepUrl } from "~/domain/trial-steps";
import { choosePayment, loadPaymentStep, paymentForPage } from "~/server/account-billing/billing-details.server";
import { addCardInStep, newCardFormData } from "~/server/account-billing/drawers.server";
import { assertMay } from "~/server/accounts/access.server";
import { getBilling } from "~/server/billing/index.server";
import { loadTrialStep, postTrialStep } from "~/server/trials/trial-wizard.server";
import { CardForm } from "~/ui/billing/card-drawers";
import { PaymentStep } from "~/ui/billing/payment-step";
import { Button, LinkButton } from "~/ui/button";
import { Alert, Group, Stack } from "~/ui/layout";
import { PageErrorBoundary } from "~/ui/page";

// Its step may show the new-card form: with Stripe its document lets Stripe.js load.
export { cardRouteHandle as handle } from "~/ui/billing/card-drawers";

/**
 * The trial's Payment step: the card the hardware is charged
 * to, or the new-card form when there is none yet. Without hardware no card is needed.
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const { member, hubType, draft, customerId } = await loadTrialStep(request, params, "payment");
  const ordersHardware = hardwareCount(draft.data) > 0;
  // Hardware is paid with the organization's card, which only a role that may buy sees.
  if (ordersHardware) assertMay(member, "purchase");
  const step = ordersHardware ? paymentForPage(await loadPaymentStep(member)) : null;
  // The card chosen earlier in this trial stays chosen while it is still on file.
  const chosen =
    step?.status === "ready" && step.sources.some((source) => source.id === draft.data.paymentSourceId)
      ? draft.data.paymentSourceId
      : null;
  const needsCard = step?.status === "ready" && step.sources.length === 0;
  return json({
    hubType,
    customerId,
    step: step?.status === "ready" && chosen ? { ...step, preselectedSourceId: chosen } : step,
    newCard: needsCard ? await newCardFormData(member) : null,
  });
}

export async function action({ request, params }: ActionFunctionArgs) {
  const { member, formData, intent, hubType, wizard, draft, customerId } = await postTrialStep(
    request,
    params,
    "payment",
  );
  if (hardwareCount(draft.data) === 0) return wizard.complete(member, "payment", { paymentSourceId: null });
  assertMay(member, "purchase");
  if (intent === "add-card") {
    // Saving a card chooses it and goes on.
    const added = await addCardInStep(request, trialStepUrl(hubType, "payment", customerId), member, formData);
    return added.ok ? wizard.complete(member, "payment", { paymentSourceId: added.value }) : added.response;
  }
  const choice = await choosePayment(member, formData, getBilling(), { withAddresses: false });
  if (!choice.ok) return json({ message: choice.message }, { status: 422 });
  return wizard.complete(member, "payment", { paymentSourceId: choice.paymentSourceId });
}

const CHARGED_ONLY_FOR_HARDWARE =
  "Your card is charged only for the hardware you ordered and its shipping. It is not charged automatically when the trial ends.";

export default function PaymentStepRoute() {
  const { hubType, customerId, step, newCard } = useLoaderData<typeof loader>();
  const problem = (useActionData<typeof action>() as { message?: string } | undefined)?.message;
  const previousTo = previousStepUrl(hubType, "payment", customerId);
  const nextLabel = nextStepTitle(hubType, "payment");
  if (!step) {
    return (
      <Form method="post">
        <AuthenticityTokenInput name="csrf" />
        <Stack gap="md">
          <Text>You have not ordered any hardware, so no card is needed: your trial is free.</Text>
          <Group justify="space-between">
            <LinkButton to={previousTo ?? trialStepUrl(hubType, "hardware", customerId)} variant="default">
              Previous
            </LinkButton>
            <Button type="submit" name="intent" value="next">
              {nextLabel}
            </Button>
          </Group>
        </Stack>
      </Form>
    );
  }
  return (
    <Stack gap="md">
      <Text>{CHARGED_ONLY_FOR_HARDWARE}</Text>
      {problem ? (
        <Alert color="red" role="alert">
          {problem}
        </Alert>
      ) : null}
      <PaymentStep
        data={step}
        nextLabel={nextLabel}
        previousTo={previousTo}
        drawerBase={trialStepUrl(hubType, "payment", customerId)}
        withAddresses={false}
        newCard={newCard ? <CardForm data={newCard} intent="add-card" /> : undefined}
      />
      <Outlet />
    </Stack>
  );
}

export const ErrorBoundary = PageErrorBoundary;
