import { List } from "~/ui/list";
import { Anchor, Text } from "~/ui/typography";
import type { AddressView, BillingProfileView, CardView } from "~/domain/billing-views";
import { Alert, Card, SimpleGrid } from "~/ui/layout";
import { AddressLines } from "../billing/address-panels";

/** What stops an order from being placed, each with a link to the step that fixes it. */
export function OrderProblems({
  problems,
  stepTitle,
}: {
  problems: { step: string; message: string; to: string }[];
  stepTitle: (step: string) => string;
}) {
  if (problems.length === 0) return null;
  return (
    <Alert color="red" role="alert" title="Your order cannot be placed yet">
      <List size="sm">
        {problems.map((problem) => (
          <List.Item key={problem.message}>
            {problem.message} <Anchor to={problem.to}>Go to {stepTitle(problem.step)}</Anchor>
          </List.Item>
        ))}
      </List>
    </Alert>
  );
}

/** Who pays and where it ships: billing info, shipping address ('Same as billing address.' when blank), the card. */
export function OrderParties({
  billingProfile,
  billingAddress,
  shippingAddress,
  card,
}: {
  billingProfile: BillingProfileView | null;
  billingAddress: AddressView | null;
  shippingAddress: AddressView | null;
  card: Pick<CardView, "last4"> | null;
}) {
  return (
    <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="md">
      <Card withBorder padding="md" aria-label="Billing info">
        <Text fw={600} mb={4}>
          Billing info
        </Text>
        {billingProfile ? (
          <AddressLines address={{ ...billingProfile, ...(billingAddress ?? {}) }} />
        ) : (
          <Text size="sm">Not available</Text>
        )}
      </Card>
      <Card withBorder padding="md" aria-label="Shipping address">
        <Text fw={600} mb={4}>
          Shipping address
        </Text>
        {shippingAddress ? <AddressLines address={shippingAddress} /> : <Text size="sm">Same as billing address.</Text>}
      </Card>
      <Card withBorder padding="md" aria-label="Payment method">
        <Text fw={600} mb={4}>
          Payment method
        </Text>
        {card ? (
          <>
            <Text size="sm">Card</Text>
            <Text size="sm" data-testid="masked-card">
              **** **** **** {card.last4}
            </Text>
          </>
        ) : (
          <Text size="sm">No card selected</Text>
        )}
      </Card>
    </SimpleGrid>
  );
}
