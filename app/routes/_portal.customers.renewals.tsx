import type { LinksFunction, LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { customerUrls, movedCustomerName, RENEWAL_WINDOWS, renewalsCsvHref, renewalsHref } from "~/domain/customers";
import { formatCents, formatDate } from "~/domain/format";
import { renewalsPage } from "~/server/resellers/renewals.server";
import { Group, Stack } from "~/ui/layout";
import { Link } from "~/ui/link";
import { PageErrorBoundary, pageMeta } from "~/ui/page";
import { RowPageLinks } from "~/ui/row-page-links";
import { ANCHOR_CLASS, ROW_ACTIONS_CLASS } from "~/ui/plain-parts";
import { LIST_STYLES } from "~/ui/stylesheets";
import { Table } from "~/ui/table";
import { Text } from "~/ui/typography";

export const links: LinksFunction = () => LIST_STYLES;
export const handle = { title: "Renewals" };
export const meta = pageMeta("Renewals");

export const loader = ({ request }: LoaderFunctionArgs) => renewalsPage(request);

/**
 * Every renewal of the distributor's customers' licenses in the next 30, 60 or 90 days: the window and the pages
 * are links, so they are bookmarked and work without JavaScript, and the same rows download as CSV. A page links to
 * the pages beside it by their rows (it counts no window), so any page costs what the first does.
 */
export default function Renewals() {
  const { within, card, earlierHref, laterHref, renewals } = useLoaderData<typeof loader>();
  return (
    <Stack gap="lg" maw={1200}>
      <Text size="lg">
        The licenses you bought for your customers that renew or end in the next {within} days.{" "}
        {card ? `Renewals are charged to your ${card}.` : "You have no card on file to charge renewals to."}
      </Text>
      <nav aria-label="Renewals ahead">
        <Group gap="md">
          {RENEWAL_WINDOWS.map((days) =>
            days === within ? (
              <Text key={days} fw={700} aria-current="page">
                Next {days} days
              </Text>
            ) : (
              <Link key={days} className={ANCHOR_CLASS} to={renewalsHref(days)}>
                Next {days} days
              </Link>
            ),
          )}
          <a className={ANCHOR_CLASS} href={renewalsCsvHref(within)} download>
            Download as CSV
          </a>
        </Group>
      </nav>
      {renewals.length === 0 ? (
        <Text>No license of your customers renews or ends in the next {within} days.</Text>
      ) : (
        <>
          <Table.ScrollContainer minWidth={1000}>
            <Table striped withTableBorder aria-label="Renewals">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th scope="col">Customer</Table.Th>
                  <Table.Th scope="col">License</Table.Th>
                  <Table.Th scope="col">Plan</Table.Th>
                  <Table.Th scope="col">Users</Table.Th>
                  <Table.Th scope="col">Date</Table.Th>
                  <Table.Th scope="col">Amount</Table.Th>
                  <Table.Th scope="col">Auto-renew</Table.Th>
                  <Table.Th scope="col">Actions</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {renewals.map((renewal) => (
                  <Table.Row
                    key={renewal.externalLicenseId}
                    cells={[
                      renewal.customer.moved ? (
                        movedCustomerName(renewal.customer.name)
                      ) : (
                        <Link key="customer" className={ANCHOR_CLASS} to={customerUrls.page(renewal.customer.id)}>
                          {renewal.customer.name}
                        </Link>
                      ),
                      renewal.externalLicenseId,
                      renewal.plan,
                      renewal.users,
                      `${renewal.renews ? "Renews" : "Ends"} ${formatDate(renewal.on)}`,
                      renewal.amount === null ? "—" : formatCents(renewal.amount),
                      renewal.renews ? "On" : "Off",
                      <div key="actions" className={ROW_ACTIONS_CLASS}>
                        {renewal.addUsersUrl ? (
                          <Link
                            className={ANCHOR_CLASS}
                            to={renewal.addUsersUrl}
                            aria-label={`Add Users to license ${renewal.externalLicenseId}`}
                          >
                            Add Users
                          </Link>
                        ) : null}
                        {renewal.autoRenewUrl ? (
                          <Link
                            className={ANCHOR_CLASS}
                            to={renewal.autoRenewUrl}
                            aria-label={`Turn ${renewal.renews ? "off" : "on"} auto-renew of license ${renewal.externalLicenseId}`}
                          >
                            {renewal.renews ? "Turn off auto-renew" : "Turn on auto-renew"}
                          </Link>
                        ) : null}
                      </div>,
                    ]}
                  />
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
          <RowPageLinks earlierHref={earlierHref} laterHref={laterHref} label="Renewals pages" />
        </>
      )}
    </Stack>
  );
}

export const ErrorBoundary = PageErrorBoundary;
