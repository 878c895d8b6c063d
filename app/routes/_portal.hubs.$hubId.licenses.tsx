import { Anchor, Text } from "~/ui/typography";
import { portalNow } from "~/server/billing/index.server";
import { json, redirect, type LinksFunction, type LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import {
  DEFAULT_HUB_LICENSES_QUERY,
  HUB_LICENSES_PER_PAGE,
  hubLicensesSearch,
  hubsSearch,
  requestedHubLicenses,
  requestedHubType,
  sortedBy,
  type HubLicenseSort,
  type HubLicensesQuery,
  type LicenseStatusFilter,
} from "~/domain/hubs";
import { shortLicenseKey } from "~/domain/license-status";
import { pageCount, requestedPage } from "~/domain/pagination";
import { requireMember } from "~/server/accounts/access.server";
import { hubLicensePage, ownsHubInstallation } from "~/server/cloud-hubs/hub-installations.server";
import { LinkButton } from "~/ui/button";
import { FilterLinks } from "~/ui/filter-links";
import { Stack } from "~/ui/layout";
import { licenseTermCells } from "~/ui/license-cells";
import { PageErrorBoundary } from "~/ui/page";
import { PageLinks } from "~/ui/page-links";
import { RouteModal } from "~/ui/route-dialogs";
import { FORM_STYLES } from "~/ui/stylesheets";
import { Table } from "~/ui/table";

export const links: LinksFunction = () => FORM_STYLES;

/**
 * 'Licenses for this Hub deployment': a modal route over the Hubs table, which stays as it
 * was underneath (its own query is kept in every link). Sorting, the Status filter and paging are links.
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const member = await requireMember(request);
  const hubId = params.hubId ?? "";
  if (!(await ownsHubInstallation(member.organization.id, hubId)))
    throw json({ message: "There is no such Hub deployment." }, { status: 404 });
  const search = new URL(request.url).searchParams;
  // The Hubs page checks its own query; here it is only carried along.
  const hubs = { type: requestedHubType(search.get("type")) ?? "all", page: requestedPage(search.get("page")) ?? 1 };
  const base = `/hubs/${encodeURIComponent(hubId)}/licenses`;
  const query = requestedHubLicenses(search, requestedPage);
  if (query === null) throw redirect(`${base}${hubLicensesSearch(hubs, DEFAULT_HUB_LICENSES_QUERY)}`);
  const { total, licenses } = await hubLicensePage(
    member.organization.id,
    hubId,
    query,
    HUB_LICENSES_PER_PAGE,
    await portalNow(),
  );
  const pages = pageCount(total, HUB_LICENSES_PER_PAGE);
  if (query.page > pages) throw redirect(`${base}${hubLicensesSearch(hubs, { ...query, page: pages })}`);
  return json({
    base,
    hubs,
    query,
    pages,
    total,
    closeTo: `/hubs${hubsSearch(hubs)}`,
    licenses: licenses.map((license) => ({
      id: license.id,
      key: shortLicenseKey(license.key),
      name: license.name,
      nodes: license.nodes,
      status: license.status,
      validFrom: license.validFrom.toISOString(),
      validTo: license.validTo.toISOString(),
      daysLeft: license.daysLeft,
    })),
  });
}

const STATUS_FILTERS: { value: LicenseStatusFilter; label: string }[] = [
  { value: "all", label: "All" },
  { value: "active", label: "Active" },
  { value: "expired", label: "Expired" },
];

const COLUMNS: { sort: HubLicenseSort; title: string }[] = [
  { sort: "name", title: "Organization Name" },
  { sort: "nodes", title: "Users" },
  { sort: "status", title: "Status" },
  { sort: "validFrom", title: "Valid From" },
  { sort: "validTo", title: "Valid To" },
  { sort: "daysLeft", title: "Days Left" },
];

/** A sortable column's header: a link that sorts by it (or the other way), and aria-sort while it does. */
function SortHeader({
  column,
  query,
  href,
}: {
  column: (typeof COLUMNS)[number];
  query: HubLicensesQuery;
  href: (query: HubLicensesQuery) => string;
}) {
  const sorted = query.sort === column.sort ? query.direction : null;
  return (
    <Table.Th scope="col" aria-sort={sorted === null ? undefined : sorted === "asc" ? "ascending" : "descending"}>
      <Anchor to={href(sortedBy(query, column.sort))} preventScrollReset>
        {column.title}
        {sorted ? <span aria-hidden="true">{sorted === "asc" ? " ▲" : " ▼"}</span> : null}
      </Anchor>
    </Table.Th>
  );
}

export default function HubLicenses() {
  const { base, hubs, query, pages, total, closeTo, licenses } = useLoaderData<typeof loader>();
  const href = (next: HubLicensesQuery) => `${base}${hubLicensesSearch(hubs, next)}`;
  const empty = total === 0 && query.status === "all";
  return (
    <RouteModal title="Licenses for this Hub deployment" closeTo={closeTo} size={900}>
      {empty ? (
        <Stack gap="sm" align="flex-start">
          <Text fw={500}>This Hub deployment has no license.</Text>
          <Text size="sm">
            Download a license file from the <Anchor to="/licenses">Licenses page</Anchor> and upload it to your Hub, or
            buy a new license.
          </Text>
          <LinkButton to="/store">Purchase GateKeeper License</LinkButton>
        </Stack>
      ) : (
        <Stack gap="md">
          <FilterLinks
            label="Status"
            options={STATUS_FILTERS}
            current={query.status}
            href={(status) => href({ ...query, status, page: 1 })}
          />
          <Table.ScrollContainer minWidth={760}>
            <Table striped withTableBorder aria-label="Hub licenses">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th scope="col">License Key</Table.Th>
                  {COLUMNS.map((column) => (
                    <SortHeader key={column.sort} column={column} query={query} href={href} />
                  ))}
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {licenses.map((license) => (
                  <Table.Row
                    key={license.id}
                    cells={[
                      <code key="key">{license.key}</code>,
                      license.name,
                      license.nodes,
                      ...licenseTermCells(license),
                    ]}
                  />
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
          {licenses.length === 0 ? <Text size="sm">No license of this Hub deployment is {query.status}.</Text> : null}
          <PageLinks
            page={query.page}
            pageCount={pages}
            pageSize={HUB_LICENSES_PER_PAGE}
            total={total}
            href={(page) => href({ ...query, page })}
            label="Hub licenses pages"
          />
        </Stack>
      )}
    </RouteModal>
  );
}

export const ErrorBoundary = PageErrorBoundary;
