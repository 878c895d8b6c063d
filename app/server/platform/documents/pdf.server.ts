import { onFirstUse } from "~/server/platform/on-first-use.server";
import { formatCents } from "~/domain/format";

/**
 * The portal's printed documents (invoices, quotes) share one layout: pdfkit, US Letter, the standard Helvetica
 * fonts; the document's kind top right, the seller top left with the document's facts beside it, the parties'
 * blocks, a table of lines (description, period, quantity, unit price, amount) that goes on to new pages, and the
 * totals under it. Each document decides what goes in; this only lays it out.
 */

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

export interface DocumentLine {
  description: string;
  period: string;
  quantity: number;
  unitAmount: number;
  amount: number;
}

/**
 * Starts a document: its kind as the heading, the seller's lines (the first in bold) and the facts beside them
 * (label and value: number, dates, status). Returns what lays out the rest, in order down the page.
 */
const pdfkit = onFirstUse(() => import("pdfkit").then((module) => module.default));

export async function printedDocument(head: {
  kind: string;
  title: string;
  author: string;
  date: Date;
  sellerLines: string[];
  facts: [string, string][];
}) {
  const PDFDocument = await pdfkit();
  const doc = new PDFDocument({
    size: "LETTER",
    margin: PAGE_MARGIN,
    info: { Title: head.title, Author: head.author, CreationDate: head.date },
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
    .text(head.kind, PAGE_MARGIN, PAGE_MARGIN, { width: CONTENT_WIDTH, align: "right" });
  doc.fontSize(10);
  doc.font("Helvetica-Bold").text(head.sellerLines[0], PAGE_MARGIN, PAGE_MARGIN, { width: 260 });
  doc.font("Helvetica").text(head.sellerLines.slice(1).join("\n"), PAGE_MARGIN, PAGE_MARGIN + 14, { width: 260 });
  let y = PAGE_MARGIN + 34;
  for (const [label, value] of head.facts) {
    doc.font("Helvetica").text(`${label}: `, 330, y, { width: 100, align: "right" });
    doc.font("Helvetica-Bold").text(value, 430, y, { width: 132, align: "right" });
    y += 14;
  }
  y = Math.max(y, PAGE_MARGIN + 14 + 12 * head.sellerLines.length);

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

  return {
    /** A bold line across the page under the facts (a revision's note). */
    notice(text: string) {
      y += 6;
      doc.font("Helvetica-Bold").text(text, PAGE_MARGIN, y, { width: CONTENT_WIDTH });
      y += 14;
    },
    /** The parties side by side (Billed to, Ship to, Quoted for): a title over each one's lines. */
    parties(blocks: { title: string; lines: string[] }[]) {
      y += 16;
      blocks.forEach(({ title, lines }, i) => {
        const x = i === 0 ? PAGE_MARGIN : 320;
        doc.font("Helvetica-Bold").text(title, x, y);
        doc.font("Helvetica").text(lines.join("\n"), x, y + 14, { width: 240 });
      });
      y += 14 + 12 * Math.max(1, ...blocks.map((block) => block.lines.length)) + 24;
    },
    /** The table of lines, under its header and a rule. */
    lines(lines: DocumentLine[]) {
      row(["Description", "Period", "Qty", "Unit price", "Amount"], "Helvetica-Bold");
      doc
        .moveTo(PAGE_MARGIN, y - 3)
        .lineTo(PAGE_MARGIN + CONTENT_WIDTH, y - 3)
        .stroke();
      for (const line of lines) {
        row([
          line.description,
          line.period,
          String(line.quantity),
          formatCents(line.unitAmount),
          formatCents(line.amount),
        ]);
      }
      y += 8;
    },
    /** A total under the table, right-aligned: its label and amount. */
    total(label: string, cents: number, font = "Helvetica") {
      room(16);
      doc.font(font).text(label, 300, y, { width: 180, align: "right" });
      doc.text(formatCents(cents), 490, y, { width: 72, align: "right" });
      y += 16;
    },
    /** A bold sentence across the page after the totals (the reverse-charge note, a quote's validity). */
    note(text: string) {
      y += 10;
      room(16);
      doc.font("Helvetica-Bold").text(text, PAGE_MARGIN, y, { width: CONTENT_WIDTH });
      y += 16;
    },
    /** Ends the document: its bytes. */
    finish(): Promise<Uint8Array> {
      doc.end();
      return done;
    },
  };
}
