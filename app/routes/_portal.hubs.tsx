import { Button } from "@mantine-parts/components/Button/Button.mjs";
import { Group } from "@mantine-parts/components/Group/Group.mjs";
import { Stack } from "@mantine-parts/components/Stack/Stack.mjs";
import { Table } from "@mantine-parts/components/Table/Table.mjs";
import { Text } from "@mantine-parts/components/Text/Text.mjs";
import { json, redirect, type LinksFunction, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Link, Outlet, useLoaderData } from "@remix-run/react";
import { cloudHubStepUrl } from "~/domain/cloud-hub-steps";
import { formatDate } from "~/domain/format";
import { requireUser } from "~/server/auth.server";
import { pageCount, requestedPage } from "~/domain/pagination";
import { hubInstallationPage } from "~/server/licenses.server";
import { documentTitle, PageErrorBoundary } from "~/ui/page";
import { PageLinks } from "~/ui/page-links";
import { DATA_STYLES } from "~/ui/stylesheets";

export const links: LinksFunction = () => [DATA_STYLES];

export const handle = { title: "GateKeeper Hub Deployments" };
export const meta: MetaFunction = () => documentTitle("GateKeeper Hub Deployments");

/** Spec 001 §2: the Hubs table shows 10 rows per page. */
const HUBS_PER_PAGE = 10;
const pageHref = (page: number) => (page > 1 ? `/hubs?page=${page}` : "/hubs");

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  // Support's link /hubs?new=true opens the create-cloud-Hub wizard (spec 001 §2), and the query is dropped.
  const url = new URL(request.url);
  if (url.pathname === "/hubs" && url.searchParams.get("new") === "true") {
    const license = url.searchParams.get("license");
    throw redirect(`${cloudHubStepUrl("url")}${license ? `?${new URLSearchParams({ license })}` : ""}`);
  }
  const page = requestedPage(url.searchParams.get("page"));
  if (page === null) throw redirect(pageHref(1));
  const { total, hubs } = hubInstallationPage(user.id, page, HUBS_PER_PAGE);
  const pages = pageCount(total, HUBS_PER_PAGE);
  // A bookmarked page past the end (Hubs were removed) shows the last one.
  if (page > pages) throw redirect(pageHref(pages));
  return json({
    page,
    pages,
    total,
    hubs: hubs.map((hub) => ({
      id: hub.id,
      type: hub.type === "cloud" ? "Cloud" : "On-Premise",
      address: hub.url ?? hub.ip ?? "",
      lastSeen: hub.lastSeen?.toISOString() ?? null,
      version: hub.version ?? "",
      computers: hub.computers,
      users: `${hub.users}/${hub.maxUsers}`,
    })),
  });
}

export default function Hubs() {
  const { hubs, page, pages, total } = useLoaderData<typeof loader>();
  return (
    <Stack gap="lg" maw={1200}>
      <Group justify="space-between">
        <Text size="lg">The GateKeeper Hubs registered to you, hosted in our cloud or on your own server.</Text>
        <Button component={Link} to={cloudHubStepUrl("url")}>
          Cloud GateKeeper Hub Deployment
        </Button>
      </Group>
      {hubs.length === 0 ? (
        <Text>No Hub is registered to you yet.</Text>
      ) : (
        <Table.ScrollContainer minWidth={700}>
          <Table striped withTableBorder>
            <Table.Thead>
              <Table.Tr>
                <Table.Th scope="col">Type</Table.Th>
                <Table.Th scope="col">URL/IP</Table.Th>
                <Table.Th scope="col">Synced</Table.Th>
                <Table.Th scope="col">Version</Table.Th>
                <Table.Th scope="col">Computers</Table.Th>
                <Table.Th scope="col">Users</Table.Th>
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
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      {total > 0 ? (
        <PageLinks page={page} pageCount={pages} pageSize={HUBS_PER_PAGE} total={total} href={pageHref} label="Hub deployments pages" />
      ) : null}
      <Outlet />
    </Stack>
  );
}

export const ErrorBoundary = PageErrorBoundary;
