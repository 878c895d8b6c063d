import { Title } from "~/ui/typography";
import type { ActionFunctionArgs, LinksFunction, LoaderFunctionArgs } from "@remix-run/node";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { AuthenticityTokenInput } from "remix-utils/csrf/react";
import { formatDate } from "~/domain/format";
import { quotedName } from "~/domain/names";
import {
  customerAcceptanceNote,
  customerMayAcceptLabel,
  NOT_AN_INVOICE,
  QUOTE_ACCEPT_LABELS,
  QUOTE_EVENT_NAMES,
  QUOTE_STATUS_NAMES,
  quoteUrls,
} from "~/domain/quotes";
import { quotePageAction, quotePageData } from "~/server/quotes/quote-pages.server";
import { Button, LinkButton } from "~/ui/button";
import { Checkbox, TextInput } from "~/ui/inputs";
import { Alert, Group, Stack } from "~/ui/layout";
import { Link } from "~/ui/link";
import { PageErrorBoundary, pageMeta } from "~/ui/page";
import { ANCHOR_CLASS } from "~/ui/plain-parts";
import { FORM_STYLES } from "~/ui/stylesheets";
import { Table } from "~/ui/table";
import { Text } from "~/ui/typography";
import { OrderSummary } from "~/ui/wizard/order-summary";

export const handle = { title: "Quote" };
export const meta = pageMeta("Quote");
export const links: LinksFunction = () => FORM_STYLES;

export const loader = ({ request, params }: LoaderFunctionArgs) => quotePageData(request, params.quoteId ?? "");

export const action = ({ request, params, context }: ActionFunctionArgs) =>
  quotePageAction(request, context, params.quoteId ?? "");

/**
 * A quote: its lines as quoted, its dates, acceptance and history, its PDF, Send, Withdraw and Copy for the buying
 * roles, and Accept for the end customer's Technical contact where the maker let it.
 */
export default function Quote() {
  const { quote, events, mayWithdraw, mayCopy, sendTo, orderTo, orderJobTo, acceptAs } = useLoaderData<typeof loader>();
  const refused = useActionData<typeof action>();
  const typedTo = refused && "to" in refused ? refused.to : null;
  const typed = refused && "typed" in refused ? refused.typed : null;
  const fieldErrors: Record<string, string | undefined> =
    refused && "fieldErrors" in refused ? refused.fieldErrors : {};
  const forCustomer = quote.customerId !== null;
  return (
    <Stack gap="lg" maw={900}>
      <Group justify="space-between">
        <Title order={2}>Quote {quote.number}</Title>
        <Link className={ANCHOR_CLASS} to={quoteUrls.pdf(quote.id)} reloadDocument>
          Download PDF
        </Link>
      </Group>
      {refused && "formError" in refused ? <Alert color="red">{refused.formError}</Alert> : null}
      <Text>
        For <strong>{quote.organizationName}</strong>, made by {quote.madeByName} of {quote.makerOrganization} on{" "}
        {formatDate(quote.quotedAt)}. Valid until {formatDate(quote.validUntil)}. Status:{" "}
        <strong>{QUOTE_STATUS_NAMES[quote.status]}</strong>.{quote.sentTo ? ` Sent to ${quote.sentTo}.` : null}
      </Text>
      {forCustomer ? <Text data-testid="customer-acceptance">{customerAcceptanceNote(quote)}</Text> : null}
      {quote.acceptedByName && quote.acceptedAt ? (
        <Text data-testid="acceptance">
          Accepted by {quotedName(quote.acceptedByName)} on {formatDate(quote.acceptedAt)}
          {quote.poNumber ? `, PO number ${quotedName(quote.poNumber)}` : ""}.
        </Text>
      ) : null}
      {orderJobTo ? (
        <Text>
          <Link className={ANCHOR_CLASS} to={orderJobTo}>
            See the order of this quote
          </Link>
        </Text>
      ) : null}
      <OrderSummary estimate={quote.estimate} caption={NOT_AN_INVOICE} />
      {orderTo ? (
        <Group>
          <LinkButton to={orderTo}>Place order</LinkButton>
        </Group>
      ) : null}
      {acceptAs !== null ? (
        <Form method="post" noValidate aria-label="Accept this quote">
          <AuthenticityTokenInput name="csrf" />
          <Group gap="sm" align="flex-start">
            <TextInput
              name="name"
              label={QUOTE_ACCEPT_LABELS.name}
              autoComplete="name"
              required
              defaultValue={typed?.name ?? acceptAs}
              error={fieldErrors.name}
              w={280}
            />
            <TextInput
              name="poNumber"
              label={QUOTE_ACCEPT_LABELS.poNumber}
              autoComplete="off"
              defaultValue={typed?.poNumber}
              error={fieldErrors.poNumber}
              w={220}
            />
          </Group>
          <Group mt="sm">
            <Button type="submit" name="intent" value="accept">
              {QUOTE_ACCEPT_LABELS.submit}
            </Button>
          </Group>
        </Form>
      ) : null}
      {sendTo !== null ? (
        <Form method="post" noValidate aria-label="Send the quote">
          <AuthenticityTokenInput name="csrf" />
          <Stack gap="sm">
            <Group gap="sm" align="flex-end">
              <TextInput
                name="to"
                type="email"
                label="Send to"
                description="The quote's link is mailed here; whoever opens it may read and accept the quote."
                autoComplete="off"
                required
                defaultValue={typedTo ?? sendTo}
                error={refused && "fieldErrors" in refused ? refused.fieldErrors.to : undefined}
                w={360}
              />
              <Button type="submit" name="intent" value="send">
                Send
              </Button>
            </Group>
            {forCustomer ? (
              <Checkbox
                name="customerMayAccept"
                label={customerMayAcceptLabel(quote.organizationName)}
                defaultChecked={quote.customerMayAccept}
              />
            ) : null}
          </Stack>
        </Form>
      ) : null}
      {mayWithdraw || mayCopy ? (
        <Form method="post">
          <AuthenticityTokenInput name="csrf" />
          <Group gap="sm">
            {mayCopy ? (
              <Button type="submit" name="intent" value="copy" variant="default">
                Copy into a new quote
              </Button>
            ) : null}
            {mayWithdraw ? (
              <Button type="submit" name="intent" value="withdraw" tone="danger" variant="filled">
                Withdraw
              </Button>
            ) : null}
          </Group>
        </Form>
      ) : null}
      <Table withTableBorder aria-label="History">
        <Table.Thead>
          <Table.Tr>
            <Table.Th scope="col">When</Table.Th>
            <Table.Th scope="col">What</Table.Th>
            <Table.Th scope="col">Who</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {events.map((event) => (
            <Table.Row
              key={event.id}
              cells={[
                formatDate(event.at),
                [QUOTE_EVENT_NAMES[event.kind], event.detail].filter(Boolean).join(": "),
                event.actorName,
              ]}
            />
          ))}
        </Table.Tbody>
      </Table>
    </Stack>
  );
}

export const ErrorBoundary = PageErrorBoundary;
