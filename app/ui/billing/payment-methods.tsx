import { Fragment } from "react";
import { Anchor, Text } from "~/ui/typography";
import { isUsableSource, ONE_CARD_ONLY } from "~/domain/payment-step";
import { Button, LinkButton } from "~/ui/button";
import { Box, Stack } from "~/ui/layout";
import { Table } from "~/ui/table";
import { useCardLinksReload } from "../card-document";
import { Radio } from "../inputs";
import { ACCESSIBLE_GREEN } from "../theme";
import { SectionCard } from "./section-card";
import type { PaymentSourceView } from "~/domain/billing-views";
import { brandName, capitalise, CARD_BRANDS, describeCard } from "~/domain/payment-cards";

const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];

/** 'Mon YYYY', months in three letters. */
export const formatExpiry = (month: number, year: number) => `${MONTHS[month - 1] ?? month} ${year}`;

export function CardBrandLogo({ brand }: { brand: string }) {
  if (!(brand in CARD_BRANDS)) return <Text size="sm">{brandName(brand)}</Text>;
  return (
    <img
      src={`/card-brands/${brand}.svg`}
      alt={CARD_BRANDS[brand]}
      width={48}
      height={30}
      style={{ display: "block" }}
    />
  );
}

/** 'Valid' in green, 'Invalid' in red, any other status as it is. */
export function SourceStatus({ status }: { status: string }) {
  if (status === "valid")
    return (
      <Text size="sm" fw={600} c={ACCESSIBLE_GREEN}>
        Valid
      </Text>
    );
  if (status === "invalid")
    return (
      <Text size="sm" fw={600} c="red.9">
        Invalid
      </Text>
    );
  return <Text size="sm">{status}</Text>;
}

export interface SourceSelection {
  name: string;
  value: string | null;
  onChange: (id: string) => void;
}

/** The provider's words about a card, by card id (a charge it declined), shown next to the card. */
export type CardRefusals = Record<string, string>;

/**
 * The Payment Methods table (no pagination; it scrolls beyond 500px). With `selection` each usable card
 * has a radio (the payment step); with `replaceTo` each card has a Replace link to its drawer.
 */
export function PaymentMethodsTable({
  sources,
  selection,
  replaceTo,
  refusals = {},
}: {
  sources: PaymentSourceView[];
  selection?: SourceSelection;
  replaceTo?: (sourceId: string) => string;
  refusals?: CardRefusals;
}) {
  const reloadDocument = useCardLinksReload();
  const columns = ["Type", "Status", "Brand", "Last four digits", "Name", "Expiry"];
  return (
    <Box mah={500} style={{ overflowY: "auto" }}>
      <Table verticalSpacing="sm" highlightOnHover>
        <Table.Thead>
          <Table.Tr>
            {selection ? (
              <Table.Th>
                <span className="gk-visually-hidden">Use</span>
              </Table.Th>
            ) : null}
            {columns.map((column) => (
              <Table.Th key={column}>{column}</Table.Th>
            ))}
            {replaceTo ? (
              <Table.Th>
                <span className="gk-visually-hidden">Actions</span>
              </Table.Th>
            ) : null}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {sources.length === 0 ? (
            <Table.Tr>
              <Table.Td colSpan={columns.length + (selection ? 1 : 0) + (replaceTo ? 1 : 0)}>
                <Text size="sm">No payment method on file.</Text>
              </Table.Td>
            </Table.Tr>
          ) : null}
          {sources.map((source) => (
            <Fragment key={source.id}>
              <Table.Tr>
                {selection ? (
                  <Table.Td>
                    <Radio
                      name={selection.name}
                      value={source.id}
                      checked={selection.value === source.id}
                      onChange={() => selection.onChange(source.id)}
                      disabled={!isUsableSource(source)}
                      aria-label={`Pay with ${describeCard(source)}`}
                      aria-describedby={refusals[source.id] ? `refusal-${source.id}` : undefined}
                    />
                  </Table.Td>
                ) : null}
                <Table.Td>{capitalise(source.type)}</Table.Td>
                <Table.Td>
                  <SourceStatus status={source.status} />
                </Table.Td>
                <Table.Td>{source.card ? <CardBrandLogo brand={source.card.brand} /> : null}</Table.Td>
                <Table.Td>{source.card?.last4}</Table.Td>
                <Table.Td>{source.card?.holder}</Table.Td>
                <Table.Td>
                  {source.card ? formatExpiry(source.card.expiryMonth, source.card.expiryYear) : null}
                </Table.Td>
                {replaceTo ? (
                  <Table.Td>
                    <Anchor
                      to={replaceTo(source.id)}
                      preventScrollReset
                      reloadDocument={reloadDocument}
                      aria-label={`Replace ${describeCard(source)}`}
                    >
                      Replace
                    </Anchor>
                  </Table.Td>
                ) : null}
              </Table.Tr>
              {refusals[source.id] ? (
                <Table.Tr>
                  <Table.Td colSpan={columns.length + (selection ? 1 : 0) + (replaceTo ? 1 : 0)}>
                    <Text size="sm" fw={600} c="red.9" id={`refusal-${source.id}`} role="alert">
                      {refusals[source.id]}
                    </Text>
                  </Table.Td>
                </Table.Tr>
              ) : null}
            </Fragment>
          ))}
        </Table.Tbody>
      </Table>
    </Box>
  );
}

/** Add Card, or, with a card on file, a disabled button with the reason written under it (not only a tooltip). */
export function AddCardButton({ to, hasCard }: { to: string; hasCard: boolean }) {
  const reloadDocument = useCardLinksReload();
  if (!hasCard) {
    return (
      <LinkButton to={to} preventScrollReset reloadDocument={reloadDocument}>
        Add Card
      </LinkButton>
    );
  }
  return (
    <Stack gap={4} align="flex-end" maw={380}>
      <Button disabled aria-describedby="add-card-hint" title={ONE_CARD_ONLY}>
        Add Card
      </Button>
      <Text size="sm" id="add-card-hint" ta="right">
        {ONE_CARD_ONLY}
      </Text>
    </Stack>
  );
}

/**
 * The Payment Methods card: Add Card and the table with a Replace link per card, both opening their
 * drawers under `drawerBase` (…/cards/new, …/cards/:id/replace). With Stripe, from a page whose document does not
 * let Stripe.js load, they load the drawer's page as a new document, whose policy does (decision 228).
 */
export function PaymentMethodsSection({
  sources,
  drawerBase,
  drawerSearch = "",
  selection,
  refusals,
}: {
  sources: PaymentSourceView[];
  drawerBase: string;
  /** The query the drawers' URLs keep (the page's own, `?customer=…`). */
  drawerSearch?: string;
  selection?: SourceSelection;
  refusals?: CardRefusals;
}) {
  return (
    <SectionCard
      id="payment-methods-title"
      title="Payment Methods"
      action={<AddCardButton to={`${drawerBase}/cards/new${drawerSearch}`} hasCard={sources.length > 0} />}
    >
      <PaymentMethodsTable
        sources={sources}
        selection={selection}
        refusals={refusals}
        replaceTo={(id) => `${drawerBase}/cards/${id}/replace${drawerSearch}`}
      />
    </SectionCard>
  );
}
