import type { ActionFunctionArgs, LinksFunction, LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { cloudHubWizardLayout } from "~/server/cloud-hubs/cloud-hub-wizard.server";
import { PageErrorBoundary } from "~/ui/page";
import { WizardLayout } from "~/ui/wizard/wizard-layout";
import { FORM_STYLES } from "~/ui/stylesheets";

export const links: LinksFunction = () => FORM_STYLES;

/** The create-cloud-Hub drawer is 900 pixels wide, narrower than the payment drawers' default. */
const CLOUD_HUB_DRAWER_WIDTH = 900;

/** The create-cloud-Hub wizard: a drawer over the Hubs page whose steps are child routes; Close clears its draft. */
export const loader = (args: LoaderFunctionArgs) => cloudHubWizardLayout.loader(args);
export const action = (args: ActionFunctionArgs) => cloudHubWizardLayout.action(args);

export default function CloudHubWizard() {
  const chrome = useLoaderData<typeof loader>();
  return (
    <WizardLayout
      title="Create New Cloud GateKeeper Hub Deployment"
      stepsLabel="Deployment steps"
      width={CLOUD_HUB_DRAWER_WIDTH}
      {...chrome}
    />
  );
}

export const ErrorBoundary = PageErrorBoundary;
