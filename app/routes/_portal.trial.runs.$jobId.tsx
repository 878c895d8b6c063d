import { Anchor } from "~/ui/typography";
import type { ActionFunctionArgs, LinksFunction, LoaderFunctionArgs } from "@remix-run/node";
import { Outlet, useLoaderData, useParams } from "@remix-run/react";
import {
  HARDWARE_PURCHASE_FAILED,
  SEVEN_DAYS_NOTICE,
  TRIAL_MODAL_WIDTHS,
  TRIAL_WIZARD_TITLES,
  trialStepUrl,
  USE_THE_STORE,
} from "~/domain/trial-steps";
import { trialProgress } from "~/server/progress-pages.server";
import { ChooseAnotherCard } from "~/ui/billing/payment-step";
import { LinkButton } from "~/ui/button";
import { Alert, Group } from "~/ui/layout";
import { PageErrorBoundary } from "~/ui/page";
import { ContactSupport } from "~/ui/support-link";
import { FORM_STYLES } from "~/ui/stylesheets";
import { ACCESSIBLE_GREEN } from "~/ui/theme";
import { JobProgressPage } from "~/ui/wizard/job-progress";

export const links: LinksFunction = () => FORM_STYLES;

/**
 * A trial being built: its progress list, the failure screens, and the finish. "Try again" resumes at the
 * step that stopped it; a license, a Hub or a charge is never made twice. While the hardware's charge waits for the
 * cardholder's bank, the page sends them there and offers 'Choose another card'.
 */
export const loader = (args: LoaderFunctionArgs) => trialProgress.loader(args);
export const action = (args: ActionFunctionArgs) => trialProgress.action(args);

export default function TrialProgress() {
  const { hubType, customerId, view, hub, licenseId, hardwareFailed, hardwareOrdered, retryInSeconds, cards } =
    useLoaderData<typeof loader>();
  const here = `/trial/runs/${encodeURIComponent(useParams().jobId ?? "")}`;
  return (
    <JobProgressPage
      title={TRIAL_WIZARD_TITLES[hubType]}
      closeTo="/home"
      size={TRIAL_MODAL_WIDTHS[hubType]}
      view={view}
      label="Trial progress"
      retryInSeconds={retryInSeconds}
      runningText="Your trial is being built. You can leave this page: it goes on, and the trial is built only once."
      editTo={trialStepUrl(hubType, "review", customerId)}
      editLabel="Back to your trial's details"
      above={
        hardwareFailed ? (
          <Alert color="red" role="alert" title={HARDWARE_PURCHASE_FAILED}>
            {USE_THE_STORE}: <Anchor to="/store">Store</Anchor>.
          </Alert>
        ) : null
      }
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
      waitingChoices={<ChooseAnotherCard cards={cards} drawerBase={here} />}
      below={
        view.status === "failed" ? (
          <ContactSupport>
            , or buy hardware in the <Anchor to="/store">Store</Anchor>
          </ContactSupport>
        ) : (
          <Outlet />
        )
      }
    />
  );
}

export const ErrorBoundary = PageErrorBoundary;
