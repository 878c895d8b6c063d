import { json, redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { AUTHENTICATED_JOB_FIELD } from "~/domain/billing-views";
import { assertMay, readMemberForm, requireMember, type Scope } from "~/server/accounts/index.server";
import { chargebeeJsSettings, getBilling, type PaymentIntent } from "~/server/billing/index.server";
import { anotherCardData, jobWaitingOn, resumeAfterBank } from "~/server/orders/index.server";
import { widenedPolicy } from "~/server/platform/delivery/content-security-policy.server";
import { findOwnedJob, type JobView } from "~/server/platform/jobs/runner.server";
import { PRESENT_PAYMENT_JOBS } from "~/server/progress-pages.server";

/**
 * The portal's page where the cardholder authenticates a payment intent in the browser, for a provider with no bank
 * page of its own for a card (Chargebee, decision 226): Chargebee.js's 3DS handler opens the bank's challenge, and
 * the page then posts back. Whatever the browser says, the job reads the outcome from the provider: the post starts
 * the waiting job again once, as the return from a bank's page does (resumeAfterBank).
 */

const NO_SUCH_PAYMENT = "There is no such payment waiting for your bank.";
const noSuchPayment = () => json({ message: NO_SUCH_PAYMENT }, { status: 404 });

/** Chargebee.js, and the site's API and frames it opens the bank's challenge with: named on this page only. */
const chargebeeSources = (site: string) => ({
  "script-src": ["https://js.chargebee.com"],
  "connect-src": [`https://${site}.chargebee.com`],
  "frame-src": ["https://js.chargebee.com", `https://${site}.chargebee.com`],
});

/** The organization's job of a kind that charges while the cardholder is there, with what answering it needs. */
function presentPaymentOf(job: JobView) {
  return Object.values(PRESENT_PAYMENT_JOBS).find(({ kinds }) => [kinds].flat().some((kind) => kind.name === job.kind));
}

/**
 * The member's organization's job that waits on the payment intent, for a member allowed to do what the job does
 * (403 with the policy's reason otherwise); 404 when no job of the organization waits on it.
 */
async function waitingJob(member: Scope, paymentIntentId: string) {
  const kinds = Object.values(PRESENT_PAYMENT_JOBS).flatMap(({ kinds }) => [kinds].flat());
  const job = await jobWaitingOn(member.organization.id, paymentIntentId, kinds);
  const paying = job && presentPaymentOf(job);
  if (!job || !paying) throw noSuchPayment();
  assertMay(member, paying.needs);
  return { job, paying };
}

/** The organization's billing customer's payment intent; 404 when the provider does not know it as theirs. */
async function intentOf(member: Scope, paymentIntentId: string): Promise<PaymentIntent> {
  const customerId = member.organization.billingCustomerId;
  if (!customerId) throw noSuchPayment();
  return getBilling().retrievePaymentIntent(customerId, paymentIntentId);
}

export async function paymentAuthenticationLoader({ request, params, context }: LoaderFunctionArgs) {
  const member = await requireMember(request);
  const paymentIntentId = params.intentId ?? "";
  const { job, paying } = await waitingJob(member, paymentIntentId);
  const intent = await intentOf(member, paymentIntentId);
  const progressUrl = paying.progressUrl(job.id);
  // Answered already (a reload after the challenge): the job reads the outcome, as after the post.
  if (intent.status !== "requires_action") {
    await resumeAfterBank(member.organization.id, job.id, paying.kinds, paymentIntentId);
    throw redirect(progressUrl);
  }
  // A provider whose bank page is its own sends the cardholder there.
  if (!intent.browserIntent) throw redirect(intent.redirectUrl);
  const chargebee = chargebeeJsSettings();
  const policy = chargebee && widenedPolicy(context.contentSecurityPolicy, chargebeeSources(chargebee.site));
  return json(
    {
      jobId: job.id,
      amount: intent.amount,
      progressUrl,
      chargebee: chargebee && { ...chargebee, intent: intent.browserIntent },
      cards: await anotherCardData(member, paymentIntentId),
    },
    { headers: policy ? { "Content-Security-Policy": policy } : {} },
  );
}

/**
 * The page's post once Chargebee.js is done: the job named by the form, if it is the organization's and pays
 * while the cardholder is there (404 otherwise, 403 to a member not allowed to do what it does), starts again once
 * when it still waits on the intent and the provider has an answer (a second post starts nothing); its progress
 * page then says what came of it. An intent the bank has not answered yet (the challenge closed) leaves the job
 * waiting, and the page says so.
 */
export async function paymentAuthenticationAction({ request, params }: ActionFunctionArgs) {
  const { member, formData } = await readMemberForm(request);
  const paymentIntentId = params.intentId ?? "";
  const jobId = String(formData.get(AUTHENTICATED_JOB_FIELD) ?? "");
  const found = await findOwnedJob(member.organization.id, jobId);
  const paying = found && presentPaymentOf(found);
  if (!paying) throw noSuchPayment();
  assertMay(member, paying.needs);
  const intent = await intentOf(member, paymentIntentId);
  if (intent.status === "requires_action") {
    return json({ message: "Your bank has not confirmed this payment yet." }, { status: 409 });
  }
  await resumeAfterBank(member.organization.id, jobId, paying.kinds, paymentIntentId);
  return redirect(paying.progressUrl(jobId));
}
