/**
 * Real time, for what is not dated by billing: when a row was written, a timeout, a retry's wait, an idempotency
 * key's window, a file's signing time. What follows the billing provider's dates (a license's validity, a renewal,
 * dunning, an invoice, a quote's expiry, a subscription's start) reads the portal's clock instead (`portalNow`,
 * the billing port's), which the time machine moves; ESLint refuses `new Date()` in that code so that each use
 * says which clock it means.
 */
export const realNow = (): Date => new Date();
