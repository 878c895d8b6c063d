import type { ActionFunctionArgs, LinksFunction, LoaderFunctionArgs } from "@remix-run/node";
import { Outlet, useLoaderData, useParams } from "@remix-run/react";
import { updateProgress } from "~/server/progress-pages.server";
import { ChooseAnotherCard } from "~/ui/billing/payment-step";
import { LinkButton } from "~/ui/button";
import { Alert, Group } from "~/ui/layout";
import { PageErrorBoundary } from "~/ui/page";
import { FORM_STYLES } from "~/ui/stylesheets";
import { ACCESSIBLE_GREEN } from "~/ui/theme";
import { JobProgressPage } from "~/ui/wizard/job-progress";

export const links: LinksFunction = () => FORM_STYLES;

/**
 * An update's progress; "Try again" continues the same update from where it stopped, never a second one. While its
 * charge waits for the cardholder's bank, the page sends them there and offers 'Choose another card'.
 */
export const loader = (args: LoaderFunctionArgs) => updateProgress.loader(args);
export const action = (args: ActionFunctionArgs) => updateProgress.action(args);

export default function UpdateProgress() {
  const { view, licenseName, reviewUrl, cards } = useLoaderData<typeof loader>();
  const here = `/licenses/updates/${encodeURIComponent(useParams().jobId ?? "")}`;
  return (
    <JobProgressPage
      title="Update Recurring License"
      closeTo="/licenses"
      view={view}
      label="Update progress"
      runningText="Your recurring license is being updated. You can leave this page: it goes on, and is charged only once."
      editTo={reviewUrl}
      editLabel="Back to your order"
      success={
        <>
          <Alert
            color={ACCESSIBLE_GREEN}
            role="status"
            title={`Successfully updated your ${licenseName} Recurring License!`}
          >
            Download the updated license file on the Licenses page and upload it to your Hub.
          </Alert>
          <Group justify="flex-end">
            <LinkButton to="/licenses">Close</LinkButton>
          </Group>
        </>
      }
      waitingChoices={<ChooseAnotherCard cards={cards} drawerBase={here} />}
      below={<Outlet />}
    />
  );
}

export const ErrorBoundary = PageErrorBoundary;
