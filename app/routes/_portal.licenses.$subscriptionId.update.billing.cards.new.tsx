import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { newCardDrawer } from "~/server/account-billing/drawers.server";
import { updateDrawerMount } from "~/server/orders/license-update-wizard.server";

// The account's drawer, mounted over the update wizard's payment step (of the organization's own subscription
// only); saving returns to the step.
const mount = ({ params }: { params: LoaderFunctionArgs["params"] }) => updateDrawerMount(params.subscriptionId ?? "");
export const loader = (args: LoaderFunctionArgs) => newCardDrawer.loader(args, mount(args));
export const action = (args: ActionFunctionArgs) => newCardDrawer.action(args, mount(args));
export { NewCardDrawer as default } from "~/ui/billing/card-drawers";
export { cardRouteHandle as handle } from "~/ui/billing/card-drawers";
export { DrawerErrorBoundary as ErrorBoundary } from "~/ui/billing/drawer";
