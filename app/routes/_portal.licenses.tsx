import { Anchor, Text } from "~/ui/typography";
import { portalNow } from "~/server/billing/index.server";
import { json, redirect, type LinksFunction, type LoaderFunctionArgs } from "@remix-run/node";
import { Outlet, useLoaderData, useNavigation } from "@remix-run/react";
import { formatCents, formatDate } from "~/domain/format";
import { shortLicenseKey } from "~/domain/license-status";
import { updateStepUrl } from "~/domain/license-update";
import { LICENSES_PER_PAGE, pageCount, requestedPage } from "~/domain/pagination";
import { managedNote, mayDo, requireMember, whyNot } from "~/server/accounts/access.server";
import { afterCheckoutUrls, type RenewalState } from "~/domain/renewals";
import { billingAccountOf } from "~/server/accounts/billing-accounts.server";
import { licensePage } from "~/server/subscriptions/licenses.server";
import { renewalNoticeViews } from "~/server/subscriptions/renewals.server";
import { GuardedLinkButton } from "~/ui/button";
import { Group, Stack } from "~/ui/layout";
import { licenseTermCells } from "~/ui/license-cells";
import { PageErrorBoundary, pageMeta } from "~/ui/page";
import { PageLinks } from "~/ui/page-links";
import { ANCHOR_CLASS, ROW_ACTIONS_CLASS } from "~/ui/plain-parts";
import { LIST_STYLES } from "~/ui/stylesheets";
import { RenewalNotices } from "~/ui/renewal-notices";
import { RenewButton } from "~/ui/renew-button";
import { Table } from "~/ui/table";

export const links: LinksFunction = () => LIST_STYLES;

export const handle = { title: "Licenses" };
export const meta = pageMeta("Licenses");

const pageHref = (page: number) => (page > 1 ? `/licenses?page=${page}` : "/licenses");

export async function loader({ request }: LoaderFunctionArgs) {
  const member = await requireMember(request);
  const page = requestedPage(new URL(request.url).searchParams.get("page"));
  if (page === null) throw redirect(pageHref(1));
  const now = await portalNow();
  const account = billingAccountOf(member.organization);
  const { total, licenses } = await licensePage(member.organization, page, LICENSES_PER_PAGE, now);
  const pages = pageCount(total, LICENSES_PER_PAGE);
  // A bookmarked page past the end (licenses were removed) shows the last one.
  if (page > pages) throw redirect(pageHref(pages));
  // What the member's role may do with them: a Viewer sees the list only.
  const mayDownload = mayDo(member, "licenses.download");
  const mayUpdate = mayDo(member, "licenses.update");
  const mayChangeAutoRenew = mayDo(member, "licenses.auto_renew");
  const mayPay = mayDo(member, "invoices.pay");
  const mayBuy = mayDo(member, "purchase");
  // A license a distributor bought for the organization is the distributor's to change: it says whom to ask.
  const managed = managedNote(member);
  return json({
    page,
    pages,
    total,
    // Whom an end customer asks to move to another reseller: GateKeeper staff move it, never the reseller.
    managedBy: member.managerName && { organization: member.organization.name, reseller: member.managerName },
    buyRefused: whyNot(member, "purchase"),
    // Failed renewals and what they cost are for the members who pay (an Owner or a Billing admin).
    notices: mayPay ? await renewalNoticeViews(account, now) : [],
    licenses: licenses.map((license) => {
      const { renewal } = license;
      const running = license.status === "active" && renewal?.kind !== "cancelled";
      return {
        id: license.id,
        key: shortLicenseKey(license.key),
        externalLicenseId: license.externalLicenseId,
        name: license.name,
        poNumber: license.poNumber,
        quoteNumber: license.quoteNumber,
        nodes: license.nodes,
        planType: license.planType,
        status: license.status,
        validFrom: license.validFrom.toISOString(),
        validTo: license.validTo.toISOString(),
        daysLeft: license.daysLeft,
        renewal: renewalView(renewal),
        downloadUrl: mayDownload ? `/licenses/${license.id}/download` : null,
        // Users are added to a running subscription: the owner's active recurring licenses (the wizard's URL).
        addUsersUrl:
          mayUpdate && license.type === "recurring" && license.subscriptionId && running
            ? updateStepUrl(license.subscriptionId, "product")
            : null,
        autoRenewUrl:
          mayChangeAutoRenew &&
          license.subscriptionId &&
          running &&
          (renewal?.kind === "renewing" || renewal?.kind === "auto_renew_off")
            ? afterCheckoutUrls.autoRenew(license.subscriptionId)
            : null,
        payUrl:
          mayPay && renewal?.kind === "payment_failed" && license.payableInvoiceId
            ? afterCheckoutUrls.payNow(license.payableInvoiceId)
            : null,
        // A recurring license whose subscription ended, and that has stopped, is bought again as a new one.
        renewUrl:
          mayBuy &&
          license.type === "recurring" &&
          license.status === "expired" &&
          (!renewal || renewal.kind === "cancelled")
            ? afterCheckoutUrls.renew(license.id)
            : null,
        managedNote: managed && license.type === "recurring" && license.ownerId !== account.ownerId ? managed : null,
        hubUploadProblem: license.hubUploadProblem,
      };
    }),
  });
}

