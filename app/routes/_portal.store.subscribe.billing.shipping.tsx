import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { shippingDrawer } from "~/server/account-billing/drawers.server";

// The account's drawer, mounted over the purchase wizard's payment step; saving returns to the step.
export const loader = (args: LoaderFunctionArgs) => shippingDrawer.loader(args, "/store/subscribe/billing");
export const action = (args: ActionFunctionArgs) => shippingDrawer.action(args, "/store/subscribe/billing");
export { ShippingDrawer as default } from "~/ui/billing/address-drawers";
export { DrawerErrorBoundary as ErrorBoundary } from "~/ui/billing/drawer";
