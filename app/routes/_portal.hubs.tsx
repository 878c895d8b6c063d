import { Anchor, Text } from "~/ui/typography";
import { json, redirect, type LinksFunction, type LoaderFunctionArgs } from "@remix-run/node";
import { Outlet, useLoaderData } from "@remix-run/react";
import { Link } from "~/ui/link";
import { cloudHubStepUrl } from "~/domain/cloud-hub-steps";
import { formatDate } from "~/domain/format";
import {
  HUB_TYPE_LABELS,
  HUBS_PER_PAGE,
  hubsHref,
  hubsSearch,
  requestedHubType,
  type HubsQuery,
  type HubType,
} from "~/domain/hubs";
import { pageCount, requestedPage } from "~/domain/pagination";
import { requireMember, whyNot } from "~/server/accounts/access.server";
import { hubInstallationPage } from "~/server/cloud-hubs/hub-installations.server";
import { GuardedLinkButton } from "~/ui/button";
import { FilterLinks } from "~/ui/filter-links";
import { Group, Stack } from "~/ui/layout";
import { PageErrorBoundary, pageMeta } from "~/ui/page";
import { PageLinks } from "~/ui/page-links";
import { LIST_STYLES } from "~/ui/stylesheets";
import { Table } from "~/ui/table";

export const links: LinksFunction = () => LIST_STYLES;

export const handle = { title: "GateKeeper Hub Deployments" };
export const meta = pageMeta("GateKeeper Hub Deployments");

/** A figure counted this month and this year, as the table shows it. */
const monthYear = (month: number, year: number) => `${month.toLocaleString("en-US")}/${year.toLocaleString("en-US")}`;

export async function loader({ request }: LoaderFunctionArgs) {
  const member = await requireMember(request);
  // Support's link /hubs?new=true opens the create-cloud-Hub wizard, and the query is dropped.
  const url = new URL(request.url);
  if (url.pathname === "/hubs" && url.searchParams.get("new") === "true") {
    const license = url.searchParams.get("license");
    throw redirect(`${cloudHubStepUrl("url")}${license ? `?${new URLSearchParams({ license })}` : ""}`);
  }
  const type = requestedHubType(url.searchParams.get("type"));
  const page = requestedPage(url.searchParams.get("page"));
  if (type === null || page === null) throw redirect(hubsHref({ type: type ?? "all", page: 1 }));
  const { total, hubs } = await hubInstallationPage(member.organization, type, page, HUBS_PER_PAGE);
  const pages = pageCount(total, HUBS_PER_PAGE);
  // A bookmarked page past the end (Hubs were removed) shows the last one.
  if (page > pages) throw redirect(hubsHref({ type, page: pages }));
  const query: HubsQuery = { type, page };
  return json({
    query,
    pages,
    total,
    deployRefused: whyNot(member, "hubs.deploy"),
    hubs: hubs.map((hub) => ({
      id: hub.id,
      type: HUB_TYPE_LABELS[hub.type],
      address: hub.url ?? hub.ip ?? "",
      lastSeen: hub.lastSeen?.toISOString() ?? null,
      version: hub.version ?? "",
      computers: hub.computers,
      users: `${hub.users}/${hub.maxUsers}`,
      tokens: hub.devices,
      passwords: hub.credentials,
      locks: monthYear(hub.locksThisMonth, hub.locksThisYear),
      unlocks: monthYear(hub.unlocksThisMonth, hub.unlocksThisYear),
      web: monthYear(hub.webCredentialsUsedThisMonth, hub.webCredentialsUsedThisYear),
      // The modal opens over this very view of the table, and closes back to it.
      licensesUrl: `/hubs/${encodeURIComponent(hub.id)}/licenses${hubsSearch(query)}`,
      // A license's new file the portal could not upload to this Hub: why, and the file to upload by hand.
      notUploaded: hub.notUploadedLicenseId
        ? { message: hub.notUploadedMessage ?? "", downloadUrl: `/licenses/${hub.notUploadedLicenseId}/download` }
        : null,
    })),
  });
}

const TYPE_FILTERS: { value: HubType | "all"; label: string }[] = [
  { value: "all", label: "All" },
  { value: "cloud", label: HUB_TYPE_LABELS.cloud },
  { value: "local", label: HUB_TYPE_LABELS.local },
];

/** A column counted this month and this year: the header says which figure is which. */
function MonthYearHeader({ children }: { children: string }) {
  return (
    <Table.Th scope="col">
      {children}{" "}
      <Text span size="xs">
        (month/year)
      </Text>
    </Table.Th>
  );
}

