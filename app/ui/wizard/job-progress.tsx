import { List, ThemeIcon } from "~/ui/list";
import { Text } from "~/ui/typography";
import { Form, useRevalidator } from "@remix-run/react";
import { useEffect, type ReactNode } from "react";
import { AuthenticityTokenInput } from "remix-utils/csrf/react";
import type { JobStatusName, ProgressStage, ProgressState } from "~/domain/jobs";
import { Button, LinkButton } from "~/ui/button";
import type { ThemeColor } from "~/ui/plain-parts";
import { Alert, Group, Stack } from "~/ui/layout";
import { RouteModal } from "../route-dialogs";
import { ACCESSIBLE_GREEN } from "../theme";

/** A durable job's stages as a vertical list the user can follow, each marked done, running, waiting or failed. */
export function JobProgress({ steps, label }: { steps: ProgressStage[]; label: string }) {
  const icon: Record<ProgressState, { mark: string; color: ThemeColor; words: string }> = {
    done: { mark: "✓", color: ACCESSIBLE_GREEN, words: "done" },
    running: { mark: "…", color: "gatekeeper.7", words: "in progress" },
    waiting: { mark: "•", color: "gray.6", words: "waiting" },
    failed: { mark: "✗", color: "red.9", words: "failed" },
  };
  return (
    <List spacing="sm" center aria-label={label}>
      {steps.map((step) => (
        <List.Item
          key={step.title}
          data-state={step.state}
          icon={
            <ThemeIcon size={22} color={icon[step.state].color} aria-hidden="true">
              {icon[step.state].mark}
            </ThemeIcon>
          }
        >
          {step.title}
          <span className="gk-visually-hidden"> ({icon[step.state].words})</span>
        </List.Item>
      ))}
    </List>
  );
}

/** A retry that opens later: the page loads itself again then (a timer with JavaScript, a meta refresh without). */
function useReloadAfter(seconds: number) {
  const revalidator = useRevalidator();
  useEffect(() => {
    if (seconds <= 0) return;
    const timer = setTimeout(() => revalidator.revalidate(), seconds * 1000);
    return () => clearTimeout(timer);
    // revalidator changes identity with its state; the timer is only about when the retry opens.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [seconds]);
}

/** While the job runs, the page follows it: polling with JavaScript, a meta refresh without. */
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

export const CHECKING_OUTCOME =
  "We could not confirm whether your payment went through. Before anything is charged again we ask the billing provider what happened; this page follows it.";

/** A job's progress as its page's loader gives it (app/server/platform/jobs/progress.server). */
export interface JobProgressView {
  status: JobStatusName;
  error: { title: string; message: string } | null;
  stages: ProgressStage[];
  /** Not finished yet: the page follows it. */
  running: boolean;
  canEdit: boolean;
  /** A job waiting for the cardholder: their bank's page, and why the last authentication did not pass. */
  waiting?: { redirectUrl: string; message: string | null } | null;
  /** Why this member may not try again (their role), or null. */
  retryRefused?: string | null;
}

interface JobProgressPanelProps {
  view: JobProgressView;
  label: string;
  runningText: string;
  editTo: string;
  editLabel: string;
  success: ReactNode;
  /** What an unknown outcome says while it is asked about (the order's payment by default). */
  checking?: { title: string; text: string };
  /** 'Try again' opens only this many seconds from now (the server refuses it before, too). */
  retryInSeconds?: number;
  /** What a job waiting for the cardholder offers instead of their bank's page (another card). */
  waitingChoices?: ReactNode;
}

export const WAITING_FOR_CARDHOLDER = "Your bank asks you to confirm this payment";
export const NOTHING_CHARGED_YET =
  "Nothing has been charged. Confirm the payment on your bank's page, or choose another card.";

/**
 * The body of every job's progress page: the stages, and by status what the customer reads and can do.
 * A job that stopped is retried as the same job ("Try again", posting intent=retry to the page); only one
 * that cannot have charged also offers to go back and edit the order.
 */
export function JobProgressPanel({
  view,
  label,
  runningText,
  editTo,
  editLabel,
  success,
  checking = { title: "Checking your payment", text: CHECKING_OUTCOME },
  retryInSeconds = 0,
  waitingChoices,
}: JobProgressPanelProps) {
  const following = view.running;
  const running = following && view.status !== "needs_attention";
  useFollowWhileRunning(following);
  useReloadAfter(retryInSeconds);
  return (
    <>
      {following || retryInSeconds > 0 ? (
        <noscript>
          <meta httpEquiv="refresh" content={String(following ? 2 : retryInSeconds)} />
        </noscript>
      ) : null}
      <JobProgress steps={view.stages} label={label} />
      {running ? (
        <Text size="sm" role="status">
          {runningText}
        </Text>
      ) : null}
      {view.status === "succeeded" ? success : null}
      {view.status === "needs_attention" ? (
        <Alert color="yellow" role="status" title={checking.title}>
          {checking.text}
        </Alert>
      ) : null}
      {view.status === "waiting_for_cardholder" && view.waiting ? (
        <>
          <Alert color="yellow" role="status" title={WAITING_FOR_CARDHOLDER}>
            {view.waiting.message ? `${view.waiting.message} ` : null}
            {NOTHING_CHARGED_YET}
          </Alert>
          {view.retryRefused ? (
            <Text size="sm" ta="right">
              {view.retryRefused}
            </Text>
          ) : (
            <>
              <Group justify="flex-end">
                {/* The bank's page is not the portal's: a whole-page navigation, as its form is. */}
                <LinkButton to={view.waiting.redirectUrl} reloadDocument>
                  Confirm the payment with your bank
                </LinkButton>
              </Group>
              {waitingChoices}
            </>
          )}
        </>
      ) : null}
      {view.status === "failed" && view.error ? (
        <Alert color="red" role="alert" title={view.error.title}>
          {view.error.message}
        </Alert>
      ) : null}
      {(view.status === "failed" || view.status === "needs_attention") && view.retryRefused ? (
        <Text size="sm" ta="right">
          {view.retryRefused}
        </Text>
      ) : null}
      {(view.status === "failed" || view.status === "needs_attention") && !view.retryRefused ? (
        <Group justify="flex-end">
          {view.canEdit ? (
            <LinkButton to={editTo} variant="default">
              {editLabel}
            </LinkButton>
          ) : null}
          <Form method="post">
            <AuthenticityTokenInput name="csrf" />
            <Button
              type="submit"
              name="intent"
              value="retry"
              disabled={retryInSeconds > 0}
              aria-describedby={retryInSeconds > 0 ? "retry-wait" : undefined}
            >
              Try again
            </Button>
          </Form>
        </Group>
      ) : null}
      {view.status === "failed" && retryInSeconds > 0 ? (
        <Text size="sm" id="retry-wait" ta="right">
          You can try again in {retryInSeconds} seconds.
        </Text>
      ) : null}
    </>
  );
}

/**
 * Every job's progress page: a modal with the panel, which has no close while the job runs (closing would
 * look like cancelling, which it is not), and whatever the page shows above or below the progress.
 */
export function JobProgressPage({
  title,
  closeTo,
  size,
  above,
  below,
  ...panel
}: JobProgressPanelProps & {
  title: string;
  /** Where closing the finished page goes. */
  closeTo: string;
  size?: number;
  above?: ReactNode;
  below?: ReactNode;
}) {
  return (
    <RouteModal title={title} closeTo={panel.view.running ? undefined : closeTo} size={size}>
      <Stack gap="md">
        {above}
        <JobProgressPanel {...panel} />
        {below}
      </Stack>
    </RouteModal>
  );
}
