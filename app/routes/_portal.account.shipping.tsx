import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { shippingDrawer } from "~/server/account-billing/drawers.server";

export const loader = (args: LoaderFunctionArgs) => shippingDrawer.loader(args, "/account");
export const action = (args: ActionFunctionArgs) => shippingDrawer.action(args, "/account");
export { ShippingDrawer as default } from "~/ui/billing/address-drawers";
export { DrawerErrorBoundary as ErrorBoundary } from "~/ui/billing/drawer";
