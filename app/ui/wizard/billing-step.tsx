import { Title } from "~/ui/typography";
import { Outlet } from "@remix-run/react";
import type { PaymentStepData } from "~/domain/billing-views";
import { Alert, Stack } from "~/ui/layout";
import { PaymentStep } from "../billing/payment-step";

/**
 * A wizard's Billing step: the shared payment step, what the server refused above it, and the billing drawers
 * (child routes of the step) below.
 */
export function WizardBillingStep({
  data,
  problem,
  nextLabel,
  drawerBase,
  drawerSearch,
}: {
  data: PaymentStepData;
  problem?: string;
  nextLabel: string;
  drawerBase: string;
  drawerSearch?: string;
}) {
  return (
    <Stack gap="md">
      <Title order={3}>Billing</Title>
      {problem ? (
        <Alert color="red" role="alert">
          {problem}
        </Alert>
      ) : null}
      <PaymentStep data={data} nextLabel={nextLabel} drawerBase={drawerBase} drawerSearch={drawerSearch} />
      <Outlet />
    </Stack>
  );
}
