import type { ActionFunctionArgs, LinksFunction, LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData, useNavigation } from "@remix-run/react";
import { licenseUpdateWizardLayout } from "~/server/orders/license-update-wizard.server";
import { PageErrorBoundary } from "~/ui/page";
import { WizardLayout } from "~/ui/wizard/wizard-layout";
import { FORM_STYLES } from "~/ui/stylesheets";

export const links: LinksFunction = () => FORM_STYLES;

/** The update-license wizard: a drawer over the Licenses page whose steps are child routes; Close clears its draft. */
export const loader = (args: LoaderFunctionArgs) => licenseUpdateWizardLayout.loader(args);
export const action = (args: ActionFunctionArgs) => licenseUpdateWizardLayout.action(args);

export default function LicenseUpdateWizard() {
  const { licenseName, ...chrome } = useLoaderData<typeof loader>();
  const navigation = useNavigation();
  // With JavaScript, what the drawer says while the next step's loader asks the billing provider (it takes a moment).
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
      pending={pending}
      {...chrome}
    />
  );
}

export const ErrorBoundary = PageErrorBoundary;
