import { json, redirect } from "@remix-run/node";
import { and, eq } from "drizzle-orm";
import { formatCents } from "~/domain/format";
import { isUsableSource } from "~/domain/payment-step";
import { afterCheckoutUrls } from "~/domain/renewals";
import { licenses } from "~/server/platform/database/tables.server";
import {
  choosePayment,
  loadPaymentStep,
  paymentForPage,
  type DrawerMount,
} from "~/server/account-billing/index.server";
import {
  readMemberForm,
  requireMember,
  type Scope,
  billingAccountOf,
  type BillingAccount,
  redirectWithToast,
} from "~/server/accounts/index.server";
import { AUTHENTICATION_REQUIRED, getBilling, type Invoice } from "~/server/billing/index.server";
import { db } from "~/server/platform/database/db.server";
import { ownInvoice } from "~/server/subscriptions/index.server";
import { AMOUNT_CHANGED, payNow, type PayNowInput } from "./pay-now-job.server";
import { findJobsByKeyPrefix, type JobView } from "~/server/platform/jobs/runner.server";
import { orderKey, placeOnce, requestDigest } from "./placing.server";

/**
 * Pay now for a renewal whose payment failed (decision 188), a drawer over /account/invoices: the payment step
 * (choose the card, add or replace it in its drawers), then the confirmation of the exact amount, which places the
 * pay-now job once. The confirmation carries `pay-now:<invoice>:<digest of invoice, card and amount>`: posted
 * twice it finds the first job; after a refusal (a declined card) the same card tries again with a new provider
 * key, another card is a new job; while a payment of the invoice may be under way every later one leads to it.
 */

const INVOICES = afterCheckoutUrls.invoices;
const notFound = () => json({ message: "There is no such invoice." }, { status: 404 });

const payNowPrefix = (invoiceId: string) => `${payNow.name}:${invoiceId}:`;

/** The account's pay-now jobs of this invoice, oldest first. */
const paymentsOf = (account: BillingAccount, invoiceId: string) =>
  findJobsByKeyPrefix(account.ownerId, payNowPrefix(invoiceId));

/** A payment of the invoice that may have charged (under way, or done): the customer follows it, never pays twice. */
const paymentUnderWay = (jobs: JobView[]) =>
  jobs.find((job) => job.status !== "failed" || job.steps.collect?.status === "done") ?? null;

/** The provider's words of the last payment the card refused, next to that card. */
function refusalsOf(jobs: JobView[]): Record<string, string> {
  const refusals: Record<string, string> = {};
  for (const job of jobs) {
    const input = payNow.input.safeParse(job.input);
    if (job.status === "failed" && job.error?.step === "collect" && input.success)
      refusals[input.data.paymentSourceId] = job.error.message;
  }
  return refusals;
}

/** What the confirmation is for: the invoice, the card and the amount as the provider asks it now. */
function paymentOf(account: BillingAccount & { customerId: string }, invoice: Invoice, paymentSourceId: string) {
  const input: PayNowInput = {
    customerId: account.customerId,
    invoiceId: invoice.id,
    paymentSourceId,
    amount: invoice.amountDue,
  };
  const digest = requestDigest(input);
  return { digest, input, key: orderKey(payNow, invoice.id, digest) };
}

/**
 * Where the account's card drawers open over Pay now: they close to its payment step, and refuse another
 * organization's invoice (404) as the step does.
 */
export const payNowDrawerMount = (invoiceId: string): DrawerMount => ({
  closeTo: afterCheckoutUrls.payNow(invoiceId),
  async requireParent(scope) {
    if (!(await ownInvoice(billingAccountOf(scope.organization), invoiceId))) throw notFound();
  },
});

/**
 * The account's invoice as the provider has it now, if it can be paid now; otherwise the answer: 404 for another
 * account's, the licenses page's news for one paid or given up on, or the payment of it already under way.
 */
