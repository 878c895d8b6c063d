import { Text } from "~/ui/typography";
import type { EstimateView } from "~/domain/estimate";
import { formatCents, formatDate } from "~/domain/format";
import { Alert, Group } from "~/ui/layout";
import { Table } from "~/ui/table";

/**
 * The order's lines, its discounts, credits, what is due today and, when the order renews, what the next
 * billing cycle will charge and when (the estimate view of every wizard).
 */
export function OrderSummary({
  estimate,
  caption,
  noteCredits = false,
}: {
  estimate: EstimateView;
  caption: string;
  noteCredits?: boolean;
}) {
  return (
    <>
      <Table withTableBorder striped className="gk-order-summary">
        <Table.Caption>{caption}</Table.Caption>
        <Table.Thead>
          <Table.Tr>
            <Table.Th scope="col">Item</Table.Th>
            <Table.Th scope="col" ta="right">
              Quantity
            </Table.Th>
            <Table.Th scope="col" ta="right">
              Unit price
            </Table.Th>
            <Table.Th scope="col" ta="right">
              Amount
            </Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {estimate.lineItems.map((line, index) => (
            <Table.Tr key={`${line.description}-${index}`}>
              <Table.Td>{line.description}</Table.Td>
              <Table.Td ta="right">{line.quantity}</Table.Td>
              <Table.Td ta="right">{formatCents(line.unitAmount)}</Table.Td>
              <Table.Td ta="right">{formatCents(line.amount)}</Table.Td>
            </Table.Tr>
          ))}
          {estimate.discounts.map((discount, index) => (
            <Table.Tr key={`discount-${index}`}>
              <Table.Td colSpan={3}>{discount.description}</Table.Td>
              <Table.Td ta="right">−{formatCents(discount.amount)}</Table.Td>
            </Table.Tr>
          ))}
          {estimate.creditsApplied > 0 ? (
            <Table.Tr>
              <Table.Td colSpan={3}>Credits applied</Table.Td>
              <Table.Td ta="right">−{formatCents(estimate.creditsApplied)}</Table.Td>
            </Table.Tr>
          ) : null}
        </Table.Tbody>
        <Table.Tfoot>
          <Table.Tr>
            <Table.Th scope="row" colSpan={3}>
              Total amount due today
            </Table.Th>
            <Table.Td ta="right">
              <Group justify="flex-end">
                <Text fw={700} data-testid="amount-due">
                  {formatCents(estimate.amountDue)}
                </Text>
              </Group>
            </Table.Td>
          </Table.Tr>
          {estimate.nextBilling ? (
            <Table.Tr>
              <Table.Th scope="row" colSpan={3} fw={400}>
                Amount on next billing cycle ({formatDate(estimate.nextBilling.at)})
              </Table.Th>
              <Table.Td ta="right" data-testid="next-billing-amount">
                {formatCents(estimate.nextBilling.amount)}
              </Table.Td>
            </Table.Tr>
          ) : null}
        </Table.Tfoot>
      </Table>
      {noteCredits || estimate.creditsApplied > 0 ? (
        <Text size="sm">Available credits will automatically be applied to the invoice.</Text>
      ) : null}
    </>
  );
}

/** The estimate, or the reason it could not be made in its place. */
export function EstimateOrError({
  estimate,
  error,
  caption,
  noteCredits,
}: {
  estimate: EstimateView | null;
  error: string | null;
  caption: string;
  /** Say that credits are applied even when this invoice uses none (the update's Review always says it). */
  noteCredits?: boolean;
}) {
  return estimate ? (
    <OrderSummary estimate={estimate} caption={caption} noteCredits={noteCredits} />
  ) : (
    <Alert color="red" role="alert" title="Failed to generate your order.">
      {error}
    </Alert>
  );
}
