import { Button } from "@mantine/core";
import { json, redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { Form, Outlet, useLoaderData, useMatches } from "@remix-run/react";
import { AuthenticityTokenInput } from "remix-utils/csrf/react";
import { STEP_TITLES, SUBSCRIPTION_STEPS, subscriptionStepUrl } from "~/domain/new-subscription";
import { requireUser } from "~/server/auth.server";
import { readUserForm } from "~/server/forms.server";
import { subscriptionWizard } from "~/server/new-subscription.server";
import { PageErrorBoundary } from "~/ui/page";
import { RouteDrawer } from "~/ui/route-dialogs";
import { WizardStepper } from "~/ui/wizard/stepper";

export const handle = { title: "Store" };

/** The new-subscription wizard (spec 000 §2): a drawer over the Store whose steps are child routes. */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  return json({ completed: subscriptionWizard.peek(user.id).data.completed });
}

/** Closing the wizard clears its draft. */
export async function action({ request }: ActionFunctionArgs) {
  const { user } = await readUserForm(request);
  subscriptionWizard.clear(user.id);
  return redirect("/store");
}

const STEP_LINKS = SUBSCRIPTION_STEPS.map((step) => ({ key: step, title: STEP_TITLES[step], to: subscriptionStepUrl(step) }));

export default function SubscriptionWizard() {
  const { completed } = useLoaderData<typeof loader>();
  const matches = useMatches();
  const current = SUBSCRIPTION_STEPS.find((step) => matches.some((match) => match.pathname.endsWith(`/subscribe/${step}`))) ?? "plan";
  return (
    // Closing posts (it clears the draft), so the drawer has no close link and its overlay does nothing.
    <RouteDrawer
      title="New Recurring License"
      headerAction={
        <Form method="post" action="/store/subscribe">
          <AuthenticityTokenInput name="csrf" />
          <Button type="submit" variant="default" size="xs">
            Close
          </Button>
        </Form>
      }
    >
      <WizardStepper label="Order steps" steps={STEP_LINKS} current={current} completed={completed} />
      <div className="gk-step-content">
        <Outlet />
      </div>
    </RouteDrawer>
  );
}

export const ErrorBoundary = PageErrorBoundary;
