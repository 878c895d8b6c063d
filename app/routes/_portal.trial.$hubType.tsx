import type { ActionFunctionArgs, LinksFunction, LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { TRIAL_MODAL_WIDTHS, TRIAL_WIZARD_TITLES } from "~/domain/trial-steps";
import { trialWizardLayout } from "~/server/trials/trial-wizard.server";
import { PageErrorBoundary } from "~/ui/page";
import { WizardLayout } from "~/ui/wizard/wizard-layout";
import { FORM_STYLES } from "~/ui/stylesheets";

export const links: LinksFunction = () => FORM_STYLES;

/**
 * The trial wizards: a modal whose steps are child routes, for users who may start a trial. Close clears
 * the form, so a trial opened again starts empty, and the sealed password with it.
 */
export const loader = (args: LoaderFunctionArgs) => trialWizardLayout.loader(args);
export const action = (args: ActionFunctionArgs) => trialWizardLayout.action(args);

export default function TrialWizard() {
  const { hubType, customerName, ...chrome } = useLoaderData<typeof loader>();
  return (
    <WizardLayout
      title={customerName ? `${TRIAL_WIZARD_TITLES[hubType]} for ${customerName}` : TRIAL_WIZARD_TITLES[hubType]}
      stepsLabel="Trial steps"
      modalSize={TRIAL_MODAL_WIDTHS[hubType]}
      {...chrome}
    />
  );
}

export const ErrorBoundary = PageErrorBoundary;
