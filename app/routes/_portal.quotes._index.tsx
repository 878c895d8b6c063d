import type { LinksFunction, LoaderFunctionArgs } from "@remix-run/node";
import { Form, useLoaderData } from "@remix-run/react";
import { formatCents, formatDate } from "~/domain/format";
import { QUOTE_STATUS_NAMES, quoteUrls } from "~/domain/quotes";
import { NEW_QUOTE_PLAN_URL } from "~/domain/subscription-steps";
import { quotesListPage } from "~/server/quotes/quote-pages.server";
import { Button, LinkButton } from "~/ui/button";
import { NativeSelect } from "~/ui/inputs";
import { Group, Stack } from "~/ui/layout";
import { Link } from "~/ui/link";
import { PageErrorBoundary, pageMeta } from "~/ui/page";
import { ANCHOR_CLASS } from "~/ui/plain-parts";
import { RowPageLinks } from "~/ui/row-page-links";
import { LIST_STYLES } from "~/ui/stylesheets";
import { Table } from "~/ui/table";
import { Text } from "~/ui/typography";

export const links: LinksFunction = () => LIST_STYLES;

export const handle = { title: "Quotes" };
export const meta = pageMeta("Quotes");

export const loader = ({ request }: LoaderFunctionArgs) => quotesListPage(request);

/**
 * The organization's quotes, newest first: filtered (a GET form) and paged in the URL, so it works without
 * JavaScript. A page links to the pages beside it by their rows (the list is not counted), so any page costs what
 * the first does.
 */
export default function Quotes() {
  const { status, customerId, customers, quotes, earlierHref, laterHref, mayMake } = useLoaderData<typeof loader>();
  return (
    <Stack gap="lg" maw={1100}>
      <Group justify="space-between">
        <Text size="lg">Priced offers of a new license, each valid until its date.</Text>
        {mayMake ? <LinkButton to={NEW_QUOTE_PLAN_URL}>Make a quote</LinkButton> : null}
      </Group>
      {mayMake ? (
        <Text size="sm">
          A quote is made from the Store: choose the license, then Save as quote on its Review step.
        </Text>
      ) : null}
      <Form method="get" role="search" aria-label="Filter quotes">
        <Group gap="sm" align="flex-end">
          <NativeSelect id="quote-status" name="status" label="Status" defaultValue={status ?? ""} w={180}>
            <option value="">Any</option>
            {Object.entries(QUOTE_STATUS_NAMES).map(([value, label]) => (
              <option key={value} value={value}>
                {label}
              </option>
            ))}
          </NativeSelect>
          {customers ? (
            <NativeSelect id="quote-customer" name="customer" label="Customer" defaultValue={customerId ?? ""} w={260}>
              <option value="">Any</option>
              {customers.map((customer) => (
                <option key={customer.id} value={customer.id}>
                  {customer.name}
                </option>
              ))}
            </NativeSelect>
          ) : null}
          <Button type="submit" variant="default">
            Filter
          </Button>
        </Group>
      </Form>
      {quotes.length === 0 ? (
        <Text>{status || customerId ? "No quote matches this filter." : "You have no quotes yet."}</Text>
      ) : (
        <>
          <Table.ScrollContainer minWidth={800}>
            <Table striped withTableBorder aria-label="Quotes">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th scope="col">Quote</Table.Th>
                  <Table.Th scope="col">For</Table.Th>
                  <Table.Th scope="col">Date</Table.Th>
                  <Table.Th scope="col">Valid until</Table.Th>
                  <Table.Th scope="col">Due today</Table.Th>
                  <Table.Th scope="col">Status</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {quotes.map((quote) => (
                  <Table.Row
                    key={quote.id}
                    cells={[
                      <Link key="number" className={ANCHOR_CLASS} to={quoteUrls.page(quote.id)}>
                        {quote.number}
                      </Link>,
                      quote.organizationName,
                      formatDate(quote.quotedAt),
                      formatDate(quote.validUntil),
                      formatCents(quote.amountDue),
                      QUOTE_STATUS_NAMES[quote.status],
                    ]}
                  />
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
          <RowPageLinks earlierHref={earlierHref} laterHref={laterHref} label="Quotes pages" />
        </>
      )}
    </Stack>
  );
}

export const ErrorBoundary = PageErrorBoundary;
