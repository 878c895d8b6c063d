/**
 * The customer's purchase order number, optional on an order's review (a new license, an update): printed on the
 * order's invoice and shown on the license's row. Chargebee keeps at most 100 characters of one.
 */
export const PO_NUMBER_MAX_LENGTH = 100;
export const PO_NUMBER_TOO_LONG = `A PO number has at most ${PO_NUMBER_MAX_LENGTH} characters.`;

/** The posted PO number: null when none was given; refused when too long. */
export function poNumberOf(posted: FormDataEntryValue | null): { ok: true; poNumber: string | null } | { ok: false } {
  const value = typeof posted === "string" ? posted.replace(/\p{Cc}/gu, " ").trim() : "";
  if (value.length > PO_NUMBER_MAX_LENGTH) return { ok: false };
  return { ok: true, poNumber: value || null };
}
