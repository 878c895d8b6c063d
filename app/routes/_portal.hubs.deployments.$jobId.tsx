import type { ActionFunctionArgs, LinksFunction, LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { cloudHubStepUrl } from "~/domain/cloud-hub-steps";
import { deploymentProgress } from "~/server/progress-pages.server";
import { LinkButton } from "~/ui/button";
import { Alert, Group } from "~/ui/layout";
import { PageErrorBoundary } from "~/ui/page";
import { ContactSupport } from "~/ui/support-link";
import { ACCESSIBLE_GREEN } from "~/ui/theme";
import { FORM_STYLES } from "~/ui/stylesheets";
import { JobProgressPage } from "~/ui/wizard/job-progress";

export const links: LinksFunction = () => FORM_STYLES;

/** A deployment's progress; "Try again" resumes at the step that stopped it, and a Hub is never made twice. */
export const loader = (args: LoaderFunctionArgs) => deploymentProgress.loader(args);
export const action = (args: ActionFunctionArgs) => deploymentProgress.action(args);

const CHECKING = {
  title: "Checking your Hub",
  text: "We could not confirm whether the Hub service finished the last step. Before it is repeated we ask the service what happened; this page follows it.",
};

export default function DeploymentProgress() {
  const { view, hub, failedAtCreation, retryInSeconds } = useLoaderData<typeof loader>();
  return (
    <JobProgressPage
      title="Create New Cloud GateKeeper Hub Deployment"
      closeTo="/hubs"
      view={view}
      label="Deployment progress"
      runningText="Your GateKeeper Cloud Hub is being created. You can leave this page: it goes on, and the Hub is created only once."
      editTo={cloudHubStepUrl("review")}
      editLabel="Back to your Hub's details"
      checking={CHECKING}
      retryInSeconds={retryInSeconds}
      success={
        hub ? (
          <>
            <Alert color={ACCESSIBLE_GREEN} role="status" title="Your GateKeeper Cloud Hub is ready!">
              {hub.url}
            </Alert>
            <Group justify="flex-end">
              <LinkButton to="/hubs" variant="default">
                Back to Hub Deployments
              </LinkButton>
              {/* A plain link: the browser follows the redirect to the Hub itself. */}
              <LinkButton to={`/hubs/${hub.hubId}/sign-in`} reloadDocument>
                Go to Hub
              </LinkButton>
            </Group>
          </>
        ) : null
      }
      below={failedAtCreation ? <ContactSupport /> : null}
    />
  );
}

export const ErrorBoundary = PageErrorBoundary;
