import { and, desc, eq, sql, type Column } from "drizzle-orm";
import { invoiceForOf, invoiceStatusLabel, isPayable } from "~/domain/renewals";
import { invoices, organizationCounts, trials } from "~/server/platform/database/tables.server";
import { getBilling, ProviderError, type InvoicePdf } from "~/server/billing/index.server";
import type { BillingAccount } from "~/server/accounts/index.server";
import { db } from "~/server/platform/database/db.server";

/**
 * The account's invoices for /account/invoices: the portal's own copy of them (kept by the provider's events and
 * the reconciliation), paged in SQL newest first like the licenses, so an account with years of invoices costs
 * what one with a few does. The PDF is the provider's, for an invoice of the account's own copy only.
 */

/** The account's invoice with this id from its copy, or null (another account's is never found). */
export async function ownInvoice(account: BillingAccount, invoiceId: string) {
  const [row] = await db
    .select()
    .from(invoices)
    .where(and(eq(invoices.id, invoiceId), eq(invoices.ownerId, account.ownerId)));
  return row ?? null;
}

/**
 * The unpaid renewal of a subscription that its customer can pay now (the newest, if several), as a subquery of a
 * row that has the subscription's id and its owner. The owner is compared as an expression so that the database
 * finds the invoice by the (subscription, status, date) index, newest first without a sort, and not by the
 * (owner, date) one, which would read every invoice the account ever had. Only for a select that joins tables: in a
 * select of one table drizzle leaves columns unqualified, and the subquery's would name the invoice's own.
 */
export const payableInvoiceIdOf = (subscriptionId: Column, ownerId: Column) => sql<string | null>`(select ${invoices.id}
  from ${invoices}
  where ${invoices.subscriptionId} = ${subscriptionId} and ${invoices.status} = 'payment_due'
    and ${invoices.amountDue} > 0 and coalesce(${invoices.ownerId}, '') = ${ownerId}
  order by ${invoices.date} desc limit 1)`;

// Prepared once: the invoices page reads its total and one page on every visit. The total is one row of
// organization_counts, kept by triggers (decision 192), not a count; the page comes off the (owner, date, id) index.
const invoiceTotalOf = db
  .select({ total: organizationCounts.invoices })
  .from(organizationCounts)
  .where(eq(organizationCounts.organizationId, sql.placeholder("ownerId")))
  .prepare("invoice_total_of");
const ownInvoicesNewestFirst = db
  .select({
    id: invoices.id,
    number: invoices.number,
    date: invoices.date,
    purpose: invoices.purpose,
    status: invoices.status,
    total: invoices.total,
    amountDue: invoices.amountDue,
    revision: invoices.revision,
    // A one-time invoice a trial bought its hardware with (a boolean on PostgreSQL, 0 or 1 on SQLite).
    trialHardware: sql<boolean | number>`exists (select 1 from ${trials}
      where ${eq(trials.hardwareInvoiceId, invoices.id)})`,
  })
  .from(invoices)
  .where(eq(invoices.ownerId, sql.placeholder("ownerId")))
  .orderBy(desc(invoices.date), desc(invoices.id))
  .limit(sql.placeholder("limit"))
  .offset(sql.placeholder("offset"))
  .prepare("own_invoices_newest_first");

/** One page of the account's invoices, newest first, with what each was for and its status in the page's words. */
export async function invoicePage(account: BillingAccount, page: number, pageSize: number) {
  const [counted] = await invoiceTotalOf.execute({ ownerId: account.ownerId });
  const total = counted?.total ?? 0;
  const rows = await ownInvoicesNewestFirst.execute({
    ownerId: account.ownerId,
    limit: pageSize,
    offset: (page - 1) * pageSize,
  });
  return {
    total,
    invoices: rows.map((row) => ({
      id: row.id,
      number: row.number,
      date: row.date,
      for: invoiceForOf(row.purpose, Boolean(row.trialHardware)),
      total: row.total,
      amountDue: row.amountDue,
      status: invoiceStatusLabel(row.status),
      payable: isPayable(row),
      revision: row.revision,
    })),
  };
}

/**
 * The account's invoice as a PDF, as its provider gives it: the document itself (the embedded engine renders it)
 * or an address to download it from for a while (Chargebee). Null for an invoice not the account's.
 */
export async function invoicePdfOf(account: BillingAccount, invoiceId: string, revision?: number) {
  const invoice = await ownInvoice(account, invoiceId);
  if (!invoice || !account.customerId) return null;
  return getBilling().invoicePdf(account.customerId, invoice.id, revision);
}

/**
 * The answer of the PDF's address: the embedded engine's document as an attachment, or a redirect to Chargebee's
 * download address (valid for a while, and only given to the invoice's own account); 404 for another account's
 * invoice or a revision the provider does not keep, 503 when the provider cannot give it now. `revision` asks for
 * an earlier revision of a corrected invoice.
 */
export async function invoicePdfResponse(
  account: BillingAccount,
  invoiceId: string,
  revision?: number,
): Promise<Response> {
  let pdf: InvoicePdf | null;
  try {
    pdf = await invoicePdfOf(account, invoiceId, revision);
  } catch (error) {
    if (!(error instanceof ProviderError)) throw error;
    // An earlier revision the provider does not keep is no document at all.
    if (error.code === "not_found") return new Response("Not Found", { status: 404 });
    return new Response("The invoice could not be fetched from the billing provider. Please try again.", {
      status: 503,
      headers: { "Retry-After": "30", "Cache-Control": "no-store" },
    });
  }
  if (!pdf) return new Response("Not Found", { status: 404 });
  if (pdf.kind === "url")
    return new Response(null, { status: 302, headers: { Location: pdf.url, "Cache-Control": "no-store" } });
  return new Response(Buffer.from(pdf.bytes), {
    headers: {
      "Content-Type": "application/pdf",
      "Content-Disposition": `attachment; filename="${pdf.fileName.replace(/[^\w.-]/g, "_")}"`,
      "Cache-Control": "no-store",
    },
  });
}
