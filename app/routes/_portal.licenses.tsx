import { Text } from "~/ui/typography";
import { json, redirect, type LinksFunction, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Outlet, useLoaderData, useNavigation } from "@remix-run/react";
import { Link } from "~/ui/link";
import { shortLicenseKey } from "~/domain/license-status";
import { updateStepUrl } from "~/domain/license-update";
import { LICENSES_PER_PAGE, pageCount, requestedPage } from "~/domain/pagination";
import { mayDo, requireMember, whyNot } from "~/server/access.server";
import { licensePage } from "~/server/licenses.server";
import { GuardedLinkButton } from "~/ui/button";
import { Group, Stack } from "~/ui/layout";
import { licenseTermCells } from "~/ui/license-cells";
import { documentTitle, PageErrorBoundary } from "~/ui/page";
import { PageLinks } from "~/ui/page-links";
import { ANCHOR_CLASS, GROUP_CLASS, groupStyle } from "~/ui/plain-parts";
import { LIST_STYLES } from "~/ui/stylesheets";
import { Table } from "~/ui/table";

export const links: LinksFunction = () => LIST_STYLES;

export const handle = { title: "Licenses" };
export const meta: MetaFunction = () => documentTitle("Licenses");

const pageHref = (page: number) => (page > 1 ? `/licenses?page=${page}` : "/licenses");

export async function loader({ request }: LoaderFunctionArgs) {
  const member = await requireMember(request);
  const page = requestedPage(new URL(request.url).searchParams.get("page"));
  if (page === null) throw redirect(pageHref(1));
  const { total, licenses } = licensePage(member.organization.id, page, LICENSES_PER_PAGE);
  const pages = pageCount(total, LICENSES_PER_PAGE);
  // A bookmarked page past the end (licenses were removed) shows the last one.
  if (page > pages) throw redirect(pageHref(pages));
  // What the member's role may do with them: a Viewer sees the list only.
  const mayDownload = mayDo(member, "licenses.download");
  const mayUpdate = mayDo(member, "licenses.update");
  return json({
    page,
    pages,
    total,
    buyRefused: whyNot(member, "purchase"),
    licenses: licenses.map((license) => ({
      id: license.id,
      key: shortLicenseKey(license.key),
      externalLicenseId: license.externalLicenseId,
      name: license.name,
      nodes: license.nodes,
      planType: license.planType,
      status: license.status,
      validFrom: license.validFrom.toISOString(),
      validTo: license.validTo.toISOString(),
      daysLeft: license.daysLeft,
      downloadUrl: mayDownload ? `/licenses/${license.id}/download` : null,
      // Users are added to a running subscription: the owner's active recurring licenses (the wizard's URL).
      addUsersUrl:
        mayUpdate && license.type === "recurring" && license.subscriptionId && license.status === "active"
          ? updateStepUrl(license.subscriptionId, "product")
          : null,
    })),
  });
}

export default function Licenses() {
  const { licenses, page, pages, total, buyRefused } = useLoaderData<typeof loader>();
  const navigation = useNavigation();
  const openingUpdate = navigation.state === "loading" && /\/update\/product$/.test(navigation.location.pathname);
  return (
    <Stack gap="lg" maw={1200}>
      <Group justify="space-between">
        <Text size="lg">
          Your GateKeeper licenses. Download a license file and upload it to your Hub to activate it.
        </Text>
        <GuardedLinkButton to="/store" reason={buyRefused}>
          Buy a license
        </GuardedLinkButton>
      </Group>
      {licenses.length === 0 ? (
        <Text>You have no licenses yet. Buy one in the Store or start a free trial.</Text>
      ) : (
        <>
          <Table.ScrollContainer minWidth={900}>
            <Table striped withTableBorder>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th scope="col">License key</Table.Th>
                  <Table.Th scope="col">License id</Table.Th>
                  <Table.Th scope="col">Organization</Table.Th>
                  <Table.Th scope="col">Plan</Table.Th>
                  <Table.Th scope="col">Users</Table.Th>
                  <Table.Th scope="col">Status</Table.Th>
                  <Table.Th scope="col">Valid from</Table.Th>
                  <Table.Th scope="col">Valid to</Table.Th>
                  <Table.Th scope="col">Days left</Table.Th>
                  <Table.Th scope="col">Actions</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {licenses.map((license) => (
                  <Table.Row
                    key={license.id}
                    cells={[
                      <code key="key">{license.key}</code>,
                      license.externalLicenseId,
                      license.name,
                      <span key="plan" style={{ textTransform: "capitalize" }}>
                        {license.planType}
                      </span>,
                      license.nodes,
                      ...licenseTermCells(license),
                      <div key="actions" className={GROUP_CLASS} style={groupStyle("sm", "flex-start", "nowrap")}>
                        {/* A plain download: the browser saves the attachment, with or without JavaScript. */}
                        {license.downloadUrl ? (
                          <a
                            className={ANCHOR_CLASS}
                            data-underline="hover"
                            href={license.downloadUrl}
                            download
                            aria-label={`Download license ${license.externalLicenseId}`}
                          >
                            Download
                          </a>
                        ) : null}
                        {license.addUsersUrl ? (
                          <Link
                            className={ANCHOR_CLASS}
                            data-underline="hover"
                            to={license.addUsersUrl}
                            aria-label={`Add Users to license ${license.externalLicenseId}`}
                          >
                            Add Users
                          </Link>
                        ) : null}
                      </div>,
                    ]}
                  />
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
          <PageLinks
            page={page}
            pageCount={pages}
            pageSize={LICENSES_PER_PAGE}
            total={total}
            href={pageHref}
            label="Licenses pages"
          />
        </>
      )}
      {openingUpdate ? (
        <Text role="status" size="sm">
          Loading subscription data...
        </Text>
      ) : null}
      {/* The update wizard and its progress open over the list. */}
      <Outlet />
    </Stack>
  );
}

export const ErrorBoundary = PageErrorBoundary;
