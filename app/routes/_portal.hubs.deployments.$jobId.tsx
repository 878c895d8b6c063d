import { json, redirect, type ActionFunctionArgs, type LinksFunction, type LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { cloudHubStepUrl } from "~/domain/cloud-hub-steps";
import { requireUser } from "~/server/auth.server";
import { readUserForm } from "~/server/forms.server";
import { cloudHubDeployment, DEPLOYMENT_STAGES } from "~/server/jobs/cloud-hub.server";
import { recordedHubOf, retryWhenOpen, secondsUntilRetry } from "~/server/jobs/hub-provisioning.server";
import { jobProgress } from "~/server/jobs/progress.server";
import { LinkButton } from "~/ui/button";
import { Alert, Group, Stack } from "~/ui/layout";
import { PageErrorBoundary } from "~/ui/page";
import { RouteModal } from "~/ui/route-dialogs";
import { ContactSupport } from "~/ui/support-link";
import { ACCESSIBLE_GREEN } from "~/ui/theme";
import { FORM_STYLES } from "~/ui/stylesheets";
import { JobProgressPanel } from "~/ui/wizard/job-progress";

export const links: LinksFunction = () => FORM_STYLES;

export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const { job, view } = jobProgress(user.id, params.jobId ?? "", cloudHubDeployment, DEPLOYMENT_STAGES);
  const hub = recordedHubOf(job.result);
  return json({
    view,
    hub,
    failedAtCreation: job.error?.step === "create-tenant",
    retryInSeconds: secondsUntilRetry(job),
  });
}

/** "Try again": the same deployment from the step that stopped it; a Hub already made is never made twice. */
export async function action({ request, params }: ActionFunctionArgs) {
  const { user } = await readUserForm(request);
  retryWhenOpen(user.id, params.jobId ?? "", cloudHubDeployment);
  return redirect(new URL(request.url).pathname);
}

const CHECKING = {
  title: "Checking your Hub",
  text: "We could not confirm whether the Hub service finished the last step. Before it is repeated we ask the service what happened; this page follows it.",
};

export default function DeploymentProgress() {
  const { view, hub, failedAtCreation, retryInSeconds } = useLoaderData<typeof loader>();
  const running = view.status === "queued" || view.status === "running" || view.status === "needs_attention";
  return (
    <RouteModal title="Create New Cloud GateKeeper Hub Deployment" closeTo={running ? undefined : "/hubs"}>
      <Stack gap="md">
        <JobProgressPanel
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
        />
        {failedAtCreation ? <ContactSupport /> : null}
      </Stack>
    </RouteModal>
  );
}

export const ErrorBoundary = PageErrorBoundary;
