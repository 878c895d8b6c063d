import { formatDate } from "~/domain/format";
import { countryName } from "~/domain/countries";
import { REVERSE_CHARGE_NOTE, reverseChargeApplies } from "~/domain/tax-ids";
import { printedDocument } from "~/server/platform/documents/pdf.server";
import type { Address, Invoice, InvoiceParty } from "../port.server";

/**
 * The embedded engine's invoice as a PDF (pdfkit, US Letter, the standard Helvetica fonts), with what the EU's
 * invoicing rules ask of an invoice: the seller's and the buyer's names, addresses and VAT numbers as the document
 * was issued, its sequential number, issue date and supply period, each line with its service period, the
 * discounts, the credits and what was paid and is due, and the reverse-charge note when the buyer accounts for the
 * VAT. The engine computes no tax: prices are the price list's. A corrected invoice says which revision it is and
 * whose document it replaces. Chargebee renders its own; this stands in for it.
 */

export interface InvoiceDocument {
  invoice: Invoice;
  seller: InvoiceParty;
  /** The buyer as the document names them; null only on invoices older than the parties' record. */
  billedTo: InvoiceParty | null;
  poNumber: string | null;
  shippingAddress: Address | null;
  /** A corrected document: its revision, and when the document it replaces was issued. */
  revision: { number: number; replaces: Date } | null;
}

const STATUS_LABELS: Record<Invoice["status"], string> = {
  paid: "Paid",
  payment_due: "Payment due",
  not_paid: "Not paid",
  voided: "Voided",
  posted: "Posted",
  pending: "Pending",
};

/** The street, city and country lines of an address (the names are the party's own lines). */
function addressLines(address: Address | null): string[] {
  if (!address) return [];
  const cityLine = [address.city, [address.stateCode ?? address.state, address.zip].filter(Boolean).join(" ")]
    .filter(Boolean)
    .join(", ");
  return [
    address.line1 ?? "",
    address.line2 ?? "",
    cityLine,
    address.country ? countryName(address.country) : "",
  ].filter((line) => line.trim() !== "");
}

/** A shipping address as printed: the name and company over the address. */
function shippingLines(address: Address | null): string[] {
  if (!address) return [];
  const name = [address.firstName, address.lastName].filter(Boolean).join(" ");
  return [name, address.company ?? "", ...addressLines(address)].filter((line) => line.trim() !== "");
}

/** A party as printed: its name, contact, address and VAT number. */
function partyLines(party: InvoiceParty): string[] {
  const lines = [
    party.name,
    party.contact && party.contact !== party.name ? party.contact : "",
    party.email ?? "",
    ...(party.addressLines ?? addressLines(party.address)),
    party.vatNumber ? `VAT number: ${party.vatNumber}` : "",
  ];
  return lines.filter((line) => line.trim() !== "");
}

const period = (from: Date | null, to: Date | null) =>
  from && to && from.getTime() !== to.getTime()
    ? `${formatDate(from)} – ${formatDate(to)}`
    : from
      ? formatDate(from)
      : "";

/** When the invoiced supply took place: from the earliest line's start to the latest line's end. */
function supplyPeriod(invoice: Invoice): string {
  const starts = invoice.lineItems.flatMap((line) => (line.dateFrom ? [line.dateFrom.getTime()] : []));
  const ends = invoice.lineItems.flatMap((line) => (line.dateTo ? [line.dateTo.getTime()] : []));
  if (starts.length === 0) return formatDate(invoice.date);
  return period(new Date(Math.min(...starts)), new Date(Math.max(...ends, ...starts)));
}

/** The invoice rendered as a PDF document's bytes. */
export async function renderInvoicePdf(document: InvoiceDocument): Promise<Uint8Array> {
  const { invoice, seller, billedTo } = document;
  const facts: [string, string][] = [
    ["Invoice number", invoice.number],
    ["Issue date", formatDate(invoice.date)],
    ["Supply period", supplyPeriod(invoice)],
    ["Status", STATUS_LABELS[invoice.status]],
  ];
  if (invoice.paidAt) facts.push(["Paid on", formatDate(invoice.paidAt)]);
  if (document.poNumber) facts.push(["PO number", document.poNumber]);
  const doc = await printedDocument({
    kind: "Invoice",
    title: `Invoice ${invoice.number}`,
    author: seller.name,
    date: invoice.date,
    sellerLines: partyLines(seller),
    facts,
  });
  if (document.revision) {
    doc.notice(
      `Revision ${document.revision.number}, replaces the document of ${formatDate(document.revision.replaces)}`,
    );
  }
  const shipTo = shippingLines(document.shippingAddress);
  doc.parties([
    { title: "Billed to", lines: billedTo ? partyLines(billedTo) : [] },
    ...(shipTo.length > 0 ? [{ title: "Ship to", lines: shipTo }] : []),
  ]);
  doc.lines(invoice.lineItems.map((line) => ({ ...line, period: period(line.dateFrom, line.dateTo) })));
  doc.total("Subtotal", invoice.subTotal);
  for (const discount of invoice.discounts) doc.total(`Discount: ${discount.description}`, -discount.amount);
  doc.total("Total", invoice.total, "Helvetica-Bold");
  if (invoice.creditsApplied > 0) doc.total("Credits applied", -invoice.creditsApplied);
  doc.total("Amount paid", invoice.amountPaid);
  doc.total("Amount due", invoice.amountDue, "Helvetica-Bold");
  if (billedTo && reverseChargeApplies(billedTo, seller.vatNumber)) doc.note(REVERSE_CHARGE_NOTE);
  return doc.finish();
}
