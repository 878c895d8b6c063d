import { Anchor } from "~/ui/typography";
import { json, redirect, type ActionFunctionArgs, type LinksFunction, type LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import {
  HARDWARE_PURCHASE_FAILED,
  SEVEN_DAYS_NOTICE,
  TRIAL_MODAL_WIDTHS,
  TRIAL_WIZARD_TITLES,
  trialStepUrl,
  USE_THE_STORE,
} from "~/domain/trial-steps";
import { requireUser } from "~/server/auth.server";
import { readUserForm } from "~/server/forms.server";
import { retryWhenOpen, secondsUntilRetry } from "~/server/jobs/hub-provisioning.server";
import { jobProgress } from "~/server/jobs/progress.server";
import { trialOutcome } from "~/server/jobs/trial.server";
import { trialRun } from "~/server/wizards/trials.server";
import { LinkButton } from "~/ui/button";
import { Alert, Group, Stack } from "~/ui/layout";
import { PageErrorBoundary } from "~/ui/page";
import { RouteModal } from "~/ui/route-dialogs";
import { ContactSupport } from "~/ui/support-link";
import { FORM_STYLES } from "~/ui/stylesheets";
import { ACCESSIBLE_GREEN } from "~/ui/theme";
import { JobProgressPanel } from "~/ui/wizard/job-progress";

export const links: LinksFunction = () => FORM_STYLES;

/** A trial being built (spec 001 §2 "Order"): its progress list, the failure screens, and the finish. */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const { hubType, kind, stages } = trialRun(user.id, params.jobId ?? "");
  const { job, view } = jobProgress(user.id, params.jobId ?? "", kind, stages);
  const { hub, licenseId, hardware } = trialOutcome(job);
  return json({
    hubType,
    view,
    hub,
    licenseId,
    hardwareFailed: hardware?.status === "failed",
    hardwareOrdered: hardware?.status === "invoiced",
    // The cloud trial's Hub steps wait 30 s before Try again, as a deployment's do (decision 096).
    retryInSeconds: secondsUntilRetry(job),
  });
}

/** "Try again": the same trial from the step that stopped it; a license, a Hub or a charge is never made twice. */
export async function action({ request, params }: ActionFunctionArgs) {
  const { user } = await readUserForm(request);
  const { kind } = trialRun(user.id, params.jobId ?? "");
  retryWhenOpen(user.id, params.jobId ?? "", kind);
  return redirect(new URL(request.url).pathname);
}

export default function TrialProgress() {
  const { hubType, view, hub, licenseId, hardwareFailed, hardwareOrdered, retryInSeconds } =
    useLoaderData<typeof loader>();
  const running = view.status === "queued" || view.status === "running" || view.status === "needs_attention";
  return (
    <RouteModal
      title={TRIAL_WIZARD_TITLES[hubType]}
      closeTo={running ? undefined : "/home"}
      size={TRIAL_MODAL_WIDTHS[hubType]}
    >
      <Stack gap="md">
        {hardwareFailed ? (
          <Alert color="red" role="alert" title={HARDWARE_PURCHASE_FAILED}>
            {USE_THE_STORE}: <Anchor to="/store">Store</Anchor>.
          </Alert>
        ) : null}
        <JobProgressPanel
          view={view}
          label="Trial progress"
          retryInSeconds={retryInSeconds}
          runningText="Your trial is being built. You can leave this page: it goes on, and the trial is built only once."
          editTo={trialStepUrl(hubType, "review")}
          editLabel="Back to your trial's details"
          success={
            <>
              <Alert color={ACCESSIBLE_GREEN} role="status" title="Your GateKeeper Enterprise trial is ready!">
                {hub ? hub.url : "Install the On-Premise Hub, then upload your trial license to it."}
                {hardwareOrdered ? ` ${SEVEN_DAYS_NOTICE}` : ""}
              </Alert>
              <Group justify="flex-end">
                {hub ? (
                  // A plain link: the browser follows the redirect to the Hub itself (decision 070).
                  <LinkButton to={`/hubs/${hub.hubId}/sign-in`} reloadDocument>
                    Go to Hub
                  </LinkButton>
                ) : (
                  <>
                    <LinkButton to="/setup/onPremiseHub" variant="default">
                      On-Premise Hub setup
                    </LinkButton>
                    {licenseId ? (
                      <LinkButton to={`/licenses/${licenseId}/download`} reloadDocument>
                        Download Your Trial License
                      </LinkButton>
                    ) : null}
                  </>
                )}
              </Group>
            </>
          }
        />
        {view.status === "failed" ? (
          <ContactSupport>
            , or buy hardware in the <Anchor to="/store">Store</Anchor>
          </ContactSupport>
        ) : null}
      </Stack>
    </RouteModal>
  );
}

export const ErrorBoundary = PageErrorBoundary;
