import { redirect, type ActionFunctionArgs, type LinksFunction, type LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData, useNavigation } from "@remix-run/react";
import { UPDATE_STEPS, UPDATE_STEP_TITLES, updateBasePath, updateStepUrl } from "~/domain/license-update";
import { requireUser } from "~/server/auth.server";
import { readUserForm } from "~/server/forms.server";
import { licenseUpdateWizard, requireOwnLicense } from "~/server/wizards/license-update.server";
import { PageErrorBoundary } from "~/ui/page";
import { WizardLayout } from "~/ui/wizard/wizard-layout";
import { FORM_STYLES } from "~/ui/stylesheets";

export const links: LinksFunction = () => FORM_STYLES;

/** The update-license wizard (spec 000 §2): a drawer over the Licenses page whose steps are child routes. */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const subscriptionId = params.subscriptionId ?? "";
  const { license } = requireOwnLicense(user, subscriptionId);
  const segment = new URL(request.url).pathname.slice(updateBasePath(subscriptionId).length + 1).split("/")[0];
  const current = UPDATE_STEPS.find((step) => step === segment);
  if (!current) throw redirect(updateStepUrl(subscriptionId, "product"));
  const steps = UPDATE_STEPS.map((step) => ({
    key: step,
    title: UPDATE_STEP_TITLES[step],
    to: updateStepUrl(subscriptionId, step),
  }));
  return {
    current,
    steps,
    licenseName: license.name,
    closeAction: updateBasePath(subscriptionId),
    ...licenseUpdateWizard(subscriptionId).chrome(user.id, current),
  };
}

/** Closing the wizard clears its draft. */
export async function action({ request, params }: ActionFunctionArgs) {
  const { user } = await readUserForm(request);
  const subscriptionId = params.subscriptionId ?? "";
  requireOwnLicense(user, subscriptionId);
  licenseUpdateWizard(subscriptionId).clear(user.id);
  return redirect("/licenses");
}

export default function LicenseUpdateWizard() {
  const { current, steps, licenseName, closeAction, reachable, notices } = useLoaderData<typeof loader>();
  const navigation = useNavigation();
  // With JavaScript, the spec's words while the next step's loader asks the billing provider.
  const target = navigation.state === "loading" ? navigation.location.pathname : "";
  const pending = target.endsWith("/update/review")
    ? "Generating your order..."
    : target.endsWith("/update/product")
      ? "Loading subscription data..."
      : null;
  return (
    <WizardLayout
      title={`Update Recurring License: ${licenseName}`}
      stepsLabel="Update steps"
      steps={steps}
      current={current}
      reachable={reachable}
      notices={notices}
      closeAction={closeAction}
      pending={pending}
    />
  );
}

export const ErrorBoundary = PageErrorBoundary;
