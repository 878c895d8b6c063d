import { Text, Title } from "~/ui/typography";
import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { useMemo, useState } from "react";
import { AuthenticityTokenInput } from "remix-utils/csrf/react";
import { validationError } from "remix-validated-form";
import { formatCents } from "~/domain/format";
import { lazyValidator } from "~/domain/lazy-validator";
import { quantityField } from "~/domain/subscription-steps";
import { ITEMS_PER_BOX, SHIPPING_CENTS_PER_BOX, shippingCharge } from "~/domain/shipping";
import { readMemberForm, requireMember } from "~/server/accounts/access.server";
import { purchaseRight, subscriptionWizardOf } from "~/server/orders/new-subscription-wizard.server";
import { offerFor } from "~/server/orders/offers.server";
import { TextField } from "~/ui/fields";
import { Stack } from "~/ui/layout";
import { PageErrorBoundary } from "~/ui/page";
import { Table } from "~/ui/table";
import { StepActions } from "~/ui/wizard/step-actions";
import { ValidatedForm } from "~/ui/validated-form";

/** A quantity per hardware item of the offer (list ids). */
const hardwareValidator = (itemIds: string[]) =>
  lazyValidator(() => import("~/domain/new-subscription").then((module) => module.hardwareStepSchema(itemIds)));

export async function loader({ request }: LoaderFunctionArgs) {
  const member = await requireMember(request, purchaseRight(request));
  const { wizard } = await subscriptionWizardOf(member, request);
  const { data } = await wizard.load(member, "hardware");
  const { hardware } = await offerFor(member.organization, data.cycle);
  return json({
    previousTo: wizard.urlOf("hosting"),
    items: hardware,
    defaults: Object.fromEntries(
      hardware.map((item) => [quantityField(item.listId), String(data.hardware[item.listId] ?? 0)]),
    ),
  });
}

export async function action({ request }: ActionFunctionArgs) {
  const { member, formData } = await readMemberForm(request, purchaseRight(request));
  const { wizard } = await subscriptionWizardOf(member, request);
  const { data } = await wizard.load(member, "hardware");
  const { hardware } = await offerFor(member.organization, data.cycle);
  const result = await hardwareValidator(hardware.map((item) => item.listId)).validate(formData);
  if (result.error) return validationError(result.error, result.submittedData);
  return wizard.complete(member, "hardware", { hardware: result.data });
}

export default function HardwareStep() {
  const { previousTo, items, defaults } = useLoaderData<typeof loader>();
  const [quantities, setQuantities] = useState(defaults);
  const count = (id: string) => {
    const value = Number(quantities[quantityField(id)]);
    return Number.isInteger(value) && value > 0 ? value : 0;
  };
  const shipping = shippingCharge(items.reduce((total, item) => total + count(item.listId), 0));
  const validator = useMemo(() => hardwareValidator(items.map((item) => item.listId)), [items]);
  return (
    <ValidatedForm validator={validator} method="post" defaultValues={defaults} noValidate>
      <AuthenticityTokenInput name="csrf" />
      <Stack gap="md">
        <Title order={3}>Hardware</Title>
        <Text size="sm">Tokens and sensors for your users, charged once with the first invoice.</Text>
        <Table withTableBorder>
          <Table.Thead>
            <Table.Tr>
              <Table.Th scope="col">Item</Table.Th>
              <Table.Th scope="col" ta="right">
                Unit price
              </Table.Th>
              <Table.Th scope="col">Quantity</Table.Th>
              <Table.Th scope="col" ta="right">
                Once-only amount
              </Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {items.map((item) => (
              <Table.Tr key={item.id}>
                <Table.Td>
                  <Text fw={500}>{item.name}</Text>
                  <Text size="xs" c="dimmed">
                    {item.description}
                  </Text>
                </Table.Td>
                <Table.Td ta="right">{formatCents(item.price)}</Table.Td>
                <Table.Td w={150}>
                  <TextField
                    name={quantityField(item.listId)}
                    aria-label={`Quantity of ${item.name}`}
                    type="number"
                    min={0}
                    onChange={(event) => {
                      const value = event.currentTarget.value;
                      setQuantities((current) => ({ ...current, [quantityField(item.listId)]: value }));
                    }}
                  />
                </Table.Td>
                <Table.Td ta="right">{formatCents(item.price * count(item.listId))}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
        <Text size="sm">
          Shipping: {formatCents(SHIPPING_CENTS_PER_BOX)} per box of up to {ITEMS_PER_BOX} items
          {shipping ? `, ${formatCents(shipping.unitPrice)} for this order.` : "."}
        </Text>
      </Stack>
      <StepActions previousTo={previousTo} nextLabel="Next: Support" />
    </ValidatedForm>
  );
}

export const ErrorBoundary = PageErrorBoundary;
