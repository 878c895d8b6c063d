import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { useActionData, useLoaderData, useLocation } from "@remix-run/react";
import { customerSearch, subscriptionStepUrl } from "~/domain/subscription-steps";
import { readMemberForm, requireMember } from "~/server/accounts/access.server";
import { purchaseRight, subscriptionWizardOf } from "~/server/orders/new-subscription-wizard.server";
import { chooseWizardPayment, wizardPaymentStep } from "~/server/orders/payment-step.server";
import { PageErrorBoundary } from "~/ui/page";
import { WizardBillingStep } from "~/ui/wizard/billing-step";

export async function loader({ request }: LoaderFunctionArgs) {
  const member = await requireMember(request, purchaseRight(request));
  return wizardPaymentStep(member, (await subscriptionWizardOf(member, request)).wizard, "billing");
}

export async function action({ request }: ActionFunctionArgs) {
  const form = await readMemberForm(request, purchaseRight(request));
  const { wizard } = await subscriptionWizardOf(form.member, request);
  return chooseWizardPayment(form, wizard, "billing", wizard.urlOf("review"));
}

export default function BillingStep() {
  const problem = useActionData<typeof action>()?.message;
  // The drawers keep the order's customer, so that they close back to this step of its draft.
  const customer = new URLSearchParams(useLocation().search).get("customer");
  return (
    <WizardBillingStep
      data={useLoaderData<typeof loader>()}
      problem={problem}
      nextLabel="Next: Order"
      drawerBase={subscriptionStepUrl("billing")}
      drawerSearch={customerSearch(customer)}
    />
  );
}

export const ErrorBoundary = PageErrorBoundary;
