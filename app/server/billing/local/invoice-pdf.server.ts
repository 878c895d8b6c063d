import PDFDocument from "pdfkit";
import { formatCents, formatDate } from "~/domain/format";
import { countryName } from "~/domain/countries";
import type { Address, Invoice } from "../port.server";

/**
 * The embedded engine's invoice as a PDF (pdfkit, US Letter, the standard Helvetica fonts): who sold, who was
 * billed and where it ships, the invoice's number, date and status, each line with its service period, the
 * discounts, the credits and what was paid and is due. Chargebee renders its own; this stands in for it.
 */

export interface InvoiceSheet {
  invoice: Invoice;
  /** The customer as billed: their company and name, with the billing address the invoice was made with. */
  customer: { company: string; firstName: string; lastName: string; email: string };
  billingAddress: Address | null;
  shippingAddress: Address | null;
}

const SELLER = "GateKeeper";
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

/** The address as printed lines: name, company, street lines, city line, country. */
function addressLines(address: Address | null): string[] {
  if (!address) return [];
  const name = [address.firstName, address.lastName].filter(Boolean).join(" ");
  const cityLine = [address.city, [address.stateCode ?? address.state, address.zip].filter(Boolean).join(" ")]
    .filter(Boolean)
    .join(", ");
  return [
    name,
    address.company ?? "",
    address.line1 ?? "",
    address.line2 ?? "",
    cityLine,
    address.country ? countryName(address.country) : "",
  ].filter((line) => line.trim() !== "");
}

const period = (from: Date | null, to: Date | null) =>
  from && to && from.getTime() !== to.getTime()
    ? `${formatDate(from)} – ${formatDate(to)}`
    : from
      ? formatDate(from)
      : "";

/** The invoice rendered as a PDF document's bytes. */
export function renderInvoicePdf(sheet: InvoiceSheet): Promise<Uint8Array> {
  const { invoice } = sheet;
  const doc = new PDFDocument({
    size: "LETTER",
    margin: PAGE_MARGIN,
    info: { Title: `Invoice ${invoice.number}`, Author: SELLER, CreationDate: invoice.date },
  });
  const chunks: Buffer[] = [];
  const done = new Promise<Uint8Array>((resolve, reject) => {
    doc.on("data", (chunk: Buffer) => chunks.push(chunk));
    doc.on("end", () => resolve(new Uint8Array(Buffer.concat(chunks))));
    doc.on("error", reject);
  });

  doc.font("Helvetica-Bold").fontSize(20).text(SELLER, PAGE_MARGIN, PAGE_MARGIN);
  doc.fontSize(20).text("Invoice", PAGE_MARGIN, PAGE_MARGIN, { width: CONTENT_WIDTH, align: "right" });
  const facts: [string, string][] = [
    ["Invoice number", invoice.number],
    ["Invoice date", formatDate(invoice.date)],
    ["Status", STATUS_LABELS[invoice.status]],
  ];
  if (invoice.paidAt) facts.push(["Paid on", formatDate(invoice.paidAt)]);
  let y = PAGE_MARGIN + 34;
  doc.fontSize(10);
  for (const [label, value] of facts) {
    doc.font("Helvetica").text(`${label}: `, 330, y, { width: 100, align: "right" });
    doc.font("Helvetica-Bold").text(value, 430, y, { width: 132, align: "right" });
    y += 14;
  }

  y += 16;
  const billedTo = [
    sheet.customer.company,
    [sheet.customer.firstName, sheet.customer.lastName].filter(Boolean).join(" "),
    sheet.customer.email,
    ...addressLines(sheet.billingAddress).filter(
      (line) => line !== sheet.customer.company && line !== `${sheet.customer.firstName} ${sheet.customer.lastName}`,
    ),
  ].filter((line) => line.trim() !== "");
  const shipTo = addressLines(sheet.shippingAddress);
  const block = (title: string, lines: string[], x: number) => {
    doc.font("Helvetica-Bold").text(title, x, y);
    doc.font("Helvetica").text(lines.join("\n"), x, y + 14, { width: 240 });
  };
  block("Billed to", billedTo, PAGE_MARGIN);
  if (shipTo.length > 0) block("Ship to", shipTo, 320);
  y += 14 + 12 * Math.max(billedTo.length, shipTo.length, 1) + 24;

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

  doc.end();
  return done;
}
