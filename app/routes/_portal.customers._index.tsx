import type { LinksFunction, LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { CUSTOMERS_PER_PAGE, customersHref, customerUrls } from "~/domain/customers";
import { formatCents, formatDate } from "~/domain/format";
import { customersListPage } from "~/server/resellers/customer-pages.server";
import { LinkButton } from "~/ui/button";
import { Group, Stack } from "~/ui/layout";
import { Link } from "~/ui/link";
import { PageErrorBoundary, pageMeta } from "~/ui/page";
import { PageLinks } from "~/ui/page-links";
import { ANCHOR_CLASS } from "~/ui/plain-parts";
import { LIST_STYLES } from "~/ui/stylesheets";
import { SearchForm } from "~/ui/search-form";
import { Table } from "~/ui/table";
import { Text } from "~/ui/typography";

export const links: LinksFunction = () => LIST_STYLES;

export const handle = { title: "Customers" };
export const meta = pageMeta("Customers");

export const loader = ({ request }: LoaderFunctionArgs) => customersListPage(request);

/** A distributor's end customers: searched and paged in the URL, so a search is a link and works without JavaScript. */
export default function Customers() {
  const { search, page, pages, total, mayAdd, mayViewRenewals, customers } = useLoaderData<typeof loader>();
  return (
    <Stack gap="lg" maw={1100}>
      <Group justify="space-between">
        <Text size="lg">The organizations you buy GateKeeper licenses for, and when each renews.</Text>
        <Group gap="md">
          {mayViewRenewals ? (
            <Link className={ANCHOR_CLASS} to={customerUrls.renewals}>
              Every renewal ahead
            </Link>
          ) : null}
          {mayAdd ? <LinkButton to={customerUrls.create}>Add a customer</LinkButton> : null}
        </Group>
      </Group>
      <SearchForm
        name="Search customers"
        label="Search by name, contact email, license id or subscription id"
        query={search}
        allTo={customerUrls.list}
        width={420}
      />
      {customers.length === 0 ? (
        <Text>{search ? `No customer matches "${search}".` : "You have no customers yet."}</Text>
      ) : (
        <>
          <Table.ScrollContainer minWidth={800}>
            <Table striped withTableBorder aria-label="Customers">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th scope="col">Customer</Table.Th>
                  <Table.Th scope="col">Country</Table.Th>
                  <Table.Th scope="col">Technical contact</Table.Th>
                  <Table.Th scope="col">Licenses</Table.Th>
                  <Table.Th scope="col">Next renewal</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {customers.map((customer) => (
                  <Table.Row
                    key={customer.id}
                    cells={[
                      <Link key="name" className={ANCHOR_CLASS} to={customerUrls.page(customer.id)}>
                        {customer.name}
                      </Link>,
                      customer.country,
                      customer.contactName,
                      customer.licenses,
                      customer.nextRenewal
                        ? `${formatDate(customer.nextRenewal.on)}${customer.nextRenewal.amount === null ? "" : `, ${formatCents(customer.nextRenewal.amount)}`}`
                        : "—",
                    ]}
                  />
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
          <PageLinks
            page={page}
            pageCount={pages}
            pageSize={CUSTOMERS_PER_PAGE}
            total={total}
            href={(to) => customersHref(search, to)}
            label="Customers pages"
          />
        </>
      )}
    </Stack>
  );
}

export const ErrorBoundary = PageErrorBoundary;
