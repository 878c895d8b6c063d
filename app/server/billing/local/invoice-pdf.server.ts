import PDFDocument from "pdfkit";
import { formatCents, formatDate } from "~/domain/format";
import { countryName } from "~/domain/countries";
import { REVERSE_CHARGE_NOTE, reverseChargeApplies } from "~/domain/tax-ids";
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

const PAGE_MARGIN = 50;
const PAGE_WIDTH = 612;
/** Where the content of a US Letter page ends, above the bottom margin. */
const PAGE_BOTTOM = 792 - PAGE_MARGIN;
const CONTENT_WIDTH = PAGE_WIDTH - 2 * PAGE_MARGIN;
/** The line table's columns, in order: x and width in points, and how their text aligns. */
const COLUMNS = [
  { x: PAGE_MARGIN, width: 190, align: "left" },
  { x: 245, width: 130, align: "left" },
  { x: 380, width: 40, align: "right" },
  { x: 425, width: 60, align: "right" },
  { x: 490, width: 72, align: "right" },
] as const;

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
export function renderInvoicePdf(document: InvoiceDocument): Promise<Uint8Array> {
  const { invoice, seller, billedTo } = document;
  const doc = new PDFDocument({
    size: "LETTER",
    margin: PAGE_MARGIN,
    info: { Title: `Invoice ${invoice.number}`, Author: seller.name, CreationDate: invoice.date },
  });
  const chunks: Buffer[] = [];
  const done = new Promise<Uint8Array>((resolve, reject) => {
    doc.on("data", (chunk: Buffer) => chunks.push(chunk));
    doc.on("end", () => resolve(new Uint8Array(Buffer.concat(chunks))));
    doc.on("error", reject);
  });

  doc
    .font("Helvetica-Bold")
    .fontSize(20)
    .text("Invoice", PAGE_MARGIN, PAGE_MARGIN, { width: CONTENT_WIDTH, align: "right" });
  doc.fontSize(10);
  const sellerLines = partyLines(seller);
  doc.font("Helvetica-Bold").text(sellerLines[0], PAGE_MARGIN, PAGE_MARGIN, { width: 260 });
  doc.font("Helvetica").text(sellerLines.slice(1).join("\n"), PAGE_MARGIN, PAGE_MARGIN + 14, { width: 260 });
  const facts: [string, string][] = [
    ["Invoice number", invoice.number],
    ["Issue date", formatDate(invoice.date)],
    ["Supply period", supplyPeriod(invoice)],
    ["Status", STATUS_LABELS[invoice.status]],
  ];
  if (invoice.paidAt) facts.push(["Paid on", formatDate(invoice.paidAt)]);
  if (document.poNumber) facts.push(["PO number", document.poNumber]);
  let y = PAGE_MARGIN + 34;
  for (const [label, value] of facts) {
    doc.font("Helvetica").text(`${label}: `, 330, y, { width: 100, align: "right" });
    doc.font("Helvetica-Bold").text(value, 430, y, { width: 132, align: "right" });
    y += 14;
  }
  y = Math.max(y, PAGE_MARGIN + 14 + 12 * sellerLines.length);
  if (document.revision) {
    y += 6;
    doc
      .font("Helvetica-Bold")
      .text(
        `Revision ${document.revision.number}, replaces the document of ${formatDate(document.revision.replaces)}`,
        PAGE_MARGIN,
        y,
        { width: CONTENT_WIDTH },
      );
    y += 14;
  }

  y += 16;
  const buyerLines = billedTo ? partyLines(billedTo) : [];
  const shipTo = shippingLines(document.shippingAddress);
  const block = (title: string, lines: string[], x: number) => {
    doc.font("Helvetica-Bold").text(title, x, y);
    doc.font("Helvetica").text(lines.join("\n"), x, y + 14, { width: 240 });
  };
  block("Billed to", buyerLines, PAGE_MARGIN);
  if (shipTo.length > 0) block("Ship to", shipTo, 320);
  y += 14 + 12 * Math.max(buyerLines.length, shipTo.length, 1) + 24;

  /** A new page when the next `height` points do not fit on this one. */
  const room = (height: number) => {
    if (y + height <= PAGE_BOTTOM) return;
    doc.addPage();
    y = PAGE_MARGIN;
  };
  const row = (cells: string[], font = "Helvetica") => {
    doc.font(font);
    const height = Math.max(...cells.map((text, i) => doc.heightOfString(text, { width: COLUMNS[i].width })));
    room(height);
    cells.forEach((text, i) => doc.text(text, COLUMNS[i].x, y, { width: COLUMNS[i].width, align: COLUMNS[i].align }));
    y += height + 6;
  };
  row(["Description", "Period", "Qty", "Unit price", "Amount"], "Helvetica-Bold");
  doc
    .moveTo(PAGE_MARGIN, y - 3)
    .lineTo(PAGE_MARGIN + CONTENT_WIDTH, y - 3)
    .stroke();
  for (const line of invoice.lineItems) {
    row([
      line.description,
      period(line.dateFrom, line.dateTo),
      String(line.quantity),
      formatCents(line.unitAmount),
      formatCents(line.amount),
    ]);
  }

  y += 8;
  const total = (label: string, cents: number, font = "Helvetica") => {
    room(16);
    doc.font(font).text(label, 300, y, { width: 180, align: "right" });
    doc.text(formatCents(cents), 490, y, { width: 72, align: "right" });
    y += 16;
  };
  total("Subtotal", invoice.subTotal);
  for (const discount of invoice.discounts) total(`Discount: ${discount.description}`, -discount.amount);
  total("Total", invoice.total, "Helvetica-Bold");
  if (invoice.creditsApplied > 0) total("Credits applied", -invoice.creditsApplied);
  total("Amount paid", invoice.amountPaid);
  total("Amount due", invoice.amountDue, "Helvetica-Bold");

  if (billedTo && reverseChargeApplies(billedTo, seller.vatNumber)) {
    y += 10;
    room(16);
    doc.font("Helvetica-Bold").text(REVERSE_CHARGE_NOTE, PAGE_MARGIN, y, { width: CONTENT_WIDTH });
    y += 16;
  }

  doc.end();
  return done;
}
