import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { subscriptionStepUrl } from "~/domain/subscription-steps";
import { readMemberForm, requireMember } from "~/server/accounts/access.server";
import { subscriptionWizard } from "~/server/orders/new-subscription-wizard.server";
import { chooseWizardPayment, wizardPaymentStep } from "~/server/orders/payment-step.server";
import { PageErrorBoundary } from "~/ui/page";
import { WizardBillingStep } from "~/ui/wizard/billing-step";

export async function loader({ request }: LoaderFunctionArgs) {
  return wizardPaymentStep(await requireMember(request, "purchase"), subscriptionWizard, "billing");
}

export async function action({ request }: ActionFunctionArgs) {
  return chooseWizardPayment(
    await readMemberForm(request, "purchase"),
    subscriptionWizard,
    "billing",
    subscriptionStepUrl("review"),
  );
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
