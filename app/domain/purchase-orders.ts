import { z } from "zod";

/**
 * The customer's purchase order number, optional on an order's review (a new license, an update): printed on the
 * order's invoice and shown on the license's row. Chargebee keeps at most 100 characters of one.
 */
export const PO_NUMBER_MAX_LENGTH = 100;
export const PO_NUMBER_TOO_LONG = `A PO number has at most ${PO_NUMBER_MAX_LENGTH} characters.`;

/** A typed PO number: control characters become spaces (it is printed on one line), the ends trimmed, none if empty. */
export const poNumberField = z
  .string()
  .default("")
  .transform((value) => value.replace(/\p{Cc}/gu, " ").trim())
  .pipe(z.string().max(PO_NUMBER_MAX_LENGTH, PO_NUMBER_TOO_LONG))
  .transform((value) => value || null);

/**
 * The PO number posted with an order's confirmation, or why not, with what was typed so that the form shows it
 * again under its message.
 */
export function poNumberOf(
  posted: FormDataEntryValue | null,
): { ok: true; poNumber: string | null } | { ok: false; refusal: { poNumberError: string; poNumber: string } } {
  const typed = typeof posted === "string" ? posted : "";
  const parsed = poNumberField.safeParse(typed);
  if (parsed.success) return { ok: true, poNumber: parsed.data };
  return {
    ok: false,
    refusal: { poNumberError: parsed.error.issues[0]?.message ?? PO_NUMBER_TOO_LONG, poNumber: typed },
  };
}
