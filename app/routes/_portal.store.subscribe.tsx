import { redirect, type ActionFunctionArgs, type LinksFunction, type LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { STEP_TITLES, SUBSCRIBE_PATH, SUBSCRIPTION_STEPS, subscriptionStepUrl } from "~/domain/subscription-steps";
import { requireUser } from "~/server/auth.server";
import { readUserForm } from "~/server/forms.server";
import { subscriptionWizard } from "~/server/wizards/new-subscription.server";
import { PageErrorBoundary } from "~/ui/page";
import { WizardLayout } from "~/ui/wizard/wizard-layout";
import { FORM_STYLES } from "~/ui/stylesheets";

export const links: LinksFunction = () => FORM_STYLES;

export const handle = { title: "Store" };

const STEP_LINKS = SUBSCRIPTION_STEPS.map((step) => ({
  key: step,
  title: STEP_TITLES[step],
  to: subscriptionStepUrl(step),
}));

/** The new-subscription wizard (spec 000 §2): a drawer over the Store whose steps are child routes. */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const segment = new URL(request.url).pathname.slice(SUBSCRIBE_PATH.length + 1).split("/")[0];
  const current = SUBSCRIPTION_STEPS.find((step) => step === segment) ?? "plan";
  return { current, ...subscriptionWizard.chrome(user.id, current) };
}

/** Closing the wizard clears its draft. */
export async function action({ request }: ActionFunctionArgs) {
  const { user } = await readUserForm(request);
  subscriptionWizard.clear(user.id);
  return redirect("/store");
}

export default function SubscriptionWizard() {
  const { current, reachable, notices } = useLoaderData<typeof loader>();
  return (
    <WizardLayout
      title="New Recurring License"
      stepsLabel="Order steps"
      steps={STEP_LINKS}
      current={current}
      reachable={reachable}
      notices={notices}
      closeAction={SUBSCRIBE_PATH}
    />
  );
}

export const ErrorBoundary = PageErrorBoundary;
