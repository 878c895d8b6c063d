import { randomUUID } from "node:crypto";
import { json } from "@remix-run/node";
import { and, eq } from "drizzle-orm";
import { validationError } from "remix-validated-form";
import type { FormFailure } from "~/domain/billing-views";
import { invoiceCorrectionValidator } from "~/domain/billing-validators";
import { countryName } from "~/domain/countries";
import { correctedMeanwhile, correctedToast, creditNoteNeeded, describeCorrection } from "~/domain/invoice-corrections";
import { afterCheckoutUrls } from "~/domain/renewals";
import { checkVatNumber, providerStatusOf } from "~/server/account-billing/index.server";
import {
  billingAccountOf,
  memberActor,
  readMemberForm,
  recordActivity,
  redirectWithToast,
  requireMember,
  type BillingAccount,
  type Scope,
} from "~/server/accounts/index.server";
import { CREDIT_NOTE_REQUIRED, getBilling, ProviderError, type Invoice } from "~/server/billing/index.server";
import { db } from "~/server/platform/database/db.server";
import { idempotencyKeyOf } from "~/server/platform/forms.server";
import { invoices } from "~/server/platform/database/tables.server";
import { saveInvoiceCopy } from "./copies.server";
import { ownInvoice } from "./invoices.server";

/**
 * Correcting an issued invoice (/account/invoices/:invoiceId/correct, a drawer over the invoices): the buyer's
 * company, contact and billing address (not its country), the VAT number and the PO number. The provider issues
 * the document anew under the same number (a new revision; the embedded engine keeps every earlier one
 * downloadable) and tells of it as an invoice event; what it will not correct (what changes the tax) is refused
 * with the way to a credit note. The portal counts the revisions it made on its copy of the invoice: the form
 * carries the revision it was opened on, so a double submit corrects once and a stale tab is told.
 */

const INVOICES = afterCheckoutUrls.invoices;
const notFound = () => json({ message: "There is no such invoice." }, { status: 404 });
const FAILED = "The invoice could not be corrected. Please try again.";

/** The account's invoice (its copy and the provider's), or 404 for one not the account's. */
async function ownCorrectable(member: Scope, invoiceId: string) {
  const account = billingAccountOf(member.organization);
  const copy = await ownInvoice(account, invoiceId);
  if (!copy || !account.customerId) throw notFound();
  return { account: account as BillingAccount & { customerId: string }, copy };
}

/** The form's starting values: the buyer as the current document names them. */
function defaultsOf(invoice: Invoice) {
  const party = invoice.billedTo;
  const address = party?.address ?? {};
  return {
    company: party?.name ?? "",
    first_name: address.firstName ?? "",
    last_name: address.lastName ?? "",
    line1: address.line1 ?? "",
    line2: address.line2 ?? "",
    city: address.city ?? "",
    state: address.state ?? "",
    zip: address.zip ?? "",
    country: address.country ?? "",
    vat_number: party?.vatNumber ?? "",
    po_number: invoice.poNumber ?? "",
  };
}

export async function correctionPage(request: Request, invoiceId: string) {
  const member = await requireMember(request, "invoices.correct");
  const { account, copy } = await ownCorrectable(member, invoiceId);
  const billing = getBilling();
  const [invoice, revisions] = await Promise.all([
    billing.retrieveInvoice(account.customerId, copy.id),
    billing.listInvoiceRevisions(account.customerId, copy.id),
  ]);
  const defaults = defaultsOf(invoice);
  return json({
    invoice: {
      id: invoice.id,
      number: invoice.number,
      date: invoice.date.toISOString(),
      revision: copy.revision,
      pdfUrl: afterCheckoutUrls.invoicePdf(invoice.id),
    },
    country: { code: defaults.country, name: defaults.country ? countryName(defaults.country) : "" },
    earlier: revisions.map(({ revision, issuedAt }) => ({
      revision,
      issuedAt: issuedAt.toISOString(),
      pdfUrl: afterCheckoutUrls.invoicePdf(invoice.id, revision),
    })),
    defaults: { ...defaults, revision: String(copy.revision) },
    idempotencyKey: randomUUID(),
  });
}

const refusal = (formError: string, submitted: Record<string, unknown>) =>
  json<FormFailure & { repopulateFields: Record<string, unknown> }>(
    { formError, repopulateFields: submitted },
    { status: 422 },
  );

export async function correctionPost(request: Request, invoiceId: string) {
  const { member, formData } = await readMemberForm(request, "invoices.correct");
  const { account, copy } = await ownCorrectable(member, invoiceId);
  const result = await invoiceCorrectionValidator.validate(formData);
  if (result.error) return validationError(result.error, result.submittedData);
  const base = Number(formData.get("revision"));
  if (copy.revision !== base) {
    return redirectWithToast(request, INVOICES, {
      kind: "info",
      message: correctedMeanwhile(copy.number, copy.revision),
    });
  }
  const billing = getBilling();
  const before = await billing.retrieveInvoice(account.customerId, copy.id);
  const input = result.data;
  const issuedCountry = before.billedTo?.address?.country;
  if (issuedCountry && input.country !== issuedCountry) {
    return refusal(creditNoteNeeded(copy.number), result.submittedData);
  }
  const checked = input.vat_number ? await checkVatNumber(input.vat_number) : null;
  let corrected: Invoice;
  try {
    corrected = await billing.correctInvoice(
      account.customerId,
      copy.id,
      {
        company: input.company,
        billingAddress: {
          firstName: input.first_name,
          lastName: input.last_name,
          line1: input.line1,
          line2: input.line2,
          city: input.city,
          state: input.state,
          zip: input.zip,
          country: input.country,
        },
        vatNumber: checked?.vatNumber ?? null,
        vatNumberStatus: checked ? providerStatusOf(checked.status) : "unchecked",
        poNumber: input.po_number || null,
      },
      idempotencyKeyOf(formData),
    );
  } catch (error) {
    if (!(error instanceof ProviderError)) throw error;
    return refusal(error.code === CREDIT_NOTE_REQUIRED ? creditNoteNeeded(copy.number) : FAILED, result.submittedData);
  }
  const revision = base + 1;
  await db.transaction(async (tx) => {
    // Only the first of two posts of one form moves the count (the provider answered both with one correction).
    const moved = await tx
      .update(invoices)
      .set({ revision })
      .where(and(eq(invoices.id, copy.id), eq(invoices.ownerId, account.ownerId), eq(invoices.revision, base)))
      .returning({ id: invoices.id });
    await saveInvoiceCopy(account, corrected, tx);
    if (moved.length === 0) return;
    await recordActivity(tx, {
      organizationId: account.ownerId,
      actor: memberActor(member.user),
      action: "invoice.corrected",
      summary: `Corrected invoice ${copy.number} (revision ${revision}): ${describeCorrection(before, corrected)}.`,
    });
  });
  return redirectWithToast(request, INVOICES, { kind: "success", message: correctedToast(copy.number, revision) });
}
