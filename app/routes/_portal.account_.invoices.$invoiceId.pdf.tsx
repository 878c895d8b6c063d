import type { LoaderFunctionArgs } from "@remix-run/node";
import { requireUser } from "~/server/auth.server";
import { billingAccountOf } from "~/server/billing-accounts.server";
import { invoicePdfResponse } from "~/server/invoices.server";

/** An invoice of the account as a PDF: the document, or the provider's download address; another account's is 404. */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  return invoicePdfResponse(billingAccountOf(user), params.invoiceId ?? "");
}
