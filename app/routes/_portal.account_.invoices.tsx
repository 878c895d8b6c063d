import { json, redirect, type LinksFunction, type LoaderFunctionArgs } from "@remix-run/node";
import { portalNow } from "~/server/billing/index.server";
import { Outlet, useLoaderData } from "@remix-run/react";
import { formatCents, formatDate } from "~/domain/format";
import { INVOICES_PER_PAGE, pageCount, requestedPage } from "~/domain/pagination";
import { afterCheckoutUrls } from "~/domain/renewals";
import { mayDo, requireMember } from "~/server/accounts/access.server";
import { billingAccountOf } from "~/server/accounts/billing-accounts.server";
import { invoicePage } from "~/server/subscriptions/invoices.server";
import { renewalNoticeViews } from "~/server/subscriptions/renewals.server";
import { Badge } from "~/ui/badge";
import { Group, Stack } from "~/ui/layout";
import { PageErrorBoundary, pageMeta } from "~/ui/page";
import { PageLinks } from "~/ui/page-links";
import { ANCHOR_CLASS, ROW_ACTIONS_CLASS } from "~/ui/plain-parts";
import { RenewalNotices } from "~/ui/renewal-notices";
import { RenewButton } from "~/ui/renew-button";
import { LIST_STYLES } from "~/ui/stylesheets";
import { ACCESSIBLE_GREEN } from "~/ui/theme";
import { Table } from "~/ui/table";
import { Anchor, Text } from "~/ui/typography";

export const links: LinksFunction = () => LIST_STYLES;

export const handle = { title: "Invoices" };
export const meta = pageMeta("Invoices");

const pageHref = (page: number) =>
  page > 1 ? `${afterCheckoutUrls.invoices}?page=${page}` : afterCheckoutUrls.invoices;

/**
 * Every invoice of the organization, newest first, ten a page behind plain `?page=` links, each with its PDF: for
 * an Owner or a Billing admin.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const member = await requireMember(request, "billing.manage");
  const mayPay = mayDo(member, "invoices.pay");
  const mayCorrect = mayDo(member, "invoices.correct");
  const page = requestedPage(new URL(request.url).searchParams.get("page"));
  if (page === null) throw redirect(pageHref(1));
  const account = billingAccountOf(member.organization);
  const { total, invoices } = await invoicePage(account, page, INVOICES_PER_PAGE);
  const pages = pageCount(total, INVOICES_PER_PAGE);
  if (page > pages) throw redirect(pageHref(pages));
  return json({
    page,
    pages,
    total,
    notices: mayPay ? await renewalNoticeViews(account, await portalNow()) : [],
    invoices: invoices.map((invoice) => ({
      ...invoice,
      date: invoice.date.toISOString(),
      pdfUrl: afterCheckoutUrls.invoicePdf(invoice.id),
      payUrl: mayPay && invoice.payable ? afterCheckoutUrls.payNow(invoice.id) : null,
      correctUrl: mayCorrect ? afterCheckoutUrls.correctInvoice(invoice.id) : null,
    })),
  });
}

const STATUS_COLORS = {
  Paid: ACCESSIBLE_GREEN,
  "Payment due": "red.9",
  "Not paid": "red.9",
  Voided: "gray.7",
} as const;

export default function Invoices() {
  const { invoices, page, pages, total, notices } = useLoaderData<typeof loader>();
  return (
    <Stack gap="lg" maw={1100}>
      <Group justify="space-between">
        <Text size="lg">Every invoice of your account, newest first. Download each as a PDF.</Text>
        <Anchor to="/account">Payment method and billing profile</Anchor>
      </Group>
      <RenewalNotices
        notices={notices}
        renew={(notice) => <RenewButton to={notice.renewUrl} label={`Renew license ${notice.externalLicenseId}`} />}
      />
      {invoices.length === 0 ? (
        <Text>You have no invoices yet. Each purchase, renewal and update of a license makes one.</Text>
      ) : (
        <>
          <Table.ScrollContainer minWidth={800}>
            <Table striped withTableBorder aria-label="Invoices">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th scope="col">Number</Table.Th>
                  <Table.Th scope="col">Date</Table.Th>
                  <Table.Th scope="col">For</Table.Th>
                  <Table.Th scope="col">Amount</Table.Th>
                  <Table.Th scope="col">Amount due</Table.Th>
                  <Table.Th scope="col">Status</Table.Th>
                  <Table.Th scope="col">Actions</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {invoices.map((invoice) => (
                  <Table.Row
                    key={invoice.id}
                    cells={[
                      invoice.revision > 1 ? (
                        <span key="number">
                          {invoice.number} <Badge variant="light">{`Corrected: revision ${invoice.revision}`}</Badge>
                        </span>
                      ) : (
                        invoice.number
                      ),
                      formatDate(invoice.date),
                      invoice.for,
                      formatCents(invoice.total),
                      formatCents(invoice.amountDue),
                      <Badge key="status" color={STATUS_COLORS[invoice.status]} variant="filled">
                        {invoice.status}
                      </Badge>,
                      <div key="actions" className={ROW_ACTIONS_CLASS}>
                        {/* A plain download: the browser saves the PDF, with or without JavaScript. */}
                        <a
                          className={ANCHOR_CLASS}
                          data-underline="hover"
                          href={invoice.pdfUrl}
                          download
                          aria-label={`Download invoice ${invoice.number} as a PDF`}
                        >
                          PDF
                        </a>
                        {invoice.payUrl ? (
                          <Anchor to={invoice.payUrl} aria-label={`Pay now invoice ${invoice.number}`}>
                            Pay now
                          </Anchor>
                        ) : null}
                        {invoice.correctUrl ? (
                          <Anchor to={invoice.correctUrl} aria-label={`Correct invoice ${invoice.number}`}>
                            Correct
                          </Anchor>
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
            pageSize={INVOICES_PER_PAGE}
            total={total}
            href={pageHref}
            label="Invoices pages"
          />
        </>
      )}
      {/* Pay now, its progress and the correction open over the list. */}
      <Outlet />
    </Stack>
  );
}

export const ErrorBoundary = PageErrorBoundary;
