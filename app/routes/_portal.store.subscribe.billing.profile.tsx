import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { billingProfileDrawer } from "~/server/account-billing/drawers.server";

// The account's drawer, mounted over the purchase wizard's payment step; saving returns to the step.
export const loader = (args: LoaderFunctionArgs) => billingProfileDrawer.loader(args, "/store/subscribe/billing");
export const action = (args: ActionFunctionArgs) => billingProfileDrawer.action(args, "/store/subscribe/billing");
export { BillingProfileDrawer as default } from "~/ui/billing/address-drawers";
export { DrawerErrorBoundary as ErrorBoundary } from "~/ui/billing/drawer";
