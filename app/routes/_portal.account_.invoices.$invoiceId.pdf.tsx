import type { LoaderFunctionArgs } from "@remix-run/node";
import { requireMember } from "~/server/accounts/access.server";
import { billingAccountOf } from "~/server/accounts/billing-accounts.server";
import { invoicePdfResponse } from "~/server/subscriptions/invoices.server";

/**
 * An invoice of the organization as a PDF: the document, or the provider's download address; another
 * organization's is 404. Invoices are for the members who may see billing (an Owner or a Billing admin).
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const member = await requireMember(request, "billing.manage");
  return invoicePdfResponse(billingAccountOf(member.organization), params.invoiceId ?? "");
}
