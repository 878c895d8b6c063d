import { Text } from "~/ui/typography";
import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { AuthenticityTokenInput } from "remix-utils/csrf/react";
import { validationError } from "remix-validated-form";
import { formatCents } from "~/domain/format";
import { ITEMS_PER_BOX, SHIPPING_CENTS_PER_BOX } from "~/domain/shipping";
import { lazyValidator } from "~/domain/lazy-validator";
import { HARDWARE_QUANTITY, HARDWARE_RANGE, nextStepTitle, previousStepUrl } from "~/domain/trial-steps";
import { assertMay, whyNot } from "~/server/accounts/access.server";
import { quoteTrialHardware } from "~/server/trials/trials.server";
import { loadTrialStep, postTrialStep } from "~/server/trials/trial-wizard.server";
import { TextField } from "~/ui/fields";
import { Stack } from "~/ui/layout";
import { PageErrorBoundary } from "~/ui/page";
import { Table } from "~/ui/table";
import { StepActions } from "~/ui/wizard/step-actions";
import { ValidatedForm } from "~/ui/validated-form";

const validator = lazyValidator(() => import("~/domain/trial-wizard").then((module) => module.trialHardwareStepSchema));

/**
 * Tokens and sensors for the trial, in this customer's ids and prices. Hardware is bought with the
 * organization's card: a member whose role may not buy (a Technical contact) starts the trial without it.
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const { member, organization, hubType, draft, customerId } = await loadTrialStep(request, params, "hardware");
  const { lines } = await quoteTrialHardware(organization, draft.data);
  return json({
    hubType,
    customerId,
    lines,
    defaults: { tokens: draft.data.tokens, sensors: draft.data.sensors },
    cannotBuy: whyNot(member, "purchase"),
  });
}

export async function action({ request, params }: ActionFunctionArgs) {
  const { member, formData, wizard } = await postTrialStep(request, params, "hardware");
  const result = await validator.validate(formData);
  if (result.error) return validationError(result.error, result.submittedData);
  if (result.data.tokens + result.data.sensors > 0) assertMay(member, "purchase");
  return wizard.complete(member, "hardware", result.data);
}

export default function HardwareStep() {
  const { hubType, customerId, lines, defaults, cannotBuy } = useLoaderData<typeof loader>();
  const [tokens, sensors] = lines;
  return (
    <ValidatedForm validator={validator} method="post" defaultValues={defaults} noValidate>
      <AuthenticityTokenInput name="csrf" />
      <Stack gap="md">
        <Text>
          Order tokens and USB sensors to try GateKeeper with: one token per user, and one USB sensor per computer. Your
          card is charged only for this hardware and its shipping ({formatCents(SHIPPING_CENTS_PER_BOX)} per box of up
          to {ITEMS_PER_BOX} items).
        </Text>
        <Table withTableBorder aria-label="Available hardware">
          <Table.Thead>
            <Table.Tr>
              <Table.Th scope="col">Item</Table.Th>
              <Table.Th scope="col" ta="right">
                Unit price
              </Table.Th>
              <Table.Th scope="col">Description</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {lines.map((line) => (
              <Table.Tr key={line.id}>
                <Table.Td>{line.name}</Table.Td>
                <Table.Td ta="right">{formatCents(line.unitPrice)}</Table.Td>
                <Table.Td>{line.description}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
        {cannotBuy ? (
          <>
            <input type="hidden" name="tokens" value="0" />
            <input type="hidden" name="sensors" value="0" />
            <Text fw={600}>Your trial starts without hardware. {cannotBuy}</Text>
          </>
        ) : (
          <Stack gap="sm" maw={360}>
            {[
              { name: "tokens", label: `Tokens (${tokens?.name ?? "tokens"})` },
              { name: "sensors", label: `USB sensors (${sensors?.name ?? "sensors"})` },
            ].map((field) => (
              <TextField
                key={field.name}
                name={field.name}
                label={field.label}
                description={HARDWARE_RANGE}
                type="number"
                min={HARDWARE_QUANTITY.min}
                max={HARDWARE_QUANTITY.max}
                required
              />
            ))}
          </Stack>
        )}
      </Stack>
      <StepActions
        previousTo={previousStepUrl(hubType, "hardware", customerId)}
        nextLabel={nextStepTitle(hubType, "hardware")}
      />
    </ValidatedForm>
  );
}

export const ErrorBoundary = PageErrorBoundary;
