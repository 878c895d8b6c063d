import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { subscriptionStepUrl } from "~/domain/subscription-steps";
import { requireUser } from "~/server/auth.server";
import { readUserForm } from "~/server/forms.server";
import { subscriptionWizard } from "~/server/wizards/new-subscription.server";
import { chooseWizardPayment, wizardPaymentStep } from "~/server/wizards/payment.server";
import { PageErrorBoundary } from "~/ui/page";
import { WizardBillingStep } from "~/ui/wizard/billing-step";

export async function loader({ request }: LoaderFunctionArgs) {
  return wizardPaymentStep(await requireUser(request), subscriptionWizard, "billing");
}

export async function action({ request }: ActionFunctionArgs) {
  return chooseWizardPayment(await readUserForm(request), subscriptionWizard, "billing", subscriptionStepUrl("review"));
}

export default function BillingStep() {
  const problem = useActionData<typeof action>()?.message;
  return (
    <WizardBillingStep
      data={useLoaderData<typeof loader>()}
      problem={problem}
      nextLabel="Next: Order"
      drawerBase={subscriptionStepUrl("billing")}
    />
  );
}

export const ErrorBoundary = PageErrorBoundary;
