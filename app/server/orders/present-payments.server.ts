import { json } from "@remix-run/node";
import { z } from "zod";
import {
  AUTHENTICATION_REQUIRED,
  getBilling,
  PAYMENT_INTENT_EXPIRED,
  type PaymentIntentRequest,
} from "~/server/billing/index.server";
import { ProviderError } from "~/server/platform/provider-errors.server";
import {
  AwaitingCardholder,
  findOwnedJob,
  listWaitingJobs,
  resumeWaitingJob,
  type AnyJobKind,
  type JobContext,
  type JobOwner,
  type JobView,
  type StepResults,
} from "~/server/platform/jobs/runner.server";

/**
 * Charges made while the customer is there (an order's first payment), whose card's bank may ask the cardholder to
 * authenticate the payment (3-D Secure). The job then waits for them with nothing charged; the payment intent they
 * authorize on the bank's page pays the same step's charge once (the provider spends it), and a failed or abandoned
 * authentication leaves the job waiting with the reason, until they try again or choose another card.
 */

/** What such a job keeps in its input besides its order: the payment intent it waits on, and a card chosen since. */
export const presentPaymentInput = {
  /** The payment intent made for the step's charge, once the bank asked (saved by the step, see `remember`). */
  paymentIntentId: z.string().nullish(),
  /** The card the customer chose on the progress page instead of the order's, which the charge then uses. */
  otherCard: z.string().nullish(),
};

/** The kind of job a progress page follows, or the kinds (a trial's page follows either kind of trial). */
export type PresentPaymentKinds = AnyJobKind | readonly AnyJobKind[];

type PresentPaymentInput = { paymentIntentId?: string | null; otherCard?: string | null };

/**
 * Runs `charge` (a billing call that charges the card now) for the cardholder who is present: with the payment
 * intent they authorized when the bank asked; otherwise plainly, and when the bank asks (AUTHENTICATION_REQUIRED),
 * the job waits for them on the bank's page of a new payment intent for `payment`. An intent they failed, or one
 * that expired (an hour after it was made, also between reading it and charging it), makes way for a new one (its
 * key names the one it replaces, so a rerun of the step makes the same), and the page says why.
 */
export async function chargeWhilePresent<
  Input extends PresentPaymentInput,
  Results extends StepResults,
  Owner extends JobOwner,
  Charged,
>(
  context: JobContext<Input, Results, Owner>,
  payment: PaymentIntentRequest,
  charge: (paymentIntentId: string | undefined) => Promise<Charged>,
): Promise<Charged> {
  const remembered = context.input.paymentIntentId;
  if (remembered) {
    const intent = await getBilling().retrievePaymentIntent(payment.customerId, remembered);
    if (intent.status === "requires_action") throw new AwaitingCardholder(intent.redirectUrl);
    if (intent.status === "failed" || intent.status === "expired") {
      return waitOnNewIntent(context, payment, intent.id, intent.failure);
    }
    // Authorized, or consumed: the provider spends it once, and answers a second use with its refusal.
    try {
      return await charge(remembered);
    } catch (error) {
      if (!(error instanceof ProviderError && error.code === PAYMENT_INTENT_EXPIRED)) throw error;
      return waitOnNewIntent(context, payment, remembered, error.providerMessage ?? null);
    }
  }
  try {
    return await charge(undefined);
  } catch (error) {
    if (!(error instanceof ProviderError && error.code === AUTHENTICATION_REQUIRED)) throw error;
    return waitOnNewIntent(context, payment, null, null);
  }
}

async function waitOnNewIntent<Input extends PresentPaymentInput, Results extends StepResults, Owner extends JobOwner>(
  context: JobContext<Input, Results, Owner>,
  payment: PaymentIntentRequest,
  replacedIntent: string | null,
  reason: string | null,
): Promise<never> {
  const key = `${context.stepKey}:payment-intent:${payment.paymentSourceId}:${replacedIntent ?? "first"}`;
  const intent = await getBilling().createPaymentIntent(payment, key);
  await context.remember("paymentIntentId", intent.id);
  throw new AwaitingCardholder(intent.redirectUrl, reason);
}

/** The card a job's charge uses: the one chosen on the progress page since, else the order's. */
export const cardToCharge = (input: PresentPaymentInput, ordered: string) => input.otherCard ?? ordered;

/**
 * The bank page's return to a job's progress page, `paymentIntentId` naming what the cardholder answered: the same
 * job starts again once, when it waits on that payment intent (a reload, a second tab or an older intent's
 * return starts nothing). Whatever the bank said, the job reads it from the provider: it charges an authorized
 * intent, and waits again, saying why, after a failed one. False when it started nothing.
 */
export async function resumeAfterBank(
  ownerId: string,
  jobId: string,
  kinds: PresentPaymentKinds,
  paymentIntentId: string,
) {
  const job = await ownedJob(ownerId, jobId, kinds);
  if (job.input.paymentIntentId !== paymentIntentId) return false;
  return resumeWaitingJob(ownerId, job);
}

/** The payment intent a job of the kinds waits on, which its page shows; null when it does not wait. */
export async function waitingOn(ownerId: string, jobId: string, kinds: PresentPaymentKinds): Promise<string | null> {
  const job = await ownedJob(ownerId, jobId, kinds);
  const intent = job.input.paymentIntentId;
  return job.status === "waiting_for_cardholder" && typeof intent === "string" ? intent : null;
}

/**
 * 'Choose another card' on the progress page of a job that waits on the payment intent `seenIntent` (the one the
 * page showed): the same job starts over on the organization's card `paymentSourceId` (checked by the caller), its
 * payment intent forgotten. Of two choices posted at once (two tabs) one wins: the other finds the job changed
 * (resumeWaitingJob), or waiting on another intent since, and is false, as is a choice for a job that does not wait.
 */
export async function chooseAnotherCard(
  ownerId: string,
  jobId: string,
  kinds: PresentPaymentKinds,
  paymentSourceId: string,
  seenIntent: string,
) {
  const job = await ownedJob(ownerId, jobId, kinds);
  if (job.status !== "waiting_for_cardholder" || job.input.paymentIntentId !== seenIntent) return false;
  return resumeWaitingJob(ownerId, job, { ...job.input, otherCard: paymentSourceId, paymentIntentId: null });
}

/**
 * The organization's job of one of the kinds that waits on the payment intent `paymentIntentId`; null when none
 * does (another organization's intent, one answered or replaced since, or an unknown id).
 */
export async function jobWaitingOn(ownerId: string, paymentIntentId: string, kinds: PresentPaymentKinds) {
  const waiting = await listWaitingJobs(ownerId);
  const names = [kinds].flat().map((kind) => kind.name);
  return waiting.find((job) => names.includes(job.kind) && job.input.paymentIntentId === paymentIntentId) ?? null;
}

/** The organization's job of one of the kinds; a 404 for any other. */
export async function ownedJob(ownerId: string, jobId: string, kinds: PresentPaymentKinds): Promise<JobView> {
  const job = await findOwnedJob(ownerId, jobId);
  if (!job || ![kinds].flat().some((kind) => kind.name === job.kind)) {
    throw json({ message: "There is no such order." }, { status: 404 });
  }
  return job;
}
