import type { ActionFunctionArgs, LinksFunction, LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { subscriptionWizardLayout } from "~/server/orders/new-subscription-wizard.server";
import { PageErrorBoundary } from "~/ui/page";
import { WizardLayout } from "~/ui/wizard/wizard-layout";
import { FORM_STYLES } from "~/ui/stylesheets";

export const links: LinksFunction = () => FORM_STYLES;

export const handle = { title: "Store" };

/** The new-subscription wizard: a drawer over the Store whose steps are child routes; Close clears its draft. */
export const loader = (args: LoaderFunctionArgs) => subscriptionWizardLayout.loader(args);
export const action = (args: ActionFunctionArgs) => subscriptionWizardLayout.action(args);

export default function SubscriptionWizard() {
  const chrome = useLoaderData<typeof loader>();
  return <WizardLayout title="New Recurring License" stepsLabel="Order steps" {...chrome} />;
}

export const ErrorBoundary = PageErrorBoundary;
