import { Text } from "~/ui/typography";
import { Form, Outlet } from "@remix-run/react";
import { AuthenticityTokenInput } from "remix-utils/csrf/react";
import { Button } from "~/ui/button";
import { Alert, Stack } from "~/ui/layout";
import { RouteDrawer, RouteModal } from "../route-dialogs";
import { WizardStepper, type StepLink } from "./stepper";

/**
 * The chrome of every wizard (one layout route per wizard renders it): a drawer over the page with a
 * Close that clears the draft, the stepper (links only to the steps that can be reached), the notices of
 * the current step (why it has to be done again), and the step's own route below. With `modalSize` it is
 * a modal of that width instead (the trials), which the mask does not close.
 */
export function WizardLayout({
  title,
  stepsLabel,
  steps,
  current,
  reachable,
  settled = [],
  notices,
  closeAction,
  pending = null,
  width,
  modalSize,
}: {
  title: string;
  /** The stepper's accessible name, e.g. 'Order steps'. */
  stepsLabel: string;
  steps: StepLink[];
  current: string;
  reachable: string[];
  /** Steps done by design that cannot be gone back to (a quote's order): shown done, not linked. */
  settled?: string[];
  notices: string[];
  /** The layout route's URL: closing posts there (it clears the draft), so the drawer has no close link. */
  closeAction: string;
  /** What the next step is waiting for, shown while its loader runs (e.g. 'Generating your order...'). */
  pending?: string | null;
  /** The drawer's width in pixels, when it is not the default (RouteDrawer's). */
  width?: number;
  /** A modal of this width instead of a drawer (the trials). */
  modalSize?: number;
}) {
  const close = (
    <Form method="post" action={closeAction}>
      <AuthenticityTokenInput name="csrf" />
      <Button type="submit" variant="default" size="xs">
        Close
      </Button>
    </Form>
  );
  const body = (
    <>
      <WizardStepper label={stepsLabel} steps={steps} current={current} completed={reachable} settled={settled} />
      <div className="gk-step-content">
        {notices.length > 0 ? (
          <Stack gap="xs" mb="md">
            {notices.map((notice) => (
              <Alert key={notice} color="yellow" role="status" data-testid="step-notice">
                {notice}
              </Alert>
            ))}
          </Stack>
        ) : null}
        {pending ? (
          <Text role="status" size="sm" mb="sm">
            {pending}
          </Text>
        ) : null}
        <Outlet />
      </div>
    </>
  );
  return modalSize ? (
    <RouteModal title={title} size={modalSize} headerAction={close}>
      {body}
    </RouteModal>
  ) : (
    <RouteDrawer title={title} width={width} headerAction={close}>
      {body}
    </RouteDrawer>
  );
}
