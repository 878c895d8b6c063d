import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { replaceCardDrawer } from "~/server/account-billing/drawers.server";
import { payNowDrawerMount } from "~/server/orders/pay-now.server";

// The account's drawer, mounted over Pay now's payment step (of the organization's own invoice only); saving
// returns to the step.
const mount = ({ params }: { params: LoaderFunctionArgs["params"] }) => payNowDrawerMount(params.invoiceId ?? "");
export const loader = (args: LoaderFunctionArgs) => replaceCardDrawer.loader(args, mount(args));
export const action = (args: ActionFunctionArgs) => replaceCardDrawer.action(args, mount(args));
export { ReplaceCardDrawer as default } from "~/ui/billing/card-drawers";
export { cardRouteHandle as handle } from "~/ui/billing/card-drawers";
export { DrawerErrorBoundary as ErrorBoundary } from "~/ui/billing/drawer";
