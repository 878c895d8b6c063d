import { Alert } from "@mantine-parts/components/Alert/Alert.mjs";
import { Stack } from "@mantine-parts/components/Stack/Stack.mjs";
import { Title } from "@mantine-parts/components/Title/Title.mjs";
import { json, redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { Outlet, useActionData, useLoaderData } from "@remix-run/react";
import { choosePayment, loadPaymentStep } from "~/server/account-billing.server";
import { subscriptionStepUrl } from "~/domain/new-subscription";
import { requireUser } from "~/server/auth.server";
import { readUserForm } from "~/server/forms.server";
import { subscriptionWizard } from "~/server/wizards/new-subscription.server";
import { PaymentStep } from "~/ui/billing/payment-step";
import { PageErrorBoundary } from "~/ui/page";

const BILLING_URL = subscriptionStepUrl("billing");

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const { data: draft } = subscriptionWizard.load(user.id, "billing");
  const step = await loadPaymentStep(user);
  // The card chosen earlier in this order stays chosen while it is still on file.
  const chosen = step.status === "ready" && step.sources.some((source) => source.id === draft.paymentSourceId) ? draft.paymentSourceId : null;
  return json(step.status === "ready" && chosen ? { ...step, preselectedSourceId: chosen } : step);
}

/** Next and Previous both save the chosen card (spec 000 §4 "Payment step"); only Next needs it to be valid. */
export async function action({ request }: ActionFunctionArgs) {
  const { user, formData, intent } = await readUserForm(request);
  const choice = await choosePayment(user, formData);
  if (intent === "previous") {
    if (choice.ok) subscriptionWizard.save(user.id, { paymentSourceId: choice.paymentSourceId });
    return redirect(subscriptionStepUrl("review"));
  }
  if (!choice.ok) return json({ message: choice.message }, { status: 422 });
  return subscriptionWizard.complete(user.id, "billing", { paymentSourceId: choice.paymentSourceId });
}

export default function BillingStep() {
  const data = useLoaderData<typeof loader>();
  const problem = useActionData<typeof action>()?.message;
  return (
    <Stack gap="md">
      <Title order={3}>Billing</Title>
      {problem ? (
        <Alert color="red" role="alert">
          {problem}
        </Alert>
      ) : null}
      <PaymentStep data={data} nextLabel="Next: Order" drawerBase={BILLING_URL} />
      <Outlet />
    </Stack>
  );
}

export const ErrorBoundary = PageErrorBoundary;
