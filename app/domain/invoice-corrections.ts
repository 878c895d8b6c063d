import type { InvoiceParty } from "~db/billing-values";

/**
 * Corrections of issued invoices, in the page's words: what a correction may change (the buyer's company, contact,
 * billing address but its country, the VAT number and the purchase order number), what it says when the provider
 * will not make it, and how the activity log tells what changed.
 */

/** A correction the provider refused because it changes the invoice's tax (its country, or its VAT treatment). */
export const creditNoteNeeded = (number: string) =>
  `Invoice ${number} cannot be corrected this way: the change would change its tax (its country or VAT), so the ` +
  `invoice has to be credited and issued again. Ask GateKeeper support for a credit note at /support, naming ` +
  `invoice ${number} and the change.`;

export const correctedToast = (number: string, revision: number) =>
  `Invoice ${number} corrected: revision ${revision} replaces the earlier document, which stays downloadable.`;

/** Another tab, or another member, corrected the invoice since this form was opened. */
export const correctedMeanwhile = (number: string, revision: number) =>
  `Invoice ${number} was corrected meanwhile: it is now revision ${revision}. Check it, then correct it again if needed.`;

/** The buyer's fields a correction may change, as one line each for the log. */
function fieldsOf(party: InvoiceParty | null, poNumber: string | null): [string, string][] {
  const address = party?.address;
  return [
    ["company", party?.name ?? ""],
    ["contact", party?.contact ?? ""],
    [
      "address",
      [address?.line1, address?.line2, address?.city, address?.state, address?.zip].filter(Boolean).join(", "),
    ],
    ["VAT number", party?.vatNumber ?? ""],
    ["PO number", poNumber ?? ""],
  ];
}

/** What a correction changed, for the activity log: `company "A" → "B"; PO number "" → "PO-1"`. */
export function describeCorrection(
  before: { billedTo: InvoiceParty | null; poNumber: string | null },
  after: { billedTo: InvoiceParty | null; poNumber: string | null },
): string {
  const old = new Map(fieldsOf(before.billedTo, before.poNumber));
  const changes = fieldsOf(after.billedTo, after.poNumber)
    .filter(([field, value]) => old.get(field) !== value)
    .map(([field, value]) => `${field} "${old.get(field) ?? ""}" → "${value}"`);
  return changes.length > 0 ? changes.join("; ") : "no field changed";
}
