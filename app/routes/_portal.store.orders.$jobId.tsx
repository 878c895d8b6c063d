import { json, redirect, type ActionFunctionArgs, type LinksFunction, type LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { orderNextStep } from "~/domain/subscription";
import { requireUser } from "~/server/auth.server";
import { readUserForm } from "~/server/forms.server";
import { newSubscriptionOrder } from "~/server/jobs/new-subscription.server";
import { jobProgress, retryFromProgress } from "~/server/jobs/progress.server";
import { LinkButton } from "~/ui/button";
import { Alert, Group, Stack } from "~/ui/layout";
import { PageErrorBoundary } from "~/ui/page";
import { RouteModal } from "~/ui/route-dialogs";
import { ACCESSIBLE_GREEN } from "~/ui/theme";
import { FORM_STYLES } from "~/ui/stylesheets";
import { JobProgressPanel } from "~/ui/wizard/job-progress";

export const links: LinksFunction = () => FORM_STYLES;

/** The spec's progress: 'Create Recurring License', then Finish. */
const STAGES = [
  { title: "Create Recurring License", steps: ["create-subscription", "create-license"] },
  { title: "Finish", steps: ["clear-draft"] },
];

export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const { job, view } = jobProgress(user.id, params.jobId ?? "", newSubscriptionOrder, STAGES);
  const input = newSubscriptionOrder.input.safeParse(job.input);
  const license = (job.result?.["create-license"] as { licenseId?: string } | undefined)?.licenseId;
  // From the Hubs page, the deployment wizard opens with the new license chosen.
  const deployTo =
    license && input.success && input.data.origin === "cloud-hubs"
      ? `/hubs/new/url?license=${encodeURIComponent(license)}`
      : "/hubs/new/url";
  return json({ view, next: input.success ? orderNextStep(input.data) : "download-license", deployTo });
}

/** "Try again": the same order from where it stopped, never a new one. */
export async function action({ request, params }: ActionFunctionArgs) {
  const { user } = await readUserForm(request);
  retryFromProgress(user.id, params.jobId ?? "", newSubscriptionOrder);
  return redirect(new URL(request.url).pathname);
}

export default function OrderProgress() {
  const { view, next, deployTo } = useLoaderData<typeof loader>();
  const running = view.status === "queued" || view.status === "running" || view.status === "needs_attention";
  return (
    // No close while the order runs: it would look like cancelling, which it is not.
    <RouteModal title="Create Recurring License" closeTo={running ? undefined : "/store"}>
      <Stack gap="md">
        <JobProgressPanel
          view={view}
          label="Order progress"
          runningText="Your order is being placed. You can leave this page: it goes on, and is placed only once."
          editTo="/store/subscribe/order"
          editLabel="Back to your order"
          success={<OrderSucceeded next={next} deployTo={deployTo} />}
        />
      </Stack>
    </RouteModal>
  );
}

function OrderSucceeded({ next, deployTo }: { next: ReturnType<typeof orderNextStep>; deployTo: string }) {
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
