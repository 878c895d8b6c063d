import type { LoaderFunctionArgs } from "@remix-run/node";
import { requireMember } from "~/server/accounts/access.server";
import { billingAccountOf } from "~/server/accounts/billing-accounts.server";
import { invoicePdfResponse } from "~/server/subscriptions/invoices.server";

/**
 * An invoice of the organization as a PDF: the document, or the provider's download address; another
 * organization's is 404. Invoices are for the members who may see billing (an Owner or a Billing admin).
 * `?revision=N` is an earlier revision of a corrected invoice; anything but a whole number is 404.
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const member = await requireMember(request, "billing.manage");
  const asked = new URL(request.url).searchParams.get("revision");
  const revision = asked === null ? undefined : /^[1-9]\d{0,5}$/.test(asked) ? Number(asked) : null;
  if (revision === null) return new Response("Not Found", { status: 404 });
  return invoicePdfResponse(billingAccountOf(member.organization), params.invoiceId ?? "", revision);
}
