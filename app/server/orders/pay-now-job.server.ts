import { z } from "zod";
import { formatCents } from "~/domain/format";
import { getBilling, type Invoice } from "~/server/billing/index.server";
import { saveInvoiceCopy, saveSubscriptionCopy, licenseFollowsSubscription } from "~/server/subscriptions/index.server";
import { StepRefused, type JobKind } from "~/server/platform/jobs/runner.server";
import { failureText } from "~/server/platform/jobs/steps.server";
import { realNow } from "~/server/platform/real-time.server";
import { afterCheckoutUrls } from "~/domain/renewals";
import { cardToCharge, chargeWhilePresent, presentPaymentInput } from "./present-payments.server";

const payNowInput = z.object({
  customerId: z.string(),
  invoiceId: z.string(),
  paymentSourceId: z.string(),
  /** What the customer confirmed, in cents: the invoice must ask exactly this when it is charged. */
  amount: z.number().int().min(1),
  ...presentPaymentInput,
});
export type PayNowInput = z.infer<typeof payNowInput>;

export type PayNowResults = {
  collect: { amountPaid: number; paidAt: string | null };
  "extend-license": { licenseId: string | null };
};

export const PAYMENT_FAILED = "Payment failed";
const LICENSE_FAILED = "Your license could not be extended yet";
const LICENSE_FAILED_TEXT =
  "The invoice was paid once. Try again to extend your license: you will not be charged again.";
export const AMOUNT_CHANGED = (amount: number) =>
  `The amount due changed to ${formatCents(amount)} before it was charged, so nothing was charged. Please confirm the payment again.`;

/**
 * Chargebee keeps an idempotency key for 30 minutes; a collect tried again later (after an unknown outcome the
 * provider said had not taken effect) sends a key of its own window, never an old one. Within a window a retry
 * replays the first answer; across windows it is still charged once, as an invoice is paid at most once.
 */
const KEY_WINDOW_MS = 20 * 60_000;
const collectKey = (stepKey: string, now = realNow().getTime()) => `${stepKey}:${Math.floor(now / KEY_WINDOW_MS)}`;

const collected = (invoice: Invoice) => ({
  amountPaid: invoice.amountPaid,
  paidAt: invoice.paidAt?.toISOString() ?? null,
});

/**
 * Pay now (decision 188): a failed renewal's invoice collected once, to the card the customer chose, for exactly
 * the amount they confirmed; then the account's copies are brought up to the paid invoice and its license
 * extended, before any event comes. After an unknown outcome (a timeout, a crash mid-call) the provider is asked
 * whether the invoice is paid before anything is collected again. A card whose bank asks the cardholder to
 * authenticate the payment leaves the job waiting for them, nothing charged (chargeWhilePresent).
 */
export const payNow: JobKind<PayNowInput, PayNowResults> = {
  name: "pay-now",
  input: payNowInput,
  steps: [
    {
      name: "collect",
      charges: true,
      async reconcile({ input }) {
        const paid = await getBilling().findInvoicePayment(input.customerId, input.invoiceId);
        return paid ? collected(paid) : null;
      },
      async run(context) {
        const { id, input, stepKey } = context;
        const billing = getBilling();
        const invoice = await billing.retrieveInvoice(input.customerId, input.invoiceId);
        // Paid meanwhile (dunning's own retry, another tab's payment): nothing is collected again.
        if (invoice.status === "paid") return collected(invoice);
        if (invoice.amountDue !== input.amount) throw new StepRefused(AMOUNT_CHANGED(invoice.amountDue));
        const { customerId, invoiceId, amount } = input;
        const paymentSourceId = cardToCharge(input, input.paymentSourceId);
        const payment = { customerId, paymentSourceId, amount, returnUrl: afterCheckoutUrls.payment(id) };
        const paid = await chargeWhilePresent(context, payment, (paymentIntentId) =>
          billing.collectPayment(customerId, invoiceId, paymentSourceId, collectKey(stepKey), paymentIntentId),
        );
        return collected(paid);
      },
    },
    {
      name: "extend-license",
      async run({ ownerId, input }) {
        const billing = getBilling();
        const account = { ownerId, customerId: input.customerId };
        const invoice = await billing.retrieveInvoice(input.customerId, input.invoiceId);
        await saveInvoiceCopy(account, invoice);
        if (!invoice.subscriptionId) return { licenseId: null };
        await saveSubscriptionCopy(
          account,
          await billing.retrieveSubscription(input.customerId, invoice.subscriptionId),
        );
        const license = await licenseFollowsSubscription(account, invoice.subscriptionId);
        return { licenseId: license?.licenseId ?? null };
      },
    },
  ],
  failure(step, error) {
    if (step === "extend-license") return { step, title: LICENSE_FAILED, message: LICENSE_FAILED_TEXT };
    // The provider's words when it gave some (a declined card), else the page's.
    return { step, title: PAYMENT_FAILED, message: failureText(error, "The payment could not be collected.") };
  },
};
