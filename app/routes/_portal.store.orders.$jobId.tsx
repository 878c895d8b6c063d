import type { ActionFunctionArgs, LinksFunction, LoaderFunctionArgs } from "@remix-run/node";
import { Outlet, useLoaderData, useParams } from "@remix-run/react";
import type { OrderNextStep } from "~/domain/subscription";
import { orderProgress } from "~/server/progress-pages.server";
import { ChooseAnotherCard } from "~/ui/billing/payment-step";
import { LinkButton } from "~/ui/button";
import { Alert, Group } from "~/ui/layout";
import { PageErrorBoundary } from "~/ui/page";
import { ACCESSIBLE_GREEN } from "~/ui/theme";
import { FORM_STYLES } from "~/ui/stylesheets";
import { JobProgressPage } from "~/ui/wizard/job-progress";

export const links: LinksFunction = () => FORM_STYLES;

/**
 * A placed order's progress; "Try again" continues the same order from where it stopped, never a new one. While its
 * charge waits for the cardholder's bank, the page sends them there, and offers their cards (with the card drawers
 * mounted under it) for 'Choose another card'.
 */
export const loader = (args: LoaderFunctionArgs) => orderProgress.loader(args);
export const action = (args: ActionFunctionArgs) => orderProgress.action(args);

export default function OrderProgress() {
  const { view, next, deployTo, editTo, customerTo, cards } = useLoaderData<typeof loader>();
  const here = `/store/orders/${encodeURIComponent(useParams().jobId ?? "")}`;
  return (
    <JobProgressPage
      title="Create Recurring License"
      closeTo="/store"
      view={view}
      label="Order progress"
      runningText="Your order is being placed. You can leave this page: it goes on, and is placed only once."
      editTo={editTo}
      editLabel="Back to your order"
      success={<OrderSucceeded next={next} deployTo={deployTo} customerTo={customerTo} />}
      waitingChoices={<ChooseAnotherCard cards={cards} drawerBase={here} />}
      below={<Outlet />}
    />
  );
}

function OrderSucceeded({
  next,
  deployTo,
  customerTo,
}: {
  next: OrderNextStep;
  deployTo: string;
  /** The end customer's page, for a license a distributor bought for one. */
  customerTo: string | null;
}) {
  return (
    <>
      <Alert
        color={ACCESSIBLE_GREEN}
        role="status"
        title="Successfully created your GateKeeper Enterprise recurring license!"
      >
        Your license is ready on the Licenses page.
      </Alert>
      <Group justify="flex-end">
        {customerTo ? (
          <LinkButton to={customerTo} variant="default">
            Go to the customer&apos;s page
          </LinkButton>
        ) : null}
        {next === "continue-cloud-deployment" ? (
          <LinkButton to={deployTo}>Continue GateKeeper Hub Cloud Deployment</LinkButton>
        ) : next === "deploy-cloud-hub" ? (
          <>
            <LinkButton to="/licenses" variant="default">
              I&apos;ll deploy later
            </LinkButton>
            <LinkButton to={deployTo}>Deploy New GateKeeper Cloud Hub</LinkButton>
          </>
        ) : (
          <LinkButton to="/licenses">Go to Licenses page to download new license</LinkButton>
        )}
      </Group>
    </>
  );
}

export const ErrorBoundary = PageErrorBoundary;
