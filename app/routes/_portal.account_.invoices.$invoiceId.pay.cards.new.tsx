import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { newCardDrawer } from "~/server/account-billing/drawers.server";
import { payNowDrawerMount } from "~/server/orders/pay-now.server";

// The account's drawer, mounted over Pay now's payment step (of the organization's own invoice only); saving
// returns to the step.
const mount = ({ params }: { params: LoaderFunctionArgs["params"] }) => payNowDrawerMount(params.invoiceId ?? "");
export const loader = (args: LoaderFunctionArgs) => newCardDrawer.loader(args, mount(args));
export const action = (args: ActionFunctionArgs) => newCardDrawer.action(args, mount(args));
export { NewCardDrawer as default } from "~/ui/billing/card-drawers";
export { cardRouteHandle as handle } from "~/ui/billing/card-drawers";
export { DrawerErrorBoundary as ErrorBoundary } from "~/ui/billing/drawer";
