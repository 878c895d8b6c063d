// What the orders capability (new licenses, license updates, renewals as new orders, Pay now, and placing a
// confirmed wizard once) offers the rest of the portal; its other modules are its own.
export { licenseUpdate, updateProgressUrl } from "./license-update-job.server";
export { newSubscriptionOrder, orderProgressUrl } from "./new-subscription-job.server";
export { anotherCardData, presentPaymentPages, waitingJobDrawerMount } from "./present-payment-pages.server";
export {
  cardToCharge,
  chargeWhilePresent,
  jobWaitingOn,
  presentPaymentInput,
  resumeAfterBank,
  type PresentPaymentKinds,
} from "./present-payments.server";
export { payNow } from "./pay-now-job.server";
export { ESTIMATE_FAILED, orderKey, placeOnce, requestDigest, type Placement } from "./placing.server";
export { couponProblem } from "./coupons.server";
export { estimateDraft, subscriptionWizardFor, type OrderCustomer } from "./new-subscription-wizard.server";
export { priceListVersion } from "./quote-orders.server";
