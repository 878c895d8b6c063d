import { Anchor, Text } from "~/ui/typography";
import { isBillingAddressValid } from "~/domain/payment-step";
import { SimpleGrid, Stack } from "~/ui/layout";
import { SectionCard } from "./section-card";
import type { AddressView } from "~/domain/billing-views";

/** An address as lines a person reads: name, company, contact, street, town and country. */
export function AddressLines({ address }: { address: AddressView }) {
  const name = [address.firstName, address.lastName].filter(Boolean).join(" ");
  const town = [address.city, [address.state, address.zip].filter(Boolean).join(" ")].filter(Boolean).join(", ");
  const lines = [
    name,
    address.company,
    address.email,
    address.phone,
    address.line1,
    address.line2,
    town,
    address.countryName ?? address.country,
  ].filter(Boolean);
  return (
    <Stack gap={0}>
      {lines.map((line, index) => (
        // Lines can repeat (e.g. a company named like its holder), so the index keeps keys unique.
        <Text size="sm" key={`${index}-${line}`}>
          {line}
        </Text>
      ))}
    </Stack>
  );
}

/**
 * The Billing Address and Shipping Address panels. The billing address is
 * changed in the billing profile drawer (`profileTo`), the shipping address in its own (`shippingTo`).
 */
export function AddressPanels({
  billing,
  shipping,
  profileTo,
  shippingTo,
}: {
  billing: AddressView | null;
  shipping: AddressView | null;
  profileTo: string;
  shippingTo: string;
}) {
  return (
    <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
      <SectionCard id="billing-address-title" title="Billing Address" level={3}>
        <Stack gap="xs" align="flex-start">
          {billing && isBillingAddressValid(billing) ? (
            <AddressLines address={billing} />
          ) : (
            <Text size="sm" c="red.9" fw={600}>
              Please update the address
            </Text>
          )}
          <Anchor to={profileTo} preventScrollReset size="sm">
            Update Billing Profile
          </Anchor>
        </Stack>
      </SectionCard>
      <SectionCard id="shipping-address-title" title="Shipping Address" level={3}>
        <Stack gap="xs" align="flex-start">
          {shipping ? <AddressLines address={shipping} /> : <Text size="sm">Same as billing address</Text>}
          <Anchor to={shippingTo} preventScrollReset size="sm">
            Use a different address
          </Anchor>
        </Stack>
      </SectionCard>
    </SimpleGrid>
  );
}
