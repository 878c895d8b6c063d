import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { billingProfileDrawer } from "~/server/account-billing/drawers.server";

export const loader = (args: LoaderFunctionArgs) => billingProfileDrawer.loader(args, "/account");
export const action = (args: ActionFunctionArgs) => billingProfileDrawer.action(args, "/account");
export { BillingProfileDrawer as default } from "~/ui/billing/address-drawers";
export { DrawerErrorBoundary as ErrorBoundary } from "~/ui/billing/drawer";
