import { redirect, type ActionFunctionArgs, type LinksFunction, type LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import {
  TRIAL_MODAL_WIDTHS,
  TRIAL_STEP_TITLES,
  TRIAL_STEPS_BY_TYPE,
  TRIAL_WIZARD_TITLES,
  trialPath,
  trialStepUrl,
} from "~/domain/trial-steps";
import { requireUser } from "~/server/auth.server";
import { readUserForm } from "~/server/forms.server";
import { trialWizardFor } from "~/server/wizards/trials.server";
import { PageErrorBoundary } from "~/ui/page";
import { WizardLayout } from "~/ui/wizard/wizard-layout";
import { FORM_STYLES } from "~/ui/stylesheets";

export const links: LinksFunction = () => FORM_STYLES;

/** The trial wizards (spec 001 §2): a modal whose steps are child routes, for users who may start a trial. */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const { hubType, wizard } = trialWizardFor(user, params.hubType);
  const segment = new URL(request.url).pathname.slice(trialPath(hubType).length + 1).split("/")[0];
  const current = TRIAL_STEPS_BY_TYPE[hubType].find((step) => step === segment);
  if (!current) throw redirect(trialStepUrl(hubType, "welcome"));
  return { hubType, current, ...wizard.chrome(user.id, current) };
}

/** Closing the wizard clears the form (spec 001 §2), the sealed password with it. */
export async function action({ request, params }: ActionFunctionArgs) {
  const { user } = await readUserForm(request);
  trialWizardFor(user, params.hubType).wizard.clear(user.id);
  return redirect("/trial");
}

export default function TrialWizard() {
  const { hubType, current, reachable, notices } = useLoaderData<typeof loader>();
  return (
    <WizardLayout
      title={TRIAL_WIZARD_TITLES[hubType]}
      stepsLabel="Trial steps"
      steps={TRIAL_STEPS_BY_TYPE[hubType].map((step) => ({
        key: step,
        title: TRIAL_STEP_TITLES[step],
        to: trialStepUrl(hubType, step),
      }))}
      current={current}
      reachable={reachable}
      notices={notices}
      closeAction={trialPath(hubType)}
      modalSize={TRIAL_MODAL_WIDTHS[hubType]}
    />
  );
}

export const ErrorBoundary = PageErrorBoundary;
