import { formatDate } from "~/domain/format";
import { NOT_AN_INVOICE, QUOTE_STATUS_NAMES } from "~/domain/quotes";
import { sellerLines } from "~/server/billing/index.server";
import { printedDocument } from "~/server/platform/documents/pdf.server";
import type { QuoteStatus } from "~/server/platform/database/tables.server";
import type { QuoteRecord } from "./quotes.server";

/**
 * A quote as a PDF, in the invoices' layout: the seller, whom it is for and who made it, its number and dates, the
 * lines and totals as they were quoted, what recurs after the first payment, how long it is valid, and that it is
 * not an invoice.
 */
export async function renderQuotePdf(quote: QuoteRecord, status: QuoteStatus, makerOrganization: string) {
  const { estimate } = quote;
  const doc = await printedDocument({
    kind: "Quote",
    title: `Quote ${quote.number}`,
    author: makerOrganization,
    date: quote.quotedAt,
    sellerLines: sellerLines(),
    facts: [
      ["Quote number", quote.number],
      ["Date", formatDate(quote.quotedAt)],
      ["Valid until", formatDate(quote.validUntil)],
      ["Status", QUOTE_STATUS_NAMES[status]],
    ],
  });
  doc.parties([
    { title: "Quoted for", lines: [quote.organizationName] },
    { title: "Prepared by", lines: [quote.madeByName, makerOrganization] },
  ]);
  doc.lines(estimate.lineItems.map((line) => ({ ...line, period: "" })));
  doc.total("Subtotal", estimate.subTotal);
  for (const discount of estimate.discounts) doc.total(`Discount: ${discount.description}`, -discount.amount);
  doc.total("Total", estimate.total, "Helvetica-Bold");
  if (estimate.creditsApplied > 0) doc.total("Credits applied", -estimate.creditsApplied);
  doc.total("Total amount due today", estimate.amountDue, "Helvetica-Bold");
  // Without its date: the cycle starts when the quote is ordered, not when it was made.
  if (estimate.nextBilling) doc.total("Amount on next billing cycle", estimate.nextBilling.amount);
  doc.note(`Valid until ${formatDate(quote.validUntil)}. ${NOT_AN_INVOICE}`);
  return doc.finish();
}

/** The quote's PDF as a download, to whoever may read the quote. */
export async function quotePdfDownload(
  quote: QuoteRecord,
  status: QuoteStatus,
  makerOrganization: string,
): Promise<Response> {
  const bytes = await renderQuotePdf(quote, status, makerOrganization);
  return new Response(Buffer.from(bytes), {
    headers: {
      "Content-Type": "application/pdf",
      "Content-Disposition": `attachment; filename="quote-${quote.number}.pdf"`,
      "Cache-Control": "no-store",
    },
  });
}
