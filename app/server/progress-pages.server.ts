import { customerUrls } from "~/domain/customers";
import { orderNextStep } from "~/domain/subscription";
import { orderCustomerQuery, subscriptionStepUrl } from "~/domain/subscription-steps";
import { updateStepUrl } from "~/domain/license-update";
import { afterCheckoutUrls } from "~/domain/renewals";
import { TRIAL_KINDS, trialOutcome, trialProgressUrl, trialRun } from "~/server/trials/index.server";
import {
  cloudHubDeployment,
  DEPLOYMENT_STAGES,
  retryWhenOpen,
  secondsUntilRetry,
} from "~/server/cloud-hubs/index.server";
import {
  licenseUpdate,
  newSubscriptionOrder,
  orderProgressUrl,
  payNow,
  presentPaymentPages,
  updateProgressUrl,
  type PresentPaymentKinds,
  waitingJobDrawerMount,
} from "~/server/orders/index.server";
import type { Action } from "~/domain/access-policy";
import { memberGuard } from "~/server/accounts/index.server";
import { jobProgressRoute, ofKind } from "~/server/platform/jobs/progress.server";
import { finishedResults } from "~/server/platform/jobs/runner.server";

/** The progress pages: a placed order, an update, a cloud Hub deployment, a trial, and a payment of a renewal. */

/**
 * The jobs that charge the cardholder while they are there, each with what a member must be allowed to do to follow
 * and answer its payment (the right to do what the job does), and its progress page.
 */
export const PRESENT_PAYMENT_JOBS = {
  order: { kinds: newSubscriptionOrder, needs: "purchase", progressUrl: orderProgressUrl },
  update: { kinds: licenseUpdate, needs: "licenses.update", progressUrl: updateProgressUrl },
  trial: { kinds: TRIAL_KINDS, needs: "trials.start", progressUrl: trialProgressUrl },
  payNow: { kinds: payNow, needs: "invoices.pay", progressUrl: afterCheckoutUrls.payment },
} satisfies Record<string, { kinds: PresentPaymentKinds; needs: Action; progressUrl: (jobId: string) => string }>;

/**
 * A new recurring license: 'Create Recurring License', then Finish. Its charge may wait for the cardholder's bank,
 * which sends them back here.
 */
const orderProgressRoute = jobProgressRoute({
  guard: memberGuard,
  open: ofKind(newSubscriptionOrder, [
    { title: "Create Recurring License", steps: ["create-subscription", "add-customer", "create-license"] },
    { title: "Finish", steps: ["clear-draft"] },
  ]),
  details(job) {
    const input = newSubscriptionOrder.input.safeParse(job.input);
    const results = finishedResults(newSubscriptionOrder, job);
    const license = results["create-license"]?.licenseId;
    const customerId = results["add-customer"]?.customerId ?? null;
    // From the Hubs page, the deployment wizard opens with the new license chosen.
    const deployTo =
      license && input.success && input.data.origin === "cloud-hubs"
        ? `/hubs/new/url?license=${encodeURIComponent(license)}`
        : "/hubs/new/url";
    return {
      next: input.success ? orderNextStep(input.data) : ("download-license" as const),
      deployTo,
      // Back to the order goes to the draft it was placed from: its end customer's, if any.
      editTo: subscriptionStepUrl("order", input.success ? orderCustomerQuery(input.data.licensee) : null),
      customerTo: customerId ? customerUrls.page(customerId) : null,
    };
  },
  retryNeeds: "purchase",
});
export const orderProgress = presentPaymentPages(orderProgressRoute, PRESENT_PAYMENT_JOBS.order);
/** The card drawers of an order's progress page, while its charge waits for the cardholder. */
export const orderCardDrawerMount = (jobId: string) =>
  waitingJobDrawerMount(newSubscriptionOrder, jobId, orderProgressUrl(jobId));

/** An update of a recurring license: 'Update Recurring License', then Finish. Its charge may wait, as an order's. */
const updateProgressRoute = jobProgressRoute({
  guard: memberGuard,
  open: ofKind(licenseUpdate, [
    { title: "Update Recurring License", steps: ["override-billing-profile", "update-subscription", "update-license"] },
    { title: "Finish", steps: ["clear-draft"] },
  ]),
  details(job) {
    const input = licenseUpdate.input.parse(job.input);
    return { licenseName: input.licenseName, reviewUrl: updateStepUrl(input.request.subscriptionId, "review") };
  },
  retryNeeds: "licenses.update",
});
export const updateProgress = presentPaymentPages(updateProgressRoute, PRESENT_PAYMENT_JOBS.update);
/** The card drawers of an update's progress page, while its charge waits for the cardholder. */
export const updateCardDrawerMount = (jobId: string) =>
  waitingJobDrawerMount(licenseUpdate, jobId, updateProgressUrl(jobId));

/** A cloud Hub deployment. Its Hub steps open 'Try again' only after a wait (decision 096). */
export const deploymentProgress = jobProgressRoute({
  guard: memberGuard,
  open: ofKind(cloudHubDeployment, DEPLOYMENT_STAGES),
  details: (job) => ({
    hub: finishedResults(cloudHubDeployment, job)["record-hub"] ?? null,
    failedAtCreation: job.error?.step === "create-tenant",
    retryInSeconds: secondsUntilRetry(job),
  }),
  retryNeeds: "hubs.deploy",
  retry: retryWhenOpen,
});

/**
 * A trial of either kind; the cloud trial's Hub steps wait before 'Try again' as a deployment's do. Its hardware's
 * charge may wait for the cardholder's bank, as an order's.
 */
const trialProgressRoute = jobProgressRoute({
  guard: memberGuard,
  open: trialRun,
  details(job, { hubType }) {
    const { hub, licenseId, hardware, customerId } = trialOutcome(job);
    return {
      hubType,
      // Back to the trial's details goes to the draft it was started from: its end customer's, if any.
      customerId,
      hub,
      licenseId,
      hardwareFailed: hardware?.status === "failed",
      hardwareOrdered: hardware?.status === "invoiced",
      retryInSeconds: secondsUntilRetry(job),
    };
  },
  retryNeeds: "trials.start",
  retry: retryWhenOpen,
});
export const trialProgress = presentPaymentPages(trialProgressRoute, PRESENT_PAYMENT_JOBS.trial);
/** The card drawers of a trial's progress page, while its hardware's charge waits for the cardholder. */
export const trialCardDrawerMount = (jobId: string) =>
  waitingJobDrawerMount(TRIAL_KINDS, jobId, trialProgressUrl(jobId));

/**
 * Pay now: the renewal's invoice collected once, then the license extended. The page shows the payment's amount
 * and invoice, so only the roles that pay invoices read it, as on the Pay now page itself.
 */
const paymentProgressRoute = jobProgressRoute({
  guard: memberGuard,
  readNeeds: "invoices.pay",
  open: ofKind(payNow, [
    { title: "Pay Invoice", steps: ["collect"] },
    { title: "Extend License", steps: ["extend-license"] },
  ]),
  details(job) {
    const input = payNow.input.parse(job.input);
    return { amount: input.amount, payUrl: afterCheckoutUrls.payNow(input.invoiceId) };
  },
  retryNeeds: "invoices.pay",
});
/** Its charge may wait for the cardholder's bank, as an order's. */
export const paymentProgress = presentPaymentPages(paymentProgressRoute, PRESENT_PAYMENT_JOBS.payNow);
/** The card drawers of a payment's progress page, while its charge waits for the cardholder. */
export const paymentCardDrawerMount = (jobId: string) =>
  waitingJobDrawerMount(payNow, jobId, afterCheckoutUrls.payment(jobId));
