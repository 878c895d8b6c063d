import { json, redirect, type ActionFunctionArgs, type LinksFunction, type LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { updateStepUrl } from "~/domain/license-update";
import { requireUser } from "~/server/auth.server";
import { readUserForm } from "~/server/forms.server";
import { licenseUpdate } from "~/server/jobs/license-update.server";
import { jobProgress, retryFromProgress } from "~/server/jobs/progress.server";
import { LinkButton } from "~/ui/button";
import { Alert, Group } from "~/ui/layout";
import { PageErrorBoundary } from "~/ui/page";
import { RouteModal } from "~/ui/route-dialogs";
import { FORM_STYLES } from "~/ui/stylesheets";
import { ACCESSIBLE_GREEN } from "~/ui/theme";
import { JobProgressPanel } from "~/ui/wizard/job-progress";

export const links: LinksFunction = () => FORM_STYLES;

/** The spec's progress: 'Update Recurring License', then Finish. */
const STAGES = [
  { title: "Update Recurring License", steps: ["override-billing-profile", "update-subscription", "update-license"] },
  { title: "Finish", steps: ["clear-draft"] },
];

export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const { job, view } = jobProgress(user.id, params.jobId ?? "", licenseUpdate, STAGES);
  const input = licenseUpdate.input.parse(job.input);
  return json({
    view,
    licenseName: input.licenseName,
    reviewUrl: updateStepUrl(input.request.subscriptionId, "review"),
  });
}

/** "Try again": the same update from where it stopped, never a second one. */
export async function action({ request, params }: ActionFunctionArgs) {
  const { user } = await readUserForm(request);
  retryFromProgress(user.id, params.jobId ?? "", licenseUpdate);
  return redirect(new URL(request.url).pathname);
}

export default function UpdateProgress() {
  const { view, licenseName, reviewUrl } = useLoaderData<typeof loader>();
  const running = view.status === "queued" || view.status === "running" || view.status === "needs_attention";
  return (
    <RouteModal title="Update Recurring License" closeTo={running ? undefined : "/licenses"}>
      <JobProgressPanel
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
      />
    </RouteModal>
  );
}

export const ErrorBoundary = PageErrorBoundary;
