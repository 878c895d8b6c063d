// What the subscriptions capability (the copies of the provider's subscriptions and invoices, the events and the
// reconciliation that keep them, licenses and their files, renewals) offers the rest of the portal; its other
// modules are its own.
export { catalogue } from "./catalogue.server";
export { saveInvoiceCopy, saveSubscriptionCopy, subscriptionCopy } from "./copies.server";
export { invoiceCopyRow, subscriptionCopyRow } from "./copy-rows.server";
export { providerEventJob } from "./event-consumer.server";
export { hubLicenseUpload } from "./hub-license-upload.server";
export { ownInvoice } from "./invoices.server";
export { licenseFollowsSubscription } from "./license-follows.server";
export { licenseRow, reissueLicenseFiles } from "./license-issuing.server";
export {
  createLicenseForSubscription,
  licenseListItem,
  recordLicensePoNumber,
  recurringLicenseOf,
} from "./licenses.server";
export { reconciliation, startProviderSync } from "./reconciliation.server";
export { renewalReminder, startRenewalReminders } from "./renewal-reminders.server";