/** Where a recurring license stands with its subscription, for its Renewal cell (dates as ISO strings). */
function renewalView(renewal: RenewalState | null) {
  if (!renewal) return null;
  switch (renewal.kind) {
    case "renewing":
      return { kind: renewal.kind, on: renewal.renewsOn?.toISOString() ?? null };
    case "payment_failed":
      return { kind: renewal.kind, on: renewal.stopsOn.toISOString(), amountDue: renewal.amountDue };
    case "auto_renew_off":
      return { kind: renewal.kind, on: renewal.lastDay.toISOString() };
    case "cancelled":
      return { kind: renewal.kind, on: renewal.endedOn.toISOString(), unpaid: renewal.unpaid };
  }
}

export default function Licenses() {
  const { licenses, page, pages, total, buyRefused, notices, managedBy } = useLoaderData<typeof loader>();
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
      {managedBy ? (
        <Text size="sm">
          {managedBy.organization} is managed by {managedBy.reseller}: they buy, renew and change its licenses. To move
          to another reseller, ask <Anchor to="/support">GateKeeper support</Anchor>: only GateKeeper staff move a
          customer.
        </Text>
      ) : null}
      <RenewalNotices
        notices={notices}
        renew={(notice) => <RenewButton to={notice.renewUrl} label={`Renew license ${notice.externalLicenseId}`} />}
      />
      {licenses.length === 0 ? (
        <Text>You have no licenses yet. Buy one in the Store or start a free trial.</Text>
      ) : (
        <>
          <Table.ScrollContainer minWidth={1100}>
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
                  <Table.Th scope="col">Renewal</Table.Th>
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
                      <OrganizationCell
                        key="organization"
                        name={license.name}
                        poNumber={license.poNumber}
                        quoteNumber={license.quoteNumber}
                      />,
                      <span key="plan" style={{ textTransform: "capitalize" }}>
                        {license.planType}
                      </span>,
                      license.nodes,
                      ...licenseTermCells(license),
                      <RenewalCell key="renewal" renewal={license.renewal} />,
                      <div key="actions">
                        <div className={ROW_ACTIONS_CLASS}>
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
                            <Anchor
                              to={license.addUsersUrl}
                              aria-label={`Add Users to license ${license.externalLicenseId}`}
                            >
                              Add Users
                            </Anchor>
                          ) : null}
                          {license.payUrl ? (
                            <Anchor to={license.payUrl} aria-label={`Pay now for license ${license.externalLicenseId}`}>
                              Pay now
                            </Anchor>
                          ) : null}
                          {license.autoRenewUrl ? (
                            <Anchor
                              to={license.autoRenewUrl}
                              preventScrollReset
                              aria-label={`${license.renewal?.kind === "auto_renew_off" ? "Turn on" : "Turn off"} auto-renew of license ${license.externalLicenseId}`}
                            >
                              {license.renewal?.kind === "auto_renew_off"
                                ? "Turn on auto-renew"
                                : "Turn off auto-renew"}
                            </Anchor>
                          ) : null}
                          {license.renewUrl ? (
                            <RenewButton
                              to={license.renewUrl}
                              label={`Renew license ${license.externalLicenseId}`}
                              variant="default"
                            />
                          ) : null}
                        </div>
                        {license.managedNote ? <Text size="sm">{license.managedNote}</Text> : null}
                        {license.hubUploadProblem ? (
                          <Text size="sm" c="red.9">
                            The new file is not on its Hub. {license.hubUploadProblem}
                          </Text>
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

type RenewalView = ReturnType<typeof useLoaderData<typeof loader>>["licenses"][number]["renewal"];

/**
 * Whom the license is for, with the quote it was ordered from and the purchase order number of the order that bought
 * or last changed it.
 */
function OrganizationCell({
  name,
  poNumber,
  quoteNumber,
}: {
  name: string;
  poNumber: string | null;
  quoteNumber: string | null;
}) {
  return (
    <>
      {name}
      {quoteNumber ? (
        <Text size="xs" c="dimmed">
          Quote {quoteNumber}
        </Text>
      ) : null}
      {poNumber ? (
        <Text size="xs" c="dimmed">
          PO number: {poNumber}
        </Text>
      ) : null}
    </>
  );
}

/** Where a recurring license stands with its subscription: when it renews, what a failed renewal asks, its last day. */
function RenewalCell({ renewal }: { renewal: RenewalView }) {
  if (!renewal) return <span className="gk-dimmed">—</span>;
  switch (renewal.kind) {
    case "renewing":
      return <>{renewal.on ? `Renews ${formatDate(renewal.on)}` : "Renews"}</>;
    case "payment_failed":
      return (
        <Text span c="red.9" fw={600}>
          Payment failed: {formatCents(renewal.amountDue)} due, stops {formatDate(renewal.on)}
        </Text>
      );
    case "auto_renew_off":
      return <>Auto-renew off: last day {formatDate(renewal.on)}</>;
    case "cancelled":
      return <>{renewal.unpaid ? "Cancelled: the renewal was not paid" : "Cancelled"}</>;
  }
}

export const ErrorBoundary = PageErrorBoundary;
