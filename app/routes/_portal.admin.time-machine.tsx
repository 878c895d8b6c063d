import type { ActionFunctionArgs, LinksFunction, LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { AuthenticityTokenInput } from "remix-utils/csrf/react";
import { useIsSubmitting } from "remix-validated-form";
import { formatDate } from "~/domain/format";
import { MAX_TIME_MACHINE_DAYS } from "~/domain/time-machine";
import { timeMachineValidator } from "~/domain/time-machine-validator";
import { moveTimeMachine, timeMachinePage } from "~/server/subscriptions/time-machine.server";
import { Button } from "~/ui/button";
import { TextField } from "~/ui/fields";
import { Card, Stack } from "~/ui/layout";
import { PageErrorBoundary, pageMeta } from "~/ui/page";
import { FORM_STYLES } from "~/ui/stylesheets";
import { Text } from "~/ui/typography";
import { ValidatedForm } from "~/ui/validated-form";

export const links: LinksFunction = () => FORM_STYLES;

export const handle = { title: "Time machine" };
export const meta = pageMeta("Time machine");

/**
 * The embedded billing engine's time machine, for demos and tests (demo mode only): its date, and a form that
 * moves it forward, processing whatever falls due on the way as the passing of real time would.
 */
export const loader = ({ request }: LoaderFunctionArgs) => timeMachinePage(request);
export const action = ({ request }: ActionFunctionArgs) => moveTimeMachine(request);

export default function TimeMachine() {
  const { now } = useLoaderData<typeof loader>();
  const submitting = useIsSubmitting("time-machine");
  return (
    <Stack gap="lg" maw={700}>
      <Text>
        The embedded billing engine&apos;s date is <strong data-testid="engine-date">{formatDate(now)}</strong>. Moving
        it forward renews subscriptions and charges their cards, declines renewals of cards that decline and retries
        them, and ends subscriptions whose auto-renew is off, exactly as that much time passing would. Licenses and
        their days left follow this date. It only moves forward.
      </Text>
      <Card withBorder padding="lg" radius="md" aria-labelledby="time-machine-title">
        <ValidatedForm id="time-machine" validator={timeMachineValidator} method="post" noValidate>
          <Stack gap="sm">
            <AuthenticityTokenInput name="csrf" />
            <h2 id="time-machine-title" className="gk-visually-hidden">
              Move the clock
            </h2>
            <TextField
              name="days"
              label="Days to move forward"
              description={`A whole number from 1 to ${MAX_TIME_MACHINE_DAYS}.`}
              inputMode="numeric"
              required
            />
            <Button
              type="submit"
              loading={submitting}
              loadingLabel="Moving the clock"
              style={{ alignSelf: "flex-start" }}
            >
              Move the clock forward
            </Button>
          </Stack>
        </ValidatedForm>
      </Card>
    </Stack>
  );
}

export const ErrorBoundary = PageErrorBoundary;