function AboutPanel() {
  return (
    <details className="gk-about-panel">
      <summary>About GateKeeper Hub deployments</summary>
      <Stack gap="xs" mt="sm">
        <Text size="sm">
          The GateKeeper Hub is the server your computers, tokens and USB sensors talk to. Run it in our cloud, or{" "}
          <Anchor to="/software/hub">download the Hub software</Anchor> and install it on your own server.
        </Text>
        <Text size="sm">
          Every Hub needs a license: buy tokens, sensors and licenses in the <Anchor to="/store">Store</Anchor>,
          download license files from the <Anchor to="/licenses">Licenses page</Anchor>, and ask us anything on the{" "}
          <Anchor to="/support">Support page</Anchor>.
        </Text>
      </Stack>
    </details>
  );
}

export default function Hubs() {
  const { hubs, query, pages, total, deployRefused } = useLoaderData<typeof loader>();
  return (
    <Stack gap="lg" maw={1400}>
      <Group justify="space-between">
        <Text size="lg">The GateKeeper Hubs registered to you, hosted in our cloud or on your own server.</Text>
        <GuardedLinkButton to={cloudHubStepUrl("url")} reason={deployRefused}>
          Cloud GateKeeper Hub Deployment
        </GuardedLinkButton>
      </Group>
      <AboutPanel />
      <FilterLinks
        label="Type"
        options={TYPE_FILTERS}
        current={query.type}
        href={(type) => hubsHref({ type, page: 1 })}
      />
      {hubs.length === 0 ? (
        <Text>
          {query.type === "all"
            ? "No Hub is registered to you yet."
            : `You have no ${HUB_TYPE_LABELS[query.type]} Hub.`}
        </Text>
      ) : (
        <Table.ScrollContainer minWidth={1100}>
          <Table striped withTableBorder horizontalSpacing="xs" aria-label="Hub deployments">
            <Table.Thead>
              <Table.Tr>
                <Table.Th scope="col">Type</Table.Th>
                <Table.Th scope="col">URL/IP</Table.Th>
                <Table.Th scope="col">Synced</Table.Th>
                <Table.Th scope="col">Version</Table.Th>
                <Table.Th scope="col">Computers</Table.Th>
                <Table.Th scope="col">Users</Table.Th>
                <Table.Th scope="col">Tokens</Table.Th>
                <Table.Th scope="col">Passwords</Table.Th>
                <MonthYearHeader>Locks</MonthYearHeader>
                <MonthYearHeader>Unlocks</MonthYearHeader>
                <MonthYearHeader>Web</MonthYearHeader>
                <Table.Th scope="col">
                  <span className="gk-visually-hidden">Actions</span>
                </Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {hubs.map((hub) => (
                <Table.Tr key={hub.id}>
                  <Table.Td>{hub.type}</Table.Td>
                  <Table.Td>{hub.address}</Table.Td>
                  <Table.Td>{hub.lastSeen ? formatDate(hub.lastSeen) : "Never"}</Table.Td>
                  <Table.Td>{hub.version}</Table.Td>
                  <Table.Td>{hub.computers}</Table.Td>
                  <Table.Td>{hub.users}</Table.Td>
                  <Table.Td>{hub.tokens}</Table.Td>
                  <Table.Td>{hub.passwords}</Table.Td>
                  <Table.Td>{hub.locks}</Table.Td>
                  <Table.Td>{hub.unlocks}</Table.Td>
                  <Table.Td>{hub.web}</Table.Td>
                  <Table.Td>
                    {/* A plain Link styled as the portal's links: one Mantine component less per row. */}
                    <Link to={hub.licensesUrl} preventScrollReset className="gk-link gk-nowrap">
                      View Licenses
                    </Link>
                    {hub.notUploaded ? (
                      <p className="gk-hub-upload-problem" role="alert">
                        {hub.notUploaded.message}{" "}
                        <a href={hub.notUploaded.downloadUrl} download className="gk-link">
                          Download the license file
                        </a>
                      </p>
                    ) : null}
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      {total > 0 ? (
        <PageLinks
          page={query.page}
          pageCount={pages}
          pageSize={HUBS_PER_PAGE}
          total={total}
          href={(page) => hubsHref({ ...query, page })}
          label="Hub deployments pages"
        />
      ) : null}
      <Outlet />
    </Stack>
  );
}

export const ErrorBoundary = PageErrorBoundary;
