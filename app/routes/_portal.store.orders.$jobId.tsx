import { Alert, Button, Group, Stack, Text } from "@mantine/core";
import { json, type LoaderFunctionArgs } from "@remix-run/node";
import { Link, useLoaderData, useRevalidator } from "@remix-run/react";
import { useEffect } from "react";
import { orderNextStep, type Hosting } from "~/domain/subscription";
import { requireUser } from "~/server/auth.server";
import { findOwnedJob } from "~/server/jobs.server";
import { ORDER_JOB } from "~/server/new-subscription.server";
import { PageErrorBoundary } from "~/ui/page";
import { RouteModal } from "~/ui/route-dialogs";
import { ACCESSIBLE_GREEN } from "~/ui/theme";
import { JobProgress, type ProgressState } from "~/ui/wizard/job-progress";

export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const job = findOwnedJob(user.id, params.jobId ?? "");
  if (!job || job.kind !== ORDER_JOB) throw json({ message: "There is no such order." }, { status: 404 });
  const created = job.steps["create-subscription"];
  const subscriptionState: ProgressState =
    created?.status === "done" ? "done" : created?.status === "failed" ? "failed" : job.status === "failed" ? "failed" : "running";
  return json({
    status: job.status,
    error: job.error,
    steps: [
      { title: "Create Recurring License", state: job.status === "succeeded" ? "done" : subscriptionState },
      { title: "Finish", state: job.status === "succeeded" ? "done" : "waiting" },
    ] satisfies { title: string; state: ProgressState }[],
    next: orderNextStep({
      origin: (job.input.origin as string | null) ?? null,
      hosting: job.input.hosting as Hosting,
      offsiteAccess: Boolean(job.input.offsiteAccess),
    }),
  });
}

/** While the order runs, the page follows it: polling with JavaScript, a meta refresh without. */
function useFollowWhileRunning(running: boolean) {
  const revalidator = useRevalidator();
  useEffect(() => {
    if (!running) return;
    const timer = setInterval(() => {
      if (revalidator.state === "idle") revalidator.revalidate();
    }, 1000);
    return () => clearInterval(timer);
  }, [running, revalidator]);
}

export default function OrderProgress() {
  const { status, error, steps, next } = useLoaderData<typeof loader>();
  const running = status === "queued" || status === "running";
  useFollowWhileRunning(running);
  return (
    // No close while the order runs: it would look like cancelling, which it is not.
    <RouteModal title="Create Recurring License" closeTo={running ? undefined : "/store"}>
      {running ? (
        <noscript>
          <meta httpEquiv="refresh" content="2" />
        </noscript>
      ) : null}
      <Stack gap="md">
        <JobProgress steps={steps} label="Order progress" />
        {running ? (
          <Text size="sm" role="status">
            Your order is being placed. You can leave this page: it goes on, and is placed only once.
          </Text>
        ) : null}
        {status === "succeeded" ? <OrderSucceeded next={next} /> : null}
        {status === "failed" && error ? (
          <>
            <Alert color="red" role="alert" title={error.title}>
              {error.message}
            </Alert>
            <Group justify="flex-end">
              <Button component={Link} to="/store/subscribe/order">
                Back to your order
              </Button>
            </Group>
          </>
        ) : null}
      </Stack>
    </RouteModal>
  );
}

function OrderSucceeded({ next }: { next: ReturnType<typeof orderNextStep> }) {
  return (
    <>
      <Alert color={ACCESSIBLE_GREEN} role="status" title="Successfully created your GateKeeper Enterprise recurring license!">
        Your license is ready on the Licenses page.
      </Alert>
      <Group justify="flex-end">
        {next === "continue-cloud-deployment" ? (
          <Button component={Link} to="/hubs?new=true">
            Continue GateKeeper Hub Cloud Deployment
          </Button>
        ) : next === "deploy-cloud-hub" ? (
          <>
            <Button component={Link} to="/licenses" variant="default">
              I&apos;ll deploy later
            </Button>
            <Button component={Link} to="/hubs?new=true">
              Deploy New GateKeeper Cloud Hub
            </Button>
          </>
        ) : (
          <Button component={Link} to="/licenses">
            Go to Licenses page to download new license
          </Button>
        )}
      </Group>
    </>
  );
}

export const ErrorBoundary = PageErrorBoundary;
