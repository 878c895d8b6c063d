// What the account billing capability (cards, the billing profile, addresses, the payment step's data) offers the
// rest of the portal; its other modules are its own.
export {
  addressForPage,
  choosePayment,
  loadAccountBilling,
  loadPaymentStep,
  paymentForPage,
  renewalCardOf,
} from "./billing-details.server";
export { checkVatNumber, providerStatusOf, taxIdRecheck } from "./tax-ids.server";
export type { DrawerMount } from "./drawers.server";
