import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { billingProfileDrawer } from "~/server/account-billing/drawers.server";
import { billingStepOf } from "~/server/orders/new-subscription-wizard.server";

// The account's drawer, mounted over the purchase wizard's payment step; saving returns to the step (of the order's
// customer's draft).
export const loader = (args: LoaderFunctionArgs) => billingProfileDrawer.loader(args, billingStepOf(args.request));
export const action = (args: ActionFunctionArgs) => billingProfileDrawer.action(args, billingStepOf(args.request));
export { BillingProfileDrawer as default } from "~/ui/billing/address-drawers";
export { DrawerErrorBoundary as ErrorBoundary } from "~/ui/billing/drawer";
