import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { useActionData, useLoaderData, useParams } from "@remix-run/react";
import { updateStepUrl } from "~/domain/license-update";
import { readMemberForm, requireMember } from "~/server/accounts/access.server";
import { licenseUpdateWizard, requireOwnLicense } from "~/server/orders/license-update-wizard.server";
import { chooseWizardPayment, wizardPaymentStep } from "~/server/orders/payment-step.server";
import { PageErrorBoundary } from "~/ui/page";
import { WizardBillingStep } from "~/ui/wizard/billing-step";

export async function loader({ request, params }: LoaderFunctionArgs) {
  const member = await requireMember(request, "licenses.update");
  const subscriptionId = params.subscriptionId ?? "";
  await requireOwnLicense(member, subscriptionId);
  return wizardPaymentStep(member, licenseUpdateWizard(subscriptionId), "billing");
}

export async function action({ request, params }: ActionFunctionArgs) {
  const form = await readMemberForm(request, "licenses.update");
  const subscriptionId = params.subscriptionId ?? "";
  await requireOwnLicense(form.member, subscriptionId);
  return chooseWizardPayment(
    form,
    licenseUpdateWizard(subscriptionId),
    "billing",
    updateStepUrl(subscriptionId, "product"),
  );
}

export default function BillingStep() {
  const problem = useActionData<typeof action>()?.message;
  const drawerBase = updateStepUrl(useParams().subscriptionId ?? "", "billing");
  return (
    <WizardBillingStep
      data={useLoaderData<typeof loader>()}
      problem={problem}
      nextLabel="Next: Review & Order"
      drawerBase={drawerBase}
    />
  );
}

export const ErrorBoundary = PageErrorBoundary;