async function payableInvoice(request: Request, member: Scope, invoiceId: string) {
  const account = billingAccountOf(member.organization);
  const copy = await ownInvoice(account, invoiceId);
  if (!copy || !account.customerId) throw notFound();
  const customer = { ...account, customerId: account.customerId };
  const underWay = paymentUnderWay(await paymentsOf(account, invoiceId));
  if (underWay) throw redirect(afterCheckoutUrls.payment(underWay.id));
  const invoice = await getBilling().retrieveInvoice(customer.customerId, invoiceId);
  if (invoice.status !== "payment_due" || invoice.amountDue === 0) {
    const message =
      invoice.status === "paid"
        ? `Invoice ${invoice.number} is paid.`
        : `Invoice ${invoice.number} can no longer be paid here: its subscription was cancelled.`;
    throw await redirectWithToast(request, INVOICES, { kind: "info", message });
  }
  return { account: customer, invoice };
}

/** The license the invoice renews: its name and the day it stops unless the invoice is paid. */
async function licenseOf(account: BillingAccount, invoice: Invoice) {
  if (!invoice.subscriptionId) return null;
  const [license] = await db
    .select({ name: licenses.name, externalLicenseId: licenses.externalLicenseId, validTo: licenses.validTo })
    .from(licenses)
    .where(and(eq(licenses.ownerId, account.ownerId), eq(licenses.subscriptionId, invoice.subscriptionId)))
    .limit(1);
  return license
    ? { name: license.name, externalLicenseId: license.externalLicenseId, stopsOn: license.validTo.toISOString() }
    : null;
}

/** The drawer's data: the invoice, the payment step, and with `?card=` the confirmation of that card and amount. */
export async function payNowPage(request: Request, invoiceId: string) {
  const member = await requireMember(request, "invoices.pay");
  const { account, invoice } = await payableInvoice(request, member, invoiceId);
  const payment = paymentForPage(await loadPaymentStep(member));
  const chosenId = new URL(request.url).searchParams.get("card");
  const chosen =
    payment.status === "ready"
      ? payment.sources.find((source) => source.id === chosenId && isUsableSource(source))
      : null;
  return {
    invoice: {
      id: invoice.id,
      number: invoice.number,
      date: invoice.date.toISOString(),
      amountDue: invoice.amountDue,
      license: await licenseOf(account, invoice),
      // The renewal was refused because the card's bank asks the cardholder: paying it here asks them.
      bankAsks: invoice.paymentFailure === AUTHENTICATION_REQUIRED,
    },
    payment:
      payment.status === "ready" && chosenId && chosen ? { ...payment, preselectedSourceId: chosen.id } : payment,
    refusals: refusalsOf(await paymentsOf(account, invoiceId)),
    confirm: chosen ? { card: chosen, key: paymentOf(account, invoice, chosen.id).key } : null,
  };
}

/**
 * The drawer's posts: Next with the chosen card (to its confirmation), Previous (back to the invoices), and the
 * confirmation (the payment placed once, then its progress).
 */
export async function payNowPost(request: Request, invoiceId: string) {
  const { member, formData, intent } = await readMemberForm(request, "invoices.pay");
  const { account, invoice } = await payableInvoice(request, member, invoiceId);
  const here = afterCheckoutUrls.payNow(invoiceId);
  if (intent === "previous") return redirect(INVOICES);
  const choice = await choosePayment(member, formData, getBilling(), { withAddresses: false });
  if (!choice.ok) return json({ message: choice.message }, { status: 422 });
  if (intent !== "pay") return redirect(`${here}?card=${encodeURIComponent(choice.paymentSourceId)}`);
  const current = paymentOf(account, invoice, choice.paymentSourceId);
  const placement = await placeOnce(payNow, {
    scope: member,
    draftId: invoice.id,
    postedKey: String(formData.get("orderKey") ?? ""),
    current,
    activity: (input) => ({
      action: "invoice.payment_placed",
      summary: `Paid invoice ${invoice.number} now: ${formatCents(input.amount)} with the card on file.`,
    }),
  });
  if ("placed" in placement) return redirect(afterCheckoutUrls.payment(placement.placed.id));
  // The invoice asks another amount than the one confirmed: nothing was charged, and the page shows the new one.
  return json(
    { message: AMOUNT_CHANGED(invoice.amountDue), amountDue: formatCents(invoice.amountDue) },
    { status: 422 },
  );
}
